// Host-side pieces shared by the engines that spread batches over several GPUs
// (cuda/ryser_gpu.cu, cuda/hafnian_gpu.cu): one worker thread per device, and the double-double
// sums in which the host forms each unit's floating record from its segments and combines the
// units' records (in unit order, so that the result does not depend on which GPU finished first).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstring>
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

/// Words of a floating unit record: re hi/lo, im hi/lo, Σ|term| (kFloatWords), and for the
/// Ryser walks Σ|term|² after them (kFloatWordsWithSquares, for walk_error's figure).
constexpr std::size_t kFloatWords = 5;
constexpr std::size_t kFloatWordsWithSquares = 6;

/// The floating record of a unit (`words` doubles, as above) from its `count` segment records of
/// `stride` doubles each (the same words first), added in order.
inline void float_unit_record(const double* segments, std::size_t count, std::size_t stride,
                              unsigned char* record, std::size_t words = kFloatWords) {
    DD re, im;
    double magnitude = 0, squares = 0;
    for (std::size_t g = 0; g < count; ++g) {
        const double* r = segments + g * stride;
        re = dd_add(re, {r[0], r[1]});
        im = dd_add(im, {r[2], r[3]});
        magnitude += r[4];
        if (words == kFloatWordsWithSquares) {
            squares += r[5];
        }
    }
    const double sums[kFloatWordsWithSquares] = {re.hi, re.lo, im.hi, im.lo, magnitude, squares};
    std::memcpy(record, sums, words * sizeof(double));
}

/// Σ of floating unit records (float_unit_record's layout, `units` of them of `words` doubles),
/// in unit order, into a result's re_hi, re_lo, im_hi, im_lo and magnitude (GpuRyserResult,
/// GpuHafnianResult); Σ|term|² into `squares` when the records carry it.
template <class Result>
void merge_float_records(const unsigned char* records, std::size_t units, Result& result,
                         std::size_t words = kFloatWords, double* squares = nullptr) {
    DD re, im;
    double magnitude = 0, square_sum = 0;
    for (std::size_t u = 0; u < units; ++u) {
        double sums[kFloatWordsWithSquares] = {};
        std::memcpy(sums, records + u * words * sizeof(double), words * sizeof(double));
        re = dd_add(re, {sums[0], sums[1]});
        im = dd_add(im, {sums[2], sums[3]});
        magnitude += sums[4];
        square_sum += sums[5];
    }
    result.re_hi = re.hi;
    result.re_lo = re.lo;
    result.im_hi = im.hi;
    result.im_lo = im.lo;
    result.magnitude = magnitude;
    if (squares != nullptr) {
        *squares = square_sum;
    }
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
