// Matrices with repeated rows and columns for the repeated engines' tests: thewalrus's
// `reduction` (the expanded matrix, the oracles' input) and random multiplicities.
#pragma once

#include <cstdint>
#include <random>
#include <vector>

#include "pmcount/matrix.hpp"

namespace pmcount::test {

/// B[(i,a),(j,b)] = a_ij: row and column i repeated r_i times; `mu` (if given) on the diagonal.
template <class T>
DenseMatrix<T> expanded(const DenseMatrix<T>& a, const std::vector<int>& rows,
                        const std::vector<int>& cols, const std::vector<T>* mu = nullptr) {
    std::vector<vertex_t> ri, ci;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        ri.insert(ri.end(), static_cast<std::size_t>(rows[i]), static_cast<vertex_t>(i));
    }
    for (std::size_t j = 0; j < cols.size(); ++j) {
        ci.insert(ci.end(), static_cast<std::size_t>(cols[j]), static_cast<vertex_t>(j));
    }
    DenseMatrix<T> b(static_cast<vertex_t>(ri.size()), static_cast<vertex_t>(ci.size()), T{});
    for (std::size_t x = 0; x < ri.size(); ++x) {
        for (std::size_t y = 0; y < ci.size(); ++y) {
            b(static_cast<vertex_t>(x), static_cast<vertex_t>(y)) =
                x == y && mu != nullptr ? (*mu)[static_cast<std::size_t>(ri[x])] : a(ri[x], ci[y]);
        }
    }
    return b;
}

/// k multiplicities drawn uniformly from [0, most].
inline std::vector<int> multiplicities(std::mt19937_64& rng, int k, int most) {
    std::vector<int> r(static_cast<std::size_t>(k));
    for (int& x : r) {
        x = static_cast<int>(rng() % static_cast<std::uint64_t>(most + 1));
    }
    return r;
}

}  // namespace pmcount::test
