#include "plan/cost_model.hpp"

#include <algorithm>
#include <cmath>

namespace pmcount::plan {

namespace {

constexpr double kBase_ns = 1.0;
constexpr double kRow_ns = 0.3;
constexpr double kRowDoubleDouble_ns = 3.0;
constexpr double kRowComplex_ns = 1.0;
constexpr double kRowExact_ns = 0.3;
constexpr double kPrimeLane_ns = 1.4;
constexpr double kBruteForceNode_ns = 6.0;

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

double brute_force_seconds(vertex_t n) {
    double nodes = 1;
    for (vertex_t k = 2; k <= n; ++k) {
        nodes *= k;
    }
    return 2.718281828 * nodes * kBruteForceNode_ns * 1e-9;
}

}  // namespace pmcount::plan
