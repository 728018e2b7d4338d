// The hafnian on GPUs, library side. Phases:
//   1. validate (square, symmetric, finite, order ≤ 64); odd order → 0, order 0 → 1, a vertex
//      without neighbours → 0, all without a GPU;
//   2. the entries below the diagonal as the kernels take them: residues for each prime (exact),
//      or the matrix scaled to D·A·D (floats);
//   3. backend::cuda::hafnian() runs the recursion's units (subtree roots, per prime) on the GPUs,
//      through the count's session (checkpoints, MPI ranks), records merged in unit order;
//   4. exact: CRT with the spare's check; floats: haf = Σ·2^Σe with the error estimate below.
//
// Error of the double modes: as the CPU engine's (hafnian.hpp), every coefficient carries its
// running first-order error e, the kernels sum the leaves' e with their signs next to the values,
// and the figure is hafnian_tracked_error of |Σe + the rounding of the double-double sum to one
// double| — the same formula as on the CPU, so both engines state what their arithmetic lost.
// tests/gpu/gpu_hafnian_test.cpp checks it against exact results (0-1, integer and cancelling
// matrices in double) and double-double references (signed real and complex).
#include "exact/hafnian/hafnian_gpu.hpp"

#include <cmath>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "exact/hafnian/hafnian.hpp"
#include "exact/hafnian/hafnian_device.hpp"
#include "numeric/compensated.hpp"
#include "numeric/crt.hpp"
#include "numeric/permanent_bound.hpp"
#include "numeric/primes.hpp"
#include "pmcount/error.hpp"

namespace pmcount::exact {

namespace {

namespace gpu = backend::cuda;

constexpr const char* kEngine = "GPU hafnian";

/// Validates shape, symmetry and size; false when haf = 0 or 1 needs no GPU (odd or zero order).
template <class T>
bool needs_gpu(const DenseMatrix<T>& a) {
    if (!a.is_square()) {
        throw DimensionMismatch(std::string(kEngine) + " needs a square matrix, got " +
                                std::to_string(a.rows()) + "×" + std::to_string(a.cols()));
    }
    const vertex_t n = a.rows();
    for (vertex_t i = 0; i < n; ++i) {
        for (vertex_t j = 0; j < i; ++j) {
            if (!(a(i, j) == a(j, i))) {
                throw InvalidArgument(std::string(kEngine) + " needs a symmetric matrix: a(" +
                                      std::to_string(i) + "," + std::to_string(j) + ") ≠ a(" +
                                      std::to_string(j) + "," + std::to_string(i) + ")");
            }
        }
    }
    if (n > gpu_hafnian_max_order()) {
        throw ProblemTooLarge("order " + std::to_string(n) + " is beyond the " + kEngine +
                              " engine's limit of " + std::to_string(gpu_hafnian_max_order()) +
                              " (it would need 2^" + std::to_string(n / 2) +
                              " leaves); use an estimator or a structure-aware engine instead");
    }
    return n > 0 && n % 2 == 0;
}

/// True when some vertex has no neighbour (then no perfect matching: haf = 0).
template <class T>
bool has_isolated_vertex(const DenseMatrix<T>& a) {
    for (vertex_t i = 0; i < a.rows(); ++i) {
        bool any = false;
        for (vertex_t j = 0; j < a.cols() && !any; ++j) {
            any = j != i && a(i, j) != T{};
        }
        if (!any) {
            return true;
        }
    }
    return false;
}

gpu::GpuHafnianJob make_job(vertex_t n, gpu::GpuHafnianMode mode, const run::EngineRun& run) {
    gpu::GpuHafnianJob job;
    job.n = n;
    job.mode = mode;
    job.devices = run.gpus;
    return job;
}

/// Runs the job's units through the count's session, as the Ryser engines run their ranges (a
/// resumed checkpoint's and other MPI ranks' units are loaded, not computed), and merges their
/// records in unit order.
gpu::GpuHafnianResult run_units(gpu::GpuHafnianJob& job, const run::EngineRun& run) {
    const std::uint64_t units = gpu::hafnian_units(job);
    gpu::GpuHafnianResult result;
    const std::vector<unsigned char> records = run::run_gpu_units(
        job, job.n / 2, units, gpu::hafnian_record_bytes(job.mode), run, gpu::hafnian, result);
    result.units = units;
    gpu::merge_hafnian_records(job, records, result);
    return result;
}

std::string describe(const gpu::GpuHafnianResult& r) {
    std::string text = "GPU";
    for (const auto& d : r.devices) {
        text += " " + std::to_string(d.device) + " (" + d.name + ", " + std::to_string(d.batches) +
                " batches)";
    }
    char buffer[192];
    std::snprintf(buffer, sizeof buffer,
                  "; %llu subtree roots, %d levels breadth-first, %llu warp subtrees of %d levels"
                  "%s; kernels %.3g s",
                  static_cast<unsigned long long>(r.roots), r.expand_levels,
                  static_cast<unsigned long long>(r.tasks), r.subtree_levels,
                  r.residues.size() > 1 ? " per prime" : "", r.seconds);
    return text + buffer;
}

/// Power-of-two scaling D·A·D with every |entry| below 1: d_i = 2^−e_i, e_i = ⌈k_i/2⌉ where
/// 2^(k_i − 1) ≤ max_j |a_ij| < 2^k_i, so |a_ij| < 2^min(k_i, k_j) ≤ 2^(e_i + e_j).
template <class T, class Magnitude>
std::vector<int> symmetric_exponents(const DenseMatrix<T>& a, Magnitude magnitude_of) {
    std::vector<int> e(static_cast<std::size_t>(a.rows()), 0);
    for (vertex_t i = 0; i < a.rows(); ++i) {
        double largest = 0;
        for (vertex_t j = 0; j < a.cols(); ++j) {
            if (j != i) {
                largest = std::max(largest, magnitude_of(a(i, j)));
            }
        }
        int k = 0;
        std::frexp(largest, &k);
        e[static_cast<std::size_t>(i)] = k >= 0 ? (k + 1) / 2 : -((-k) / 2);
    }
    return e;
}

/// What rounding hi + lo to one double drops.
double rounding(double hi, double lo) {
    double sum = 0, dropped = 0;
    numeric::two_sum(hi, lo, sum, dropped);
    return dropped;
}

FloatOutcome float_outcome(const gpu::GpuHafnianResult& r, const std::vector<int>& e,
                           const char* arithmetic) {
    FloatOutcome out;
    out.mantissa = {r.re_hi + r.re_lo, r.im_hi + r.im_lo};
    for (const int x : e) {
        out.exponent2 += x;
    }
    const auto n = static_cast<int>(e.size());
    const double error = std::hypot(r.error_re + rounding(r.re_hi, r.re_lo),
                                    r.error_im + rounding(r.im_hi, r.im_lo));
    out.abs_error_mantissa = hafnian_tracked_error(error, r.error_magnitude, r.magnitude, n);
    out.gray_steps = std::uint64_t{1} << (e.size() / 2);
    out.multiply_adds =
        static_cast<double>(gpu_hafnian_multiply_adds(static_cast<vertex_t>(e.size())));
    out.arithmetic = arithmetic;
    out.where.device = describe(r);
    out.where.device_seconds = r.seconds;
    return out;
}

template <class T>
void check_finite(const DenseMatrix<T>& a) {
    for (vertex_t i = 0; i < a.rows(); ++i) {
        for (vertex_t j = 0; j < a.cols(); ++j) {
            if (!std::isfinite(std::abs(a(i, j)))) {
                throw InvalidArgument(std::string(kEngine) + ": entry (" + std::to_string(i) + "," +
                                      std::to_string(j) + ") is not finite");
            }
        }
    }
}

/// Validates a floating input; the outcome when no GPU is needed (odd or zero order, or a vertex
/// without neighbours), nullopt otherwise.
template <class T>
std::optional<FloatOutcome> without_gpu(const DenseMatrix<T>& a, const char* arithmetic) {
    check_finite(a);
    if (needs_gpu(a) && !has_isolated_vertex(a)) {
        return std::nullopt;
    }
    FloatOutcome out;
    out.mantissa = a.rows() == 0 ? 1.0 : 0.0;
    out.arithmetic = arithmetic;
    return out;
}

/// The primes of the exact GPU hafnian at order n for |haf| ≤ 2^bound_log2: the largest below
/// 2^gpu_hafnian_prime_bits(n) until Π p > 2|haf| + 1 (symmetric CRT; Σ log2 p ≥ bound + 1 plus a
/// margin), then a spare.
std::vector<std::uint64_t> gpu_moduli(vertex_t n, double bound_log2) {
    const int bits = gpu::gpu_hafnian_prime_bits(n);
    std::vector<std::uint64_t> moduli;
    double covered = 0;
    for (std::uint64_t c = (std::uint64_t{1} << bits) - 1; covered < bound_log2 + 1.001; c -= 2) {
        if (numeric::is_prime(c)) {
            moduli.push_back(c);
            covered += std::log2(static_cast<double>(c));
        }
    }
    for (std::uint64_t c = moduli.back() - 2;; c -= 2) {
        if (numeric::is_prime(c)) {
            moduli.push_back(c);
            break;
        }
    }
    return moduli;
}

}  // namespace

int gpu_hafnian_primes(vertex_t n, double bound_log2) {
    return static_cast<int>(gpu_moduli(n, bound_log2).size());
}

vertex_t gpu_hafnian_max_order() noexcept {
    return gpu::kMaxGpuHafnianOrder;
}

std::uint64_t gpu_hafnian_multiply_adds(vertex_t n) noexcept {
    const std::uint64_t m = static_cast<std::uint64_t>(n / 2);
    if (m == 0) {
        return 0;
    }
    const std::uint64_t per_poly = m * (m - 1);
    std::uint64_t total = (std::uint64_t{1} << (m - 1)) * m;  // the leaves
    for (std::uint64_t c = 1; c < m; ++c) {
        total += (std::uint64_t{1} << (m - 1 - c)) * (c * (2 * c - 1) * per_poly + per_poly / 2);
    }
    return total;
}

ExactOutcome hafnian_exact_gpu(const DenseMatrix<std::int64_t>& a, const run::EngineRun& run) {
    ExactOutcome out;
    const vertex_t n = a.rows();
    if (!needs_gpu(a)) {
        out.value = n == 0 ? 1 : 0;
        out.arithmetic = n == 0 ? "none (empty matrix)" : "none (odd order)";
        return out;
    }
    bool binary = true;
    for (vertex_t i = 0; i < n; ++i) {
        for (vertex_t j = 0; j < n; ++j) {
            binary = binary && (i == j || a(i, j) == 0 || a(i, j) == 1);
        }
    }
    const double bound_log2 = numeric::hafnian_bound_log2(a, binary);
    if (std::isinf(bound_log2)) {
        out.value = 0;
        out.arithmetic = "none (a vertex without neighbours)";
        return out;
    }
    const std::vector<std::uint64_t> moduli = gpu_moduli(n, bound_log2);
    const int bits = gpu::gpu_hafnian_prime_bits(n);

    gpu::GpuHafnianJob job = make_job(n, gpu::GpuHafnianMode::modular, run);
    for (const std::uint64_t p : moduli) {
        job.primes.push_back(static_cast<std::uint32_t>(p));
        for (vertex_t j = 1; j < n; ++j) {
            for (vertex_t k = 0; k < j; ++k) {
                const std::int64_t r = a(j, k) % static_cast<std::int64_t>(p);
                job.residues.push_back(
                    static_cast<std::uint32_t>(r < 0 ? r + static_cast<std::int64_t>(p) : r));
            }
        }
    }
    const gpu::GpuHafnianResult r = run_units(job, run);
    std::vector<std::uint64_t> residues(r.residues.begin(), r.residues.end());
    out.value = numeric::crt_with_spare(residues, moduli, kEngine);
    out.primes = static_cast<int>(moduli.size());
    out.gray_steps = std::uint64_t{1} << (n / 2);
    out.multiply_adds = static_cast<double>(gpu_hafnian_multiply_adds(n));  // per prime
    out.arithmetic = "modular (" + std::to_string(moduli.size()) + " primes of " +
                     std::to_string(bits) + " bits, one spare) + CRT";
    out.where.device = describe(r);
    out.where.device_seconds = r.seconds;
    return out;
}

FloatOutcome hafnian_real_gpu(const DenseMatrix<double>& a, Precision precision,
                              const run::EngineRun& run) {
    if (precision != Precision::double_precision && precision != Precision::double_plain) {
        throw InvalidArgument(std::string(kEngine) + " computes in double only (asked for " +
                              to_string(precision) + ")");
    }
    const char* arithmetic = "double with a running error, double-double sums of subtrees";
    const vertex_t n = a.rows();
    if (std::optional<FloatOutcome> known = without_gpu(a, arithmetic)) {
        return *known;
    }
    const std::vector<int> e = symmetric_exponents(a, [](double v) { return std::fabs(v); });
    gpu::GpuHafnianJob job = make_job(n, gpu::GpuHafnianMode::double_precision, run);
    for (vertex_t j = 1; j < n; ++j) {
        for (vertex_t k = 0; k < j; ++k) {
            job.entries.push_back(std::ldexp(
                a(j, k), -e[static_cast<std::size_t>(j)] - e[static_cast<std::size_t>(k)]));
        }
    }
    return float_outcome(run_units(job, run), e, arithmetic);
}

FloatOutcome hafnian_complex_gpu(const DenseMatrix<std::complex<double>>& a,
                                 const run::EngineRun& run) {
    const char* arithmetic =
        "complex double with a running error, double-double sums of subtrees";
    const vertex_t n = a.rows();
    if (std::optional<FloatOutcome> known = without_gpu(a, arithmetic)) {
        return *known;
    }
    const std::vector<int> e = symmetric_exponents(a, [](std::complex<double> v) {
        return std::max(std::fabs(v.real()), std::fabs(v.imag()));
    });
    gpu::GpuHafnianJob job = make_job(n, gpu::GpuHafnianMode::complex, run);
    for (vertex_t j = 1; j < n; ++j) {
        for (vertex_t k = 0; k < j; ++k) {
            const int s = -e[static_cast<std::size_t>(j)] - e[static_cast<std::size_t>(k)];
            job.entries.push_back(std::ldexp(a(j, k).real(), s));
            job.entries.push_back(std::ldexp(a(j, k).imag(), s));
        }
    }
    return float_outcome(run_units(job, run), e, arithmetic);
}

}  // namespace pmcount::exact
