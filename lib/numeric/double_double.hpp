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

}  // namespace pmcount::numeric
