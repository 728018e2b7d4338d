// What every binding file of pmcount._core shares (module.cpp, matchings.cpp): the array types
// the calls take, the checks that turn them into the library's graphs, BigInt to Python int, and
// the way a long call runs (without the GIL, stopped by Ctrl-C, reporting progress).
#pragma once

#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/optional.h>
#include <signal.h>

#include <atomic>
#include <cstdint>
#include <limits>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "pmcount/big_int.hpp"
#include "pmcount/error.hpp"
#include "pmcount/graph.hpp"
#include "pmcount/options.hpp"
#include "pmcount/result.hpp"

namespace pmcount::bindings {

namespace nb = nanobind;
using pmcount::vertex_t;

template <class T>
using Matrix2D = nb::ndarray<const T, nb::ndim<2>, nb::c_contig, nb::device::cpu>;
using Pairs = nb::ndarray<const std::int64_t, nb::ndim<2>, nb::c_contig, nb::device::cpu>;
template <class T>
using Vector = nb::ndarray<const T, nb::ndim<1>, nb::c_contig, nb::device::cpu>;
template <class T>
using Matrix3D = nb::ndarray<const T, nb::ndim<3>, nb::c_contig, nb::device::cpu>;

// ---- inputs -------------------------------------------------------------------------------------

inline vertex_t checked_order(std::int64_t n, const char* what) {
    if (n < 0 || n > std::numeric_limits<vertex_t>::max()) {
        throw pmcount::InvalidArgument(std::string(what) + " " + std::to_string(n) +
                                       " is out of range");
    }
    return static_cast<vertex_t>(n);
}

/// Rows of a (k, 2) array as vertex pairs, each end checked against its side's size.
inline std::vector<std::pair<vertex_t, vertex_t>> pairs_of(const Pairs& pairs,
                                                           std::int64_t first_size,
                                                           std::int64_t second_size) {
    if (pairs.shape(1) != 2) {
        throw pmcount::DimensionMismatch("edges must be a (k, 2) array, got (" +
                                         std::to_string(pairs.shape(0)) + ", " +
                                         std::to_string(pairs.shape(1)) + ")");
    }
    std::vector<std::pair<vertex_t, vertex_t>> out;
    out.reserve(pairs.shape(0));
    const std::int64_t* data = pairs.data();
    for (std::size_t k = 0; k < pairs.shape(0); ++k) {
        const std::int64_t u = data[2 * k];
        const std::int64_t v = data[2 * k + 1];
        if (u < 0 || u >= first_size || v < 0 || v >= second_size) {
            throw pmcount::InvalidArgument("edge " + std::to_string(k) + " (" + std::to_string(u) +
                                           ", " + std::to_string(v) +
                                           ") names a vertex out of range");
        }
        out.emplace_back(static_cast<vertex_t>(u), static_cast<vertex_t>(v));
    }
    return out;
}

/// |x| of a BigInt as little-endian bytes, read by int.from_bytes, so that no decimal conversion
/// (and no digit limit of int(str)) stands between the count and the user.
inline nb::int_ python_int(const pmcount::BigInt& x) {
    const std::vector<std::uint64_t>& limbs = x.magnitude();
    std::string bytes(limbs.size() * 8, '\0');
    for (std::size_t k = 0; k < limbs.size(); ++k) {
        for (int b = 0; b < 8; ++b) {
            bytes[8 * k + b] = static_cast<char>((limbs[k] >> (8 * b)) & 0xff);
        }
    }
    nb::object magnitude = nb::module_::import_("builtins")
                               .attr("int")
                               .attr("from_bytes")(nb::bytes(bytes.data(), bytes.size()), "little");
    if (x.is_negative()) {
        magnitude = nb::steal(PyNumber_Negative(magnitude.ptr()));
    }
    return nb::borrow<nb::int_>(magnitude);
}

// ---- calls --------------------------------------------------------------------------------------

/// The progress argument of every call: None or a callable(fraction, elapsed_seconds).
using ProgressArg = std::optional<nb::callable>;

/// The engines' progress callback: with the GIL, raise a pending KeyboardInterrupt (or whatever
/// a signal handler raised) as a C++ exception that unwinds the engine, then report to the user's
/// callable (fraction, elapsed seconds), whose exceptions unwind the same way. The callable is a
/// borrowed pointer: the call's own argument keeps it alive for the whole call, and copying a raw
/// pointer needs no GIL (the options are copied on threads that do not hold it).
template <class Options>
Options with_progress(const Options& given, const ProgressArg& progress) {
    Options options = given;
    PyObject* callback = progress ? progress->ptr() : nullptr;
    options.progress = [callback](const pmcount::Progress& p) {
        nb::gil_scoped_acquire gil;
        if (PyErr_CheckSignals() != 0) {
            throw nb::python_error();
        }
        if (callback != nullptr) {
            const nb::handle user(callback);
            user(p.fraction, p.elapsed_s);
        }
    };
    return options;
}

/// While a call runs without the GIL, SIGINT also asks the engines to stop
/// (pmcount::request_stop, an atomic store) besides tripping Python's own flag, so Ctrl-C ends
/// the call at the next chunk even when no progress callback reaches PyErr_CheckSignals in time;
/// the engine's Interrupted becomes KeyboardInterrupt (translate below). Nested and concurrent
/// calls share one installation; the last to leave restores Python's handler and withdraws a
/// stop request that arrived too late for any engine.
class SigintGuard {
public:
    SigintGuard() {
        const std::lock_guard<std::mutex> lock(mutex_);
        if (depth_++ == 0) {
            // A program that ignores SIGINT keeps ignoring it.
            struct sigaction current {};
            installed_ = sigaction(SIGINT, nullptr, &current) == 0 && current.sa_handler != SIG_IGN;
            if (installed_) {
                struct sigaction mine {};
                mine.sa_handler = &SigintGuard::on_sigint;
                sigemptyset(&mine.sa_mask);
                installed_ = sigaction(SIGINT, &mine, &previous_) == 0;
            }
        }
    }
    ~SigintGuard() {
        const std::lock_guard<std::mutex> lock(mutex_);
        if (--depth_ == 0) {
            if (installed_) {
                sigaction(SIGINT, &previous_, nullptr);
            }
            if (seen_.exchange(false)) {
                pmcount::clear_stop_request();
            }
        }
    }
    SigintGuard(const SigintGuard&) = delete;
    SigintGuard& operator=(const SigintGuard&) = delete;

private:
    static void on_sigint(int) {
        seen_.store(true);
        pmcount::request_stop();
        PyErr_SetInterruptEx(SIGINT);  // async-signal-safe (Python 3.10+)
    }
    static inline std::mutex mutex_;
    static inline int depth_ = 0;
    static inline bool installed_ = false;
    static inline struct sigaction previous_ {};
    static inline std::atomic<bool> seen_{false};
};

/// Runs `call` without the GIL; SIGINT stops it (SigintGuard).
template <class F>
auto released(F&& call) {
    decltype(call()) r;
    {
        const SigintGuard sigint;
        nb::gil_scoped_release release;
        r = call();
    }
    return r;
}

/// Defined in matchings.cpp: the matchings of every size (pmcount/matchings.hpp).
void bind_matchings(nb::module_& m);

}  // namespace pmcount::bindings
