// Dense Ryser on GPUs, library side. Phases:
//   1. validate, scale rows (floats) or lay rows out in four exact lanes and pick 31-bit primes
//      from the proven bound plus a spare (exact);
//   2. tables: y(∅) and the n−1 Gray columns 2·a_j, in the layout of cuda/kernels/ryser_dense.cuh;
//   3. backend::cuda::ryser_dense() runs the Gray range on the GPUs;
//   4. perm = (−1)^(n−1) Σ / 2^(n−1): CRT with the spare's check, or the error estimate.
#include "exact/ryser/ryser_gpu.hpp"

#include <array>
#include <cstdio>
#include <functional>
#include <future>
#include <numeric>
#include <optional>

#include "exact/ryser/ryser_device.hpp"
#include "exact/ryser/ryser_driver.hpp"
#include "numeric/double_double.hpp"
#include "numeric/sub_block_bits.hpp"

namespace pmcount::exact {

namespace {

namespace gpu = backend::cuda;
using driver::uint128_t;

constexpr const char* kEngine = "GPU Ryser";

/// The error figure of a GPU walk over the row-scaled matrix, started beside it (walk_error.hpp:
/// a host thread replays a sample of the walk while the GPU runs all of it).
template <class T>
std::future<driver::WalkSpread> walk_spread_beside(DenseMatrix<T> scaled) {
    return std::async(std::launch::async, [m = std::move(scaled)] {
        return driver::walk_spread(m, gpu::kGpuResetLog2);
    });
}

/// The figure of a compensated or complex GPU walk in the mantissa's scale (as the CPU's,
/// ryser_driver.hpp's walk_error_figure); plain accumulation adds the rounding of each thread's
/// uncompensated sum of 2^chunk_log2 terms, at most γ of their Σ|term|.
double gpu_walk_figure(const driver::WalkSpread& spread, const gpu::GpuRyserResult& r,
                       gpu::GpuMode mode, vertex_t n, double sum_abs) {
    const double plain =
        mode == gpu::GpuMode::double_plain ? driver::gamma_bound(std::ldexp(1.0, r.chunk_log2)) : 0;
    return driver::walk_error_figure(spread.figure(r.magnitude, r.squares),
                                     std::uint64_t{1} << (n - 1), r.magnitude, sum_abs) +
           plain * r.magnitude;
}

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

/// The outcome's device report for a GPU run.
DeviceReport report(const gpu::GpuRyserResult& r) {
    DeviceReport where;
    where.device = describe(r);
    where.device_seconds = r.seconds;
    where.codegen_seconds = r.generate_seconds;
    where.compile_seconds = r.compile_seconds;
    where.kernel_cache = r.kernel_cache;
    return where;
}

/// Runs a job's Gray range (gpu::ryser_dense or gpu::ryser_sparse as `launch`) through the
/// count's session: its units are the session's chunks (a resumed checkpoint's and other MPI
/// ranks' units are loaded, not computed); every unit's record is merged in unit order. The
/// timings and devices are this process's launches', the first launch's compilation.
template <class Job, class Launch>
gpu::GpuRyserResult run_range(Job& job, const run::EngineRun& run, Launch launch) {
    const std::uint64_t units = gpu::range_units(job);
    gpu::GpuRyserResult result;
    const std::vector<unsigned char> records = run::run_gpu_units(
        job, job.n - 1, units, gpu::range_record_bytes(job.mode, job.primes.size()), run, launch,
        result);
    result.units = units;
    gpu::merge_range_records(job.mode, job.primes, records, result);
    return result;
}

gpu::GpuRyserJob make_job(vertex_t n, gpu::GpuMode mode, const run::EngineRun& run) {
    gpu::GpuRyserJob job;
    job.n = n;
    job.mode = mode;
    job.devices = run.gpus;
    job.columns.assign(static_cast<std::size_t>(n - 1) *
                           static_cast<std::size_t>(gpu::gpu_column_stride(n, mode)),
                       0.0);
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

/// perm from the kernels' residues: CRT with the spare's check.
ExactOutcome exact_outcome(const gpu::GpuRyserResult& r, const std::vector<std::uint32_t>& primes,
                           vertex_t n, const std::string& walk) {
    ExactOutcome out;
    std::vector<std::uint64_t> residues, moduli;
    for (std::size_t k = 0; k < primes.size(); ++k) {
        moduli.push_back(primes[k]);
        residues.push_back(driver::finish_residue(r.residues[k], n, primes[k]));
    }
    out.value = numeric::crt_with_spare(residues, moduli, "GPU Ryser");
    out.primes = static_cast<int>(primes.size());
    out.gray_steps = std::uint64_t{1} << (n - 1);
    out.arithmetic = "exact lanes ×4, modular (" + std::to_string(primes.size()) +
                     " primes of 31 bits, one spare) + CRT" + walk;
    out.where = report(r);
    return out;
}

double real_norm(double v) { return std::fabs(v); }
double complex_norm(std::complex<double> v) { return std::fabs(v.real()) + std::fabs(v.imag()); }

/// GPU mode and arithmetic text of a real precision.
gpu::GpuMode real_mode(Precision precision) {
    return precision == Precision::double_double  ? gpu::GpuMode::double_double
           : precision == Precision::double_plain ? gpu::GpuMode::double_plain
           : precision == Precision::certified    ? gpu::GpuMode::certified
                                                  : gpu::GpuMode::double_compensated;
}
const char* real_arithmetic(gpu::GpuMode mode) {
    return mode == gpu::GpuMode::double_double  ? "double-double"
           : mode == gpu::GpuMode::double_plain ? "double, plain accumulation"
           : mode == gpu::GpuMode::certified    ? "double, certified error bound"
                                                : "double, compensated accumulation";
}
/// The error factor of the double-double GPU mode: as the CPU's (ryser_driver.hpp).
double double_double_error_factor(vertex_t n) {
    const double u2 = driver::kUnitRoundoff * driver::kUnitRoundoff;
    return (std::ldexp(1.0, n) + 4.0 * n) * u2;
}

// ---- sparse engines ---------------------------------------------------------------------------

gpu::GpuSparseJob make_sparse_job(vertex_t n, gpu::GpuMode mode, GpuKernelCode code,
                                  const run::EngineRun& run) {
    gpu::GpuSparseJob job;
    job.n = n;
    job.mode = mode;
    job.code = code == GpuKernelCode::generated ? gpu::GpuCode::generated : gpu::GpuCode::tables;
    job.devices = run.gpus;
    return job;
}

/// The Gray columns 0..n−2 of the job as lists: slot s holds row slot_row[s]; `words(i, j)`
/// gives entry (i, j)'s words (2·a), `nonzero(i, j)` whether it is stored.
template <class Nonzero, class Words>
void fill_columns(gpu::GpuSparseJob& job, const std::vector<int>& slot_row, Nonzero nonzero, Words words) {
    job.col_start.assign(1, 0);
    for (int j = 0; j + 1 < job.n; ++j) {
        for (int s = 0; s < job.n; ++s) {
            const int i = slot_row[static_cast<std::size_t>(s)];
            if (i >= 0 && nonzero(i, j)) {
                job.col_row.push_back(s);
                for (const double w : words(i, j)) {
                    job.col_value.push_back(w);
                }
            }
        }
        job.col_start.push_back(static_cast<int>(job.col_row.size()));
    }
}

/// SkipPer's 0-1 tables (base already in job.base), as the CPU's binary path builds them
/// (sparse_ryser.cpp): the rows that can be zero, and the lowest Gray bits no such row has.
void fill_binary_tests(gpu::GpuSparseJob& job, const DenseMatrix<std::int64_t>& b,
                       const std::vector<int>& slot_row) {
    job.kernel = gpu::GpuSparseKernel::skip_binary;
    job.row_mask.assign(static_cast<std::size_t>(job.n), 0);
    std::uint64_t tested = 0;
    for (int s = 0; s < job.n; ++s) {
        const int i = slot_row[static_cast<std::size_t>(s)];
        std::uint64_t mask = 0;
        for (int j = 0; i >= 0 && j + 1 < job.n; ++j) {
            mask |= b(i, j) != 0 ? std::uint64_t{1} << j : 0;
        }
        job.row_mask[static_cast<std::size_t>(s)] = mask;
        const double y0 = job.base[static_cast<std::size_t>(s)];
        if (mask != 0 && y0 <= 0 && std::fmod(y0, 2.0) == 0) {
            const std::uint64_t low_bit = mask & (0 - mask);
            job.test_mask.push_back(mask);
            job.test_count.push_back(static_cast<int>(-y0 / 2));
            job.test_low.push_back(mask | ~(2 * low_bit - 1));
            job.test_low_bit.push_back(low_bit);
            tested |= mask;
        }
    }
    const int limit = std::min(gpu::gpu_skip_chunk_log2(job.n), 16);
    job.free_bits = 0;
    while (job.free_bits < limit && ((tested >> job.free_bits) & 1U) == 0) {
        ++job.free_bits;
    }
    job.sub_bits = numeric::sub_block_bits(job.base, job.row_mask, job.free_bits);
}

/// A floating sparse job and its rows' power-of-two exponents; nullopt when a row is zero
/// (perm = 0, no kernel needed).
struct FloatSparseJob {
    gpu::GpuSparseJob job;
    std::vector<int> e;
    /// The replayed sample of the walk (walk_error.hpp), run beside the GPU.
    std::function<driver::WalkSpread()> spread;
};

template <class T, class Norm, class Words>
std::optional<FloatSparseJob> float_sparse_job(const DenseMatrix<T>& a, gpu::GpuMode mode,
                                               GpuKernelCode code, const run::EngineRun& run,
                                               Norm norm, Words words) {
    driver::check_order(a.rows(), a.cols(), kEngine);
    const vertex_t n = a.rows();
    if (n < 2) {
        throw InvalidArgument("the GPU engine starts at order 2");
    }
    // SkipPer's order for either variant (floating matrices run the same walk for both): each
    // column adds the fewest new rows, which keeps the generated kernel's partial products short
    // (ryser_sparse.cuh); the table kernel does not mind the order.
    const DenseMatrix<T> b = permute_columns(a, sparse_column_order(pattern_of(a), SparseVariant::skipper, false));
    FloatSparseJob out{make_sparse_job(n, mode, code, run), {}, {}};
    std::vector<int>& e = out.e;
    gpu::GpuSparseJob& job = out.job;
    if (!driver::row_exponents(b, norm, e)) {
        return std::nullopt;
    }
    auto scaled = [&](int i, int j) { return words(b(i, j), -e[static_cast<std::size_t>(i)]); };
    out.spread = [m = driver::scaled_copy(n, [&](int i, int j) {
                      const std::array<double, 2> w = scaled(i, j);
                      if constexpr (std::is_same_v<T, double>) {
                          return w[0];
                      } else {
                          return std::complex<double>{w[0], w[1]};
                      }
                  })] { return driver::walk_spread(m, gpu::kGpuResetLog2); };
    const bool pairs = mode == gpu::GpuMode::double_double || mode == gpu::GpuMode::complex;
    std::vector<int> identity(static_cast<std::size_t>(n));
    std::iota(identity.begin(), identity.end(), 0);
    for (vertex_t i = 0; i < n; ++i) {
        // y_i(∅) = 2·a_{i,n−1} − Σ_j a_ij, summed in double-double for each word.
        numeric::DoubleDouble w0 = 2 * scaled(i, n - 1)[0], w1 = 2 * scaled(i, n - 1)[1];
        for (vertex_t j = 0; j < n; ++j) {
            w0 -= scaled(i, j)[0];
            w1 -= scaled(i, j)[1];
        }
        if (mode == gpu::GpuMode::double_double) {
            job.base.push_back(w0.hi);
            job.base.push_back(w0.lo);
        } else {
            job.base.push_back(w0.to_double());
            if (pairs) {
                job.base.push_back(w1.to_double());
            }
        }
    }
    fill_columns(
        job, identity, [&](int i, int j) { return b(i, j) != T{}; },
        [&](int i, int j) {
            const std::array<double, 2> w = scaled(i, j);
            return pairs ? std::vector<double>{2 * w[0], mode == gpu::GpuMode::double_double ? 0.0 : 2 * w[1]}
                         : std::vector<double>{2 * w[0]};
        });
    return out;
}

/// Runs a floating sparse job (nullopt: perm = 0).
FloatOutcome run_float_sparse(std::optional<FloatSparseJob> prepared, gpu::GpuMode mode,
                              const char* arithmetic, const run::EngineRun& run) {
    if (!prepared) {
        return driver::zero_outcome(arithmetic);
    }
    gpu::GpuSparseJob& job = prepared->job;
    const std::vector<int>& e = prepared->e;
    const vertex_t n = job.n;
    const bool dd = mode == gpu::GpuMode::double_double;
    std::future<driver::WalkSpread> spread;
    if (!dd) {
        spread = std::async(std::launch::async, prepared->spread);
    }
    const gpu::GpuRyserResult r = run_range(job, run, gpu::ryser_sparse);
    const std::string text = std::string(arithmetic) + "; SpaRyser walk";
    const std::complex<double> value{r.re_hi + r.re_lo,
                                     mode == gpu::GpuMode::complex ? r.im_hi + r.im_lo : 0.0};
    FloatOutcome out = driver::float_outcome(value, r.magnitude,
                                             dd ? double_double_error_factor(n) : 0, n, e,
                                             text.c_str());
    if (!dd) {
        out.abs_error_mantissa = gpu_walk_figure(spread.get(), r, mode, n, std::abs(value));
    }
    out.where = report(r);
    return out;
}

/// The words of a real or complex entry scaled by 2^shift (imaginary word 0 for real ones).
std::array<double, 2> real_words(double v, int shift) {
    return {std::ldexp(v, shift), 0.0};
}
std::array<double, 2> complex_words(std::complex<double> v, int shift) {
    return {std::ldexp(v.real(), shift), std::ldexp(v.imag(), shift)};
}

/// The exact sparse job and the walk it runs (for the arithmetic text); nullopt when perm = 0 (a
/// zero row or column: no kernel needed).
struct ExactSparseJob {
    gpu::GpuSparseJob job;
    std::string walk;
};

std::optional<ExactSparseJob> exact_sparse_job(const DenseMatrix<std::int64_t>& a, bool binary,
                                               SparseVariant variant, GpuKernelCode code,
                                               const run::EngineRun& run) {
    driver::check_order(a.rows(), a.cols(), kEngine);
    const vertex_t n = a.rows();
    if (n < 2) {
        throw InvalidArgument("the GPU engine starts at order 2");
    }
    if (std::isinf(numeric::permanent_bound_log2(a, binary))) {
        return std::nullopt;
    }
    const DenseMatrix<std::int64_t> b =
        permute_columns(a, sparse_column_order(pattern_of(a), variant, binary));
    const std::vector<int> layout =
        driver::lane_layout(driver::row_norms(b), 4 * ((n + 3) / 4), 4, n);
    const std::vector<std::uint32_t> primes = exact_primes(b, binary);
    if (layout.empty() || primes.empty()) {
        throw InvalidArgument("this integer matrix does not fit the GPU's exact lanes");
    }
    ExactSparseJob out{make_sparse_job(n, gpu::GpuMode::modular, code, run), {}};
    gpu::GpuSparseJob& job = out.job;
    job.primes = primes;
    for (vertex_t s = 0; s < n; ++s) {
        const int i = layout[static_cast<std::size_t>(s)];
        job.base.push_back(i < 0 ? 1.0 : static_cast<double>(driver::start_value(b, i)));
    }
    if (variant == SparseVariant::skipper && binary) {
        fill_binary_tests(job, b, layout);
        out.walk = "; SkipPer 0-1 path";
    } else {
        fill_columns(
            job, layout, [&](int i, int j) { return b(i, j) != 0; },
            [&](int i, int j) {
                return std::array<double, 1>{static_cast<double>(driver::twice_entry(b, i, j))};
            });
        out.walk = "; SpaRyser walk";
    }
    return out;
}

/// Whether a prepared job's generated kernel is compiled already (nullopt: no kernel at all).
template <class Prepared>
bool generated_cached(const std::optional<Prepared>& prepared) {
    return !prepared || gpu::sparse_kernel_cached(prepared->job);
}

/// The run::EngineRun of a cache probe on `gpus`.
run::EngineRun probe_run(const std::vector<int>& gpus) {
    run::EngineRun run;
    run.gpus = gpus;
    return run;
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

ExactOutcome ryser_exact_gpu(const DenseMatrix<std::int64_t>& a, bool binary,
                             const run::EngineRun& run) {
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
    return exact_outcome(run_range(job, run, gpu::ryser_dense), primes, n, "");
}

FloatOutcome ryser_real_gpu(const DenseMatrix<double>& a, Precision precision,
                            const run::EngineRun& run) {
    driver::check_order(a.rows(), a.cols(), kEngine);
    const vertex_t n = a.rows();
    const gpu::GpuMode mode = real_mode(precision);
    const bool dd = mode == gpu::GpuMode::double_double;
    const char* arithmetic = real_arithmetic(mode);
    std::vector<int> e;
    if (n < 2 || !driver::row_exponents(a, real_norm, e)) {
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
    if (mode == gpu::GpuMode::certified) {
        job.row_error = driver::certified_row_errors(n, scaled, gpu::kGpuCertifiedResetLog2,
                                                     static_cast<std::size_t>(n));
    }
    const bool walk_figure = !dd && mode != gpu::GpuMode::certified;
    std::future<driver::WalkSpread> spread;
    if (walk_figure) {
        spread = walk_spread_beside(driver::scaled_copy(n, scaled));
    }
    const gpu::GpuRyserResult r = run_range(job, run, gpu::ryser_dense);
    const double value = r.re_hi + r.re_lo;
    FloatOutcome out = driver::float_outcome(value, r.magnitude,
                                             dd ? double_double_error_factor(n) : 0, n, e,
                                             arithmetic);
    if (walk_figure) {
        out.abs_error_mantissa = gpu_walk_figure(spread.get(), r, mode, n, std::fabs(value));
    }
    if (mode == gpu::GpuMode::certified) {
        // The records' imaginary sum is Σ of the terms' bounds (Arith<5>); each chunk's pair
        // (Sum2) is within γ²_{2^12} of its Σ|p̂|.
        const double pair = driver::gamma_bound(std::ldexp(1.0, gpu::kGpuCertifiedChunkLog2));
        out.abs_error_mantissa = driver::certified_abs_error(
            value, r.im_hi + r.im_lo, r.magnitude, std::ldexp(1.0, n - 1), n, pair * pair);
    }
    out.where = report(r);
    return out;
}

FloatOutcome ryser_complex_gpu(const DenseMatrix<std::complex<double>>& a,
                               const run::EngineRun& run) {
    driver::check_order(a.rows(), a.cols(), kEngine);
    const vertex_t n = a.rows();
    const char* arithmetic = "complex double, compensated accumulation";
    std::vector<int> e;
    if (n < 2 || !driver::row_exponents(a, complex_norm, e)) {
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
    std::future<driver::WalkSpread> spread = walk_spread_beside(driver::scaled_copy(n, scaled));
    const gpu::GpuRyserResult r = run_range(job, run, gpu::ryser_dense);
    const std::complex<double> value{r.re_hi + r.re_lo, r.im_hi + r.im_lo};
    FloatOutcome out = driver::float_outcome(value, r.magnitude, 0, n, e, arithmetic);
    out.abs_error_mantissa =
        gpu_walk_figure(spread.get(), r, gpu::GpuMode::complex, n, std::abs(value));
    out.where = report(r);
    return out;
}

ExactOutcome sparse_ryser_exact_gpu(const DenseMatrix<std::int64_t>& a, bool binary,
                                    SparseVariant variant, GpuKernelCode code,
                                    const run::EngineRun& run) {
    std::optional<ExactSparseJob> prepared = exact_sparse_job(a, binary, variant, code, run);
    if (!prepared) {
        ExactOutcome out;
        out.value = 0;
        out.arithmetic = "none (a zero row or column)";
        return out;
    }
    gpu::GpuSparseJob& job = prepared->job;
    return exact_outcome(run_range(job, run, gpu::ryser_sparse), job.primes, job.n, prepared->walk);
}

FloatOutcome sparse_ryser_real_gpu(const DenseMatrix<double>& a, Precision precision,
                                   SparseVariant variant, GpuKernelCode code,
                                   const run::EngineRun& run) {
    const gpu::GpuMode mode = real_mode(precision);
    (void)variant;  // the same walk for both variants (ryser_gpu.hpp)
    return run_float_sparse(float_sparse_job(a, mode, code, run, real_norm, real_words), mode,
                            real_arithmetic(mode), run);
}

FloatOutcome sparse_ryser_complex_gpu(const DenseMatrix<std::complex<double>>& a,
                                      SparseVariant variant, GpuKernelCode code,
                                      const run::EngineRun& run) {
    (void)variant;
    return run_float_sparse(
        float_sparse_job(a, gpu::GpuMode::complex, code, run, complex_norm, complex_words),
        gpu::GpuMode::complex, "complex double, compensated accumulation", run);
}

bool sparse_generated_cached(const DenseMatrix<std::int64_t>& a, bool binary, SparseVariant variant,
                             const std::vector<int>& gpus) {
    return generated_cached(
        exact_sparse_job(a, binary, variant, GpuKernelCode::generated, probe_run(gpus)));
}

bool sparse_generated_cached(const DenseMatrix<double>& a, Precision precision,
                             const std::vector<int>& gpus) {
    return generated_cached(float_sparse_job(a, real_mode(precision), GpuKernelCode::generated,
                                             probe_run(gpus), real_norm, real_words));
}

bool sparse_generated_cached(const DenseMatrix<std::complex<double>>& a,
                             const std::vector<int>& gpus) {
    return generated_cached(float_sparse_job(a, gpu::GpuMode::complex, GpuKernelCode::generated,
                                             probe_run(gpus), complex_norm, complex_words));
}

}  // namespace pmcount::exact
