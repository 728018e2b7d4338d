// Closed forms of the generated lattices' counts (declared in pmcount/generate.hpp).
#include <algorithm>
#include <cmath>
#include <limits>

#include "pmcount/error.hpp"
#include "pmcount/generate.hpp"

namespace pmcount {

long double log_grid_tilings(vertex_t rows, vertex_t cols) {
    if ((static_cast<long long>(rows) * cols) % 2 != 0) {
        return -std::numeric_limits<long double>::infinity();
    }
    const long double pi = 3.141592653589793238462643383279502884L;
    long double s = 0;
    for (vertex_t j = 1; j <= (rows + 1) / 2; ++j) {
        const long double cj = std::cos(pi * j / (rows + 1));
        for (vertex_t k = 1; k <= (cols + 1) / 2; ++k) {
            const long double ck = std::cos(pi * k / (cols + 1));
            s += std::log(4 * cj * cj + 4 * ck * ck);
        }
    }
    return s;
}

long double log_torus_tilings(vertex_t rows, vertex_t cols) {
    if (rows < 2 || cols < 2 || rows % 2 != 0 || cols % 2 != 0) {
        throw InvalidArgument("log_torus_tilings: both sides must be even and at least 2");
    }
    const long double pi = 3.141592653589793238462643383279502884L;
    const auto log_pfaffian = [&](long double theta, long double phi) {
        long double s = 0;
        for (vertex_t j = 0; j < rows; ++j) {
            const long double sj = std::sin(2 * pi * (j + theta) / rows);
            for (vertex_t k = 0; k < cols; ++k) {
                const long double sk = std::sin(2 * pi * (k + phi) / cols);
                s += std::log(4 * sj * sj + 4 * sk * sk) / 4;
            }
        }
        return s;
    };
    const long double a = log_pfaffian(0, 0.5L), b = log_pfaffian(0.5L, 0),
                      c = log_pfaffian(0.5L, 0.5L);
    const long double top = std::max({a, b, c});
    return top + std::log((std::exp(a - top) + std::exp(b - top) + std::exp(c - top)) / 2);
}

long double log_hexagon_tilings(int a, int b, int c) {
    long double s = 0;
    for (int i = 1; i <= a; ++i) {
        for (int j = 1; j <= b; ++j) {
            s += std::log(static_cast<long double>(i + j + c - 1)) -
                 std::log(static_cast<long double>(i + j - 1));
        }
    }
    return s;
}

long double log_aztec_tilings(int k) {
    return static_cast<long double>(k) * (k + 1) / 2 * std::log(2.0L);
}

}  // namespace pmcount
