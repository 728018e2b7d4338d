// Double-double arithmetic: an unevaluated sum hi + lo with |lo| ≤ ulp(hi)/2, about 106 bits
// (Dekker 1971; the algorithms of Hida, Li and Bailey's QD library, "accurate" variants).
// Relative error of +, − ≤ 2u², of × ≤ 4u² (u = 2^-53).
#pragma once

#include <cmath>

#include "numeric/compensated.hpp"

namespace pmcount::numeric {

struct DoubleDouble {
    double hi = 0;
    double lo = 0;

    constexpr DoubleDouble() = default;
    constexpr DoubleDouble(double h) noexcept : hi(h) {}  // NOLINT(google-explicit-constructor)
    constexpr DoubleDouble(double h, double l) noexcept : hi(h), lo(l) {}

    double to_double() const noexcept { return hi + lo; }
};

inline DoubleDouble quick_two_sum(double a, double b) noexcept {
    const double s = a + b;
    return {s, b - (s - a)};
}

inline DoubleDouble operator+(DoubleDouble a, DoubleDouble b) noexcept {
    double s, e, t, f;
    two_sum(a.hi, b.hi, s, e);
    two_sum(a.lo, b.lo, t, f);
    e += t;
    const DoubleDouble r = quick_two_sum(s, e);
    return quick_two_sum(r.hi, r.lo + f);
}

inline DoubleDouble operator-(DoubleDouble a) noexcept { return {-a.hi, -a.lo}; }
inline DoubleDouble operator-(DoubleDouble a, DoubleDouble b) noexcept { return a + (-b); }

inline DoubleDouble operator*(DoubleDouble a, DoubleDouble b) noexcept {
    const double p = a.hi * b.hi;
    const double e = std::fma(a.hi, b.hi, -p);  // exact error of the product
    return quick_two_sum(p, e + (a.hi * b.lo + a.lo * b.hi));
}

inline DoubleDouble& operator+=(DoubleDouble& a, DoubleDouble b) noexcept { return a = a + b; }
inline DoubleDouble& operator-=(DoubleDouble& a, DoubleDouble b) noexcept { return a = a - b; }
inline DoubleDouble& operator*=(DoubleDouble& a, DoubleDouble b) noexcept { return a = a * b; }

inline DoubleDouble ldexp(DoubleDouble a, int e) noexcept {
    return {std::ldexp(a.hi, e), std::ldexp(a.lo, e)};
}
inline DoubleDouble abs(DoubleDouble a) noexcept { return a.hi < 0 ? -a : a; }

/// a/b: three quotient digits, each from the remainder so far (relative error about 8u²).
inline DoubleDouble operator/(DoubleDouble a, DoubleDouble b) noexcept {
    const double q1 = a.hi / b.hi;
    DoubleDouble r = a - b * DoubleDouble(q1);
    const double q2 = r.hi / b.hi;
    r -= b * DoubleDouble(q2);
    const double q3 = r.hi / b.hi;
    return quick_two_sum(q1, q2) + DoubleDouble(q3);
}
inline DoubleDouble& operator/=(DoubleDouble& a, DoubleDouble b) noexcept {
    return a = a / b;
}

/// √a for a ≥ 0: the double root and one Newton step in double-double (relative error ≈ 4u²).
inline DoubleDouble sqrt(DoubleDouble a) noexcept {
    if (a.hi <= 0) {
        return {std::sqrt(a.hi), 0};
    }
    const double x = std::sqrt(a.hi);
    const DoubleDouble y(x);
    const DoubleDouble r = a - y * y;
    return y + DoubleDouble(r.hi / (2 * x));
}

/// e^a: a = k·ln 2 + r with |r| ≤ ln 2 / 2, e^(r/2^10) by its Taylor series to degree 9 in
/// Horner form (the remainder is below 10^−40 of it), squared ten times (each doubles the
/// relative error: 2^10·4u² in all), times 2^k. Overflow and underflow as std::exp's.
inline DoubleDouble exp(DoubleDouble a) noexcept {
    if (!(std::fabs(a.hi) < 708)) {
        return {std::exp(a.hi), 0};
    }
    // 1/i! for i = 0…9, to double-double.
    static const DoubleDouble inverse_factorial[10] = {
        {1.0, 0.0},
        {1.0, 0.0},
        {0.5, 0.0},
        {0x1.5555555555555p-3, 0x1.5555555555555p-57},
        {0x1.5555555555555p-5, 0x1.5555555555555p-59},
        {0x1.1111111111111p-7, 0x1.1111111111111p-63},
        {0x1.6c16c16c16c17p-10, -0x1.f49f49f49f49fp-65},
        {0x1.a01a01a01a01ap-13, 0x1.a01a01a01a01ap-73},
        {0x1.a01a01a01a01ap-16, 0x1.a01a01a01a01ap-76},
        {0x1.71de3a556c734p-19, -0x1.c154f8ddc6c00p-73}};
    const DoubleDouble ln2(0x1.62e42fefa39efp-1, 0x1.abc9e3b39803fp-56);
    const double k = std::nearbyint(a.hi / ln2.hi);
    const DoubleDouble s = ldexp(a - ln2 * DoubleDouble(k), -10);
    DoubleDouble sum = inverse_factorial[9];
    for (int i = 8; i >= 0; --i) {
        sum = sum * s + inverse_factorial[i];
    }
    for (int i = 0; i < 10; ++i) {
        sum = sum * sum;
    }
    return ldexp(sum, static_cast<int>(k));
}

}  // namespace pmcount::numeric
