// Weights and resampling of particle populations (population.hpp).
#include "approx/population.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace pmcount::approx {

namespace {

double max_log(const double* logs, std::size_t count) noexcept {
    double m = -std::numeric_limits<double>::infinity();
    for (std::size_t k = 0; k < count; ++k) {
        m = std::max(m, logs[k]);
    }
    return m;
}

}  // namespace

double log_mean_weight(const double* logs, std::size_t count) noexcept {
    const double m = max_log(logs, count);
    if (count == 0 || !std::isfinite(m)) {
        return -std::numeric_limits<double>::infinity();
    }
    double sum = 0;
    for (std::size_t k = 0; k < count; ++k) {
        sum += std::exp(logs[k] - m);
    }
    return m + std::log(sum / static_cast<double>(count));
}

void systematic_ancestors(const double* logs, std::size_t count, double u,
                          std::uint32_t* ancestors) noexcept {
    const double m = max_log(logs, count);
    if (!std::isfinite(m)) {
        for (std::size_t q = 0; q < count; ++q) {
            ancestors[q] = static_cast<std::uint32_t>(q);
        }
        return;
    }
    auto weight = [&](std::size_t k) { return std::exp(logs[k] - m); };  // 0 for −inf
    double total = 0;
    std::size_t last = 0;  // the last particle of positive weight
    for (std::size_t k = 0; k < count; ++k) {
        total += weight(k);
        if (logs[k] > -std::numeric_limits<double>::infinity()) {
            last = k;
        }
    }
    // One walk over the cumulative weights: draw q is the first particle whose cumulative weight
    // exceeds its target (that particle has positive weight); a target that rounding left at or
    // beyond the final sum goes to `last`.
    std::size_t k = 0;
    double cumulative = weight(0);
    for (std::size_t q = 0; q < count; ++q) {
        const double target = (u + static_cast<double>(q)) / static_cast<double>(count) * total;
        while (cumulative <= target && k + 1 < count) {
            cumulative += weight(++k);
        }
        ancestors[q] = static_cast<std::uint32_t>(cumulative > target ? k : last);
    }
}

}  // namespace pmcount::approx
