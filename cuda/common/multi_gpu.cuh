// How every engine that spreads batches over several GPUs (cuda/ryser_range.cu,
// cuda/hafnian_gpu.cu) runs them: the devices a job asks for, one host thread per device, and
// batches handed out from one counter until none is left or a worker stops the job.
#pragma once

#include <cuda_runtime.h>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <exception>
#include <string>
#include <thread>
#include <vector>

#include "backend/device.hpp"
#include "cuda_status.cuh"
#include "pmcount/error.hpp"

namespace pmcount::backend::cuda {

/// The GPUs of a job: `requested` (each checked to exist), or every visible one when empty.
inline std::vector<int> chosen_devices(const std::vector<int>& requested) {
    int count = 0;
    check(cudaGetDeviceCount(&count), "no usable GPU");
    std::vector<int> out;
    if (requested.empty()) {
        for (int d = 0; d < count; ++d) {
            out.push_back(d);
        }
    } else {
        for (const int d : requested) {
            if (d < 0 || d >= count) {
                throw DeviceError("GPU " + std::to_string(d) + " does not exist (" +
                                  std::to_string(count) + " visible)");
            }
            out.push_back(d);
        }
    }
    if (out.empty()) {
        throw DeviceError("no GPU visible");
    }
    return out;
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

/// One worker's view of the job's batches: run(body) calls body(b) for each batch index b it
/// takes from the shared counter, until none is left or the job stops; the reporting worker
/// (device slot 0) asks the range's keep_going after each of its batches.
class BatchQueue {
public:
    BatchQueue(std::atomic<int>& next, std::size_t batches, std::atomic<bool>& stop,
               const GpuRange& range, bool report, GpuDeviceUse& use)
        : next_(next), batches_(batches), stop_(stop), range_(range), report_(report), use_(use) {}

    template <class Body>
    void run(Body&& body) {
        for (int b = next_++; b < static_cast<int>(batches_) && !stop_; b = next_++) {
            body(static_cast<std::size_t>(b));
            ++use_.batches;
            if (report_ && range_.keep_going && !range_.keep_going()) {
                stop_ = true;
            }
        }
    }

private:
    std::atomic<int>& next_;
    std::size_t batches_;
    std::atomic<bool>& stop_;
    const GpuRange& range_;
    bool report_;
    GpuDeviceUse& use_;
};

/// Runs `batches` batches on the GPUs `gpus`, one host thread each: a worker makes its device
/// current, calls work(device, properties, queue) (which sets up and drains the queue) and fills
/// its entry of `uses` (device, name, batches, seconds). Errors as run_on_devices.
template <class Work>
void run_batches(const std::vector<int>& gpus, std::size_t batches, const GpuRange& range,
                 std::vector<GpuDeviceUse>& uses, Work&& work) {
    uses.resize(gpus.size());
    std::atomic<int> next{0};
    std::atomic<bool> stop{false};
    run_on_devices(gpus.size(), stop, [&](std::size_t g) {
        const auto start = std::chrono::steady_clock::now();
        const int device = gpus[g];
        check(cudaSetDevice(device), "cudaSetDevice");
        cudaDeviceProp prop{};
        check(cudaGetDeviceProperties(&prop, device), "cudaGetDeviceProperties");
        GpuDeviceUse& use = uses[g];
        use.device = device;
        use.name = prop.name;
        BatchQueue queue(next, batches, stop, range, g == 0, use);
        work(device, prop, queue);
        use.seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    });
}

}  // namespace pmcount::backend::cuda
