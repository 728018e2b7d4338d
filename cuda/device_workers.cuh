// Host-side pieces shared by the engines that spread batches over several GPUs
// (cuda/ryser_gpu.cu, cuda/hafnian_gpu.cu): one worker thread per device, and the double-double
// sum in which the host combines the batches' records (in batch order, so that the result does
// not depend on which GPU finished first).
#pragma once

#include <atomic>
#include <cstddef>
#include <exception>
#include <thread>
#include <vector>

namespace pmcount::backend::cuda {

/// A double-double value on the host.
struct DD {
    double hi = 0;
    double lo = 0;
};

/// a + b in double-double (two-sum of the high parts, the low parts added, renormalised).
inline DD dd_add(DD a, DD b) {
    const double s = a.hi + b.hi;
    const double bb = s - a.hi;
    double e = (a.hi - (s - bb)) + (b.hi - bb);
    e += a.lo + b.lo;
    const double hi = s + e;
    return {hi, e - (hi - s)};
}

/// Calls work(g) on its own thread for every device slot g < devices and waits for all of them.
/// The first exception sets `stop` (the other workers see it and return after their batch) and
/// is rethrown once every thread has joined.
template <class Work>
void run_on_devices(std::size_t devices, std::atomic<bool>& stop, Work&& work) {
    std::vector<std::exception_ptr> errors(devices);
    std::vector<std::thread> workers;
    workers.reserve(devices);
    for (std::size_t g = 0; g < devices; ++g) {
        workers.emplace_back([&, g] {
            try {
                work(g);
            } catch (...) {
                errors[g] = std::current_exception();
                stop = true;
            }
        });
    }
    for (auto& w : workers) {
        w.join();
    }
    for (const auto& e : errors) {
        if (e) {
            std::rethrow_exception(e);
        }
    }
}

}  // namespace pmcount::backend::cuda
