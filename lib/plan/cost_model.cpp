#include "plan/cost_model.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "backend/cuda_backend.hpp"

namespace pmcount::plan {

namespace {

constexpr double kBase_ns = 1.0;
constexpr double kRow_ns = 0.3;
constexpr double kRowDoubleDouble_ns = 3.0;
constexpr double kRowComplex_ns = 1.0;
constexpr double kRowExact_ns = 0.3;
constexpr double kPrimeLane_ns = 1.4;
constexpr double kBruteForceNode_ns = 6.0;
constexpr double kSparseStep_ns = 2.0;
constexpr double kSparseEntry_ns = 0.5;
constexpr double kSkipVisitsPerTerm = 2.5;
constexpr double kSkipVisit_ns = 10.0;
constexpr double kSkipVisitRow_ns = 0.4;

}  // namespace

double ryser_seconds(vertex_t n, Arithmetic arithmetic, int primes, int threads) {
    if (n <= 0) {
        return 0;
    }
    const double width = 8.0 * std::ceil(n / 8.0);
    double per_step = kBase_ns;
    switch (arithmetic) {
        case Arithmetic::exact: per_step += kRowExact_ns * width + kPrimeLane_ns * primes * 4; break;
        case Arithmetic::double_precision: per_step += kRow_ns * width; break;
        case Arithmetic::double_double: per_step += kRowDoubleDouble_ns * width; break;
        case Arithmetic::complex: per_step += kRowComplex_ns * width; break;
    }
    // Below 2^18 steps the engine runs on one thread (chunked_run.cpp).
    const int used = n - 1 < 18 ? 1 : std::max(1, threads);
    return std::ldexp(per_step * 1e-9, n - 1) / used;
}

double sparse_ryser_seconds(vertex_t n, edge_t nnz, double zero_probability, Arithmetic arithmetic,
                            int primes, int threads, bool skip) {
    if (n <= 0) {
        return 0;
    }
    const double width = 8.0 * std::ceil(n / 8.0);
    const double nonzero = std::clamp(1 - zero_probability, 0.0, 1.0);
    // A subset without zeros costs about a dense step (its product); SpaRyser also pays a column
    // update on every subset, SkipPer a visit (update, jump, product) on a multiple of them.
    const double product_ns = ryser_seconds(n, arithmetic, primes, 1) / std::ldexp(1e-9, n - 1);
    double per_step_ns;
    if (skip) {
        const double visits = std::min(1.0, kSkipVisitsPerTerm * nonzero + 1e-9);
        per_step_ns = visits * (kSkipVisit_ns + kSkipVisitRow_ns * width);
    } else {
        per_step_ns = kSparseStep_ns + kSparseEntry_ns * static_cast<double>(nnz) / n +
                      nonzero * product_ns;
    }
    const int used = n - 1 < 18 ? 1 : std::max(1, threads);
    return std::ldexp(per_step_ns * 1e-9, n - 1) / used;
}

double gpu_ryser_seconds(vertex_t n, Arithmetic arithmetic, int primes) {
    static const double rate = [] {
        std::string status;
        double total = 0;
        for (const DeviceInfo& d : backend::cuda::devices(status)) {
            const double per_sm = d.compute_major == 9 ? 1.263e11 : d.compute_major == 8 && d.compute_minor == 0 ? 9e10 : 2e9;
            total += per_sm * d.multiprocessors;
        }
        return total;
    }();
    if (rate <= 0) {
        return std::numeric_limits<double>::infinity();
    }
    double factor = 1;
    switch (arithmetic) {
        case Arithmetic::exact: factor = 1.5 + 0.45 * primes; break;
        case Arithmetic::double_precision: factor = 1.17; break;
        case Arithmetic::double_double: factor = 20; break;
        case Arithmetic::complex: factor = 3; break;
    }
    return 0.3 + factor * std::ldexp(2.0 * n, n - 1) / (0.92 * rate);
}

double brute_force_seconds(vertex_t n) {
    double nodes = 1;
    for (vertex_t k = 2; k <= n; ++k) {
        nodes *= k;
    }
    return 2.718281828 * nodes * kBruteForceNode_ns * 1e-9;
}

}  // namespace pmcount::plan
