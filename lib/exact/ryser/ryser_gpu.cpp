// Dense Ryser on GPUs, library side. Phases:
//   1. validate, scale rows (floats) or lay rows out in four exact lanes and pick 31-bit primes
//      from the proven bound plus a spare (exact);
//   2. tables: y(∅) and the n−1 Gray columns 2·a_j, in the layout of cuda/kernels/ryser_dense.cuh;
//   3. backend::cuda::ryser_dense() runs the Gray range on the GPUs;
//   4. perm = (−1)^(n−1) Σ / 2^(n−1): CRT with the spare's check, or the error estimate.
#include "exact/ryser/ryser_gpu.hpp"

#include <cstdio>

#include "backend/cuda_backend.hpp"
#include "exact/ryser/ryser_driver.hpp"
#include "numeric/double_double.hpp"

namespace pmcount::exact {

namespace {

namespace gpu = backend::cuda;
using driver::uint128_t;

constexpr const char* kEngine = "GPU Ryser";

/// Error model of the GPU's double modes: as the CPU's (ryser_driver.hpp), with x recomputed
/// every 2^12 steps instead of 2^10 (drift of a random walk of ~64 roundings).
double gpu_error_factor(vertex_t n) { return (2.0 * n + 128.0) * driver::kUnitRoundoff; }

std::string describe(const gpu::GpuRyserResult& r) {
    std::string text = "GPU";
    for (const auto& d : r.devices) {
        text += " " + std::to_string(d.device) + " (" + d.name + ", " + std::to_string(d.batches) +
                " batches)";
    }
    char buffer[96];
    std::snprintf(buffer, sizeof buffer, "; %llu chunks of 2^%d steps; kernels %.3g s",
                  static_cast<unsigned long long>(r.chunks), r.chunk_log2, r.seconds);
    return text + buffer;
}

gpu::GpuRyserJob make_job(vertex_t n, gpu::GpuMode mode, const EngineRun& run) {
    gpu::GpuRyserJob job;
    job.n = n;
    job.mode = mode;
    job.devices = run.gpus;
    job.columns.assign(static_cast<std::size_t>(n - 1) *
                           static_cast<std::size_t>(gpu::gpu_column_stride(n, mode)),
                       0.0);
    if (run.progress) {
        job.progress = [&run](double fraction) { run.progress(Progress{fraction, 0.0}); };
    }
    return job;
}

/// Column j, row slot s of the job's tables: `word` 0 or 1 of the value.
double& column_word(gpu::GpuRyserJob& job, int j, int s, int word) {
    const int words = job.mode == gpu::GpuMode::complex || job.mode == gpu::GpuMode::double_double ? 2 : 1;
    return job.columns[static_cast<std::size_t>(j) * static_cast<std::size_t>(gpu::gpu_column_stride(job.n, job.mode)) +
                       static_cast<std::size_t>(words * s + word)];
}

/// The 31-bit primes, largest first (below 2^31 so two residues add without overflow).
std::vector<std::uint32_t> primes31(std::size_t count) {
    const std::vector<std::uint64_t> primes = numeric::largest_primes_below(31, count);
    return {primes.begin(), primes.end()};
}

constexpr double kPrime31Log2 = 30.99;

/// Primes for a bound (Π p > 2·|perm| + 1) plus a spare; empty when more than the kernel takes.
std::vector<std::uint32_t> exact_primes(const DenseMatrix<std::int64_t>& a, bool binary) {
    const double bound = numeric::permanent_bound_log2(a, binary);
    const auto needed = static_cast<std::size_t>(std::max(0.0, bound + 1.0) / kPrime31Log2) + 1;
    if (needed + 1 > static_cast<std::size_t>(gpu::kGpuMaxPrimes)) {
        return {};
    }
    return primes31(needed + 1);
}

}  // namespace

bool gpu_available() noexcept {
    try {
        std::string status;
        return gpu::compiled() && !gpu::devices(status).empty();
    } catch (...) {
        return false;
    }
}

bool gpu_exact_fits(const DenseMatrix<std::int64_t>& a, bool binary) {
    if (!a.is_square() || a.rows() < 2 || a.rows() > kMaxRyserOrder) {
        return false;
    }
    if (std::isinf(numeric::permanent_bound_log2(a, binary))) {
        return true;  // zero: nothing to compute
    }
    const auto norms = driver::row_norms(a);
    return !driver::lane_layout(norms, 4 * ((a.rows() + 3) / 4), 4, a.rows()).empty() &&
           !exact_primes(a, binary).empty();
}

ExactOutcome ryser_exact_gpu(const DenseMatrix<std::int64_t>& a, bool binary, const EngineRun& run) {
    driver::check_order(a.rows(), a.cols(), kEngine);
    const vertex_t n = a.rows();
    ExactOutcome out;
    if (n < 2) {
        throw InvalidArgument("the GPU engine starts at order 2");
    }
    if (std::isinf(numeric::permanent_bound_log2(a, binary))) {
        out.value = 0;
        out.arithmetic = "none (a zero row or column)";
        return out;
    }
    const auto norms = driver::row_norms(a);
    const std::vector<int> layout = driver::lane_layout(norms, 4 * ((n + 3) / 4), 4, n);
    const std::vector<std::uint32_t> primes = exact_primes(a, binary);
    if (layout.empty() || primes.empty()) {
        throw InvalidArgument("this integer matrix does not fit the GPU's exact lanes");
    }
    gpu::GpuRyserJob job = make_job(n, gpu::GpuMode::modular, run);
    job.primes = primes;
    job.base.assign(static_cast<std::size_t>(n), 1.0);
    for (vertex_t s = 0; s < n; ++s) {
        const int i = layout[static_cast<std::size_t>(s)];
        if (i < 0) {
            continue;  // cannot happen: n slots for n rows
        }
        job.base[static_cast<std::size_t>(s)] = static_cast<double>(driver::start_value(a, i));
        for (int j = 0; j + 1 < n; ++j) {
            column_word(job, j, s, 0) = static_cast<double>(driver::twice_entry(a, i, j));
        }
    }
    const gpu::GpuRyserResult r = gpu::ryser_dense(job);
    std::vector<std::uint64_t> residues, moduli;
    for (std::size_t k = 0; k < primes.size(); ++k) {
        moduli.push_back(primes[k]);
        residues.push_back(driver::finish_residue(r.residues[k], n, primes[k]));
    }
    out.value = numeric::crt_with_spare(residues, moduli, "GPU Ryser");
    out.primes = static_cast<int>(primes.size());
    out.gray_steps = std::uint64_t{1} << (n - 1);
    out.arithmetic = "exact lanes ×4, modular (" + std::to_string(primes.size()) +
                     " primes of 31 bits, one spare) + CRT";
    out.device = describe(r);
    out.device_seconds = r.seconds;
    return out;
}

FloatOutcome ryser_real_gpu(const DenseMatrix<double>& a, Precision precision, const EngineRun& run) {
    driver::check_order(a.rows(), a.cols(), kEngine);
    const vertex_t n = a.rows();
    const bool dd = precision == Precision::double_double;
    const gpu::GpuMode mode = dd ? gpu::GpuMode::double_double
                              : precision == Precision::double_plain ? gpu::GpuMode::double_plain
                                                                     : gpu::GpuMode::double_compensated;
    const char* arithmetic = dd ? "double-double"
                             : mode == gpu::GpuMode::double_plain ? "double, plain accumulation"
                                                                  : "double, compensated accumulation";
    std::vector<int> e;
    if (n < 2 || !driver::row_exponents(a, [](double v) { return std::fabs(v); }, e)) {
        if (n < 2) {
            throw InvalidArgument("the GPU engine starts at order 2");
        }
        return driver::zero_outcome(arithmetic);
    }
    auto scaled = [&](int i, int j) { return std::ldexp(a(i, j), -e[static_cast<std::size_t>(i)]); };
    gpu::GpuRyserJob job = make_job(n, mode, run);
    job.base.assign(static_cast<std::size_t>(dd ? 2 * n : n), 0.0);
    for (vertex_t i = 0; i < n; ++i) {
        numeric::DoubleDouble start = 2 * scaled(i, n - 1);
        for (vertex_t j = 0; j < n; ++j) {
            start -= scaled(i, j);
        }
        if (dd) {
            job.base[2 * static_cast<std::size_t>(i)] = start.hi;
            job.base[2 * static_cast<std::size_t>(i) + 1] = start.lo;
        } else {
            job.base[static_cast<std::size_t>(i)] = start.to_double();
        }
        for (vertex_t j = 0; j + 1 < n; ++j) {
            column_word(job, j, i, 0) = 2 * scaled(i, j);  // dd: the low word stays 0
        }
    }
    const gpu::GpuRyserResult r = gpu::ryser_dense(job);
    const double u2 = driver::kUnitRoundoff * driver::kUnitRoundoff;
    const double factor = dd ? (std::ldexp(1.0, n) + 4.0 * n) * u2 : gpu_error_factor(n);
    FloatOutcome out = driver::float_outcome(r.re_hi + r.re_lo, r.magnitude, factor, n, e, arithmetic);
    out.device = describe(r);
    out.device_seconds = r.seconds;
    return out;
}

FloatOutcome ryser_complex_gpu(const DenseMatrix<std::complex<double>>& a, const EngineRun& run) {
    driver::check_order(a.rows(), a.cols(), kEngine);
    const vertex_t n = a.rows();
    const char* arithmetic = "complex double, compensated accumulation";
    std::vector<int> e;
    if (n < 2 || !driver::row_exponents(
                     a, [](std::complex<double> v) { return std::fabs(v.real()) + std::fabs(v.imag()); },
                     e)) {
        if (n < 2) {
            throw InvalidArgument("the GPU engine starts at order 2");
        }
        return driver::zero_outcome(arithmetic);
    }
    auto scaled = [&](int i, int j) {
        const int s = -e[static_cast<std::size_t>(i)];
        return std::complex<double>(std::ldexp(a(i, j).real(), s), std::ldexp(a(i, j).imag(), s));
    };
    gpu::GpuRyserJob job = make_job(n, gpu::GpuMode::complex, run);
    job.base.assign(2 * static_cast<std::size_t>(n), 0.0);
    for (vertex_t i = 0; i < n; ++i) {
        numeric::CompensatedSum re, im;
        re.add(2 * scaled(i, n - 1).real());
        im.add(2 * scaled(i, n - 1).imag());
        for (vertex_t j = 0; j < n; ++j) {
            re.add(-scaled(i, j).real());
            im.add(-scaled(i, j).imag());
        }
        job.base[2 * static_cast<std::size_t>(i)] = re.value();
        job.base[2 * static_cast<std::size_t>(i) + 1] = im.value();
        for (vertex_t j = 0; j + 1 < n; ++j) {
            column_word(job, j, i, 0) = 2 * scaled(i, j).real();
            column_word(job, j, i, 1) = 2 * scaled(i, j).imag();
        }
    }
    const gpu::GpuRyserResult r = gpu::ryser_dense(job);
    FloatOutcome out = driver::float_outcome({r.re_hi + r.re_lo, r.im_hi + r.im_lo}, r.magnitude,
                                             gpu_error_factor(n), n, e, arithmetic);
    out.device = describe(r);
    out.device_seconds = r.seconds;
    return out;
}

}  // namespace pmcount::exact
