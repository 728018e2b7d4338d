// Closed forms of the generated lattices' counts (declared in pmcount/generate.hpp).
#include <cmath>
#include <limits>

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
