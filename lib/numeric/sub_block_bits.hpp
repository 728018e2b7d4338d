// SkipPer's sub-blocks on 0-1 matrices (CPU: lib/exact/ryser/sparse_ryser.cpp; GPU:
// cuda/kernels/ryser_sparse.cuh, skip_terms). With y_s(k) = y_s(∅) + 2·popcount(gray(k) & mask_s),
// the terms of 2^b consecutive indices starting at a multiple of 2^b differ only in the rows
// whose mask has a bit below b, so they sum to Π_static y_s · Σ_i (−1)^i Π_dynamic y_s(i). The
// inner sum is formed in plain double, exactly, when 2^b · Π_dynamic max|y_s| < 2^53; the static
// product and the modular arithmetic then run once per 2^b terms instead of once per term.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace pmcount::numeric {

/// The largest b ≤ limit with 2^b · Π max|y_s| < 2^53 over the rows whose mask has a bit below b,
/// where y_s runs over y_s(∅) + 2c, c = 0..popcount(mask_s). The bound is formed in double: exact
/// while below 2^53, and a product whose true value reaches 2^53 rounds to at least 2^53.
inline int sub_block_bits(const std::vector<double>& base, const std::vector<std::uint64_t>& row_mask,
                          int limit) {
    int bits = 0;
    while (bits < limit && bits < 63) {
        const int next = bits + 1;
        double bound = std::ldexp(1.0, next);
        for (std::size_t s = 0; s < row_mask.size() && s < base.size(); ++s) {
            if ((row_mask[s] & ((std::uint64_t{1} << next) - 1)) != 0) {
                const double top = base[s] + 2.0 * __builtin_popcountll(row_mask[s]);
                bound *= std::max(std::fabs(base[s]), std::fabs(top));
            }
        }
        if (!(bound < 0x1p53)) {
            break;
        }
        bits = next;
    }
    return bits;
}

}  // namespace pmcount::numeric
