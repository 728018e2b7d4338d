// Lane-parallel products for the Ryser arithmetics, written with GCC/Clang vector extensions so
// that the n-fold product of y is a few vector multiplies instead of n scalar ones (the
// auto-vectoriser leaves this reduction scalar). Lane l multiplies rows l, l + L, l + 2L, …
//
// Vectors are 4 doubles (32 bytes), the width the y updates are stored with: a wider load
// spanning two of those stores defeats store-to-load forwarding (measured 2.5× slower with
// 64-byte loads on a Xeon with AVX-512).
#pragma once

#include <cstring>

namespace pmcount::exact {

typedef double Double4 __attribute__((vector_size(32)));
/// 8 doubles: y held in registers by the dense double kernel (ryser_kernel.hpp), which never
/// stores it, so no store-to-load forwarding is involved.
typedef double Double8 __attribute__((vector_size(64)));

/// Per-lane products out[l] = Π_m y[m·L + l] of a width-W array (W a multiple of L, L of 4).
template <int L, int W>
void lane_products(const double* y, double (&out)[L]) noexcept {
    static_assert(L % 4 == 0 && W % L == 0, "lanes must be a multiple of 4 and divide the width");
    Double4 product[L / 4], factor;
    for (int c = 0; c < L / 4; ++c) {
        std::memcpy(&product[c], y + 4 * c, sizeof factor);
    }
    for (int m = 1; m < W / L; ++m) {
        for (int c = 0; c < L / 4; ++c) {
            std::memcpy(&factor, y + m * L + 4 * c, sizeof factor);
            product[c] *= factor;
        }
    }
    std::memcpy(out, product, sizeof out);
}

/// The same products in two interleaved chains (even and odd m) multiplied at the end: half the
/// latency of lane_products. It reassociates, so it is for exact integer lanes only (every
/// partial product divides the lane product and is exact too).
template <int L, int W>
void lane_products_two_chains(const double* y, double (&out)[L]) noexcept {
    static_assert(L % 4 == 0 && W % L == 0, "lanes must be a multiple of 4 and divide the width");
    constexpr int kRounds = W / L;
    Double4 even[L / 4], odd[L / 4], factor;
    for (int c = 0; c < L / 4; ++c) {
        std::memcpy(&even[c], y + 4 * c, sizeof factor);
        odd[c] = Double4{1.0, 1.0, 1.0, 1.0};
    }
    for (int m = 1; m < kRounds; ++m) {
        for (int c = 0; c < L / 4; ++c) {
            std::memcpy(&factor, y + m * L + 4 * c, sizeof factor);
            if (m % 2 == 1) {
                odd[c] *= factor;
            } else {
                even[c] *= factor;
            }
        }
    }
    for (int c = 0; c < L / 4; ++c) {
        even[c] *= odd[c];
    }
    std::memcpy(out, even, sizeof out);
}

/// The same products read one double at a time. The sparse kernels update y with scalar
/// stores, and a vector load that spans several recent scalar stores cannot be forwarded from
/// the store buffer (a stall of ~15 cycles each, measured 3× slower products in SkipPer), while
/// scalar loads forward fine.
template <int L, int W>
void lane_products_scalar(const double* y, double (&out)[L]) noexcept {
    static_assert(W % L == 0, "lanes must divide the width");
    for (int l = 0; l < L; ++l) {
        out[l] = y[l];
    }
    for (int m = 1; m < W / L; ++m) {
        for (int l = 0; l < L; ++l) {
            out[l] *= y[m * L + l];
        }
    }
}

}  // namespace pmcount::exact
