// The torontonian walk's arithmetic (library-internal, for walk.hpp and torontonian.cpp): real
// entries R (double or double-double) or complex Cx<R>, the few operations the eliminations
// need, and for double the same operations returning their exact rounding error (TwoProduct by
// FMA, TwoSum), from which the walk carries each entry's first-order error.
#pragma once

#include <cmath>
#include <complex>
#include <type_traits>

#include "numeric/compensated.hpp"
#include "numeric/double_double.hpp"

namespace pmcount::exact::tor {

using numeric::DoubleDouble;

template <class R>
struct Cx {
    R re{};
    R im{};
};

inline double hi(double x) {
    return x;
}
inline double hi(const DoubleDouble& x) {
    return x.hi;
}

template <class R>
R real_part(R x) {
    return x;
}
template <class R>
R real_part(const Cx<R>& x) {
    return x.re;
}
/// |re| + |im| ≥ |x|, in double: the size of an entry in the bounds.
template <class R>
double mag(R x) {
    return std::fabs(hi(x));
}
template <class R>
double mag(const Cx<R>& x) {
    return std::fabs(hi(x.re)) + std::fabs(hi(x.im));
}
template <class R>
R norm(R x) {
    return x * x;
}
template <class R>
R norm(const Cx<R>& x) {
    return x.re * x.re + x.im * x.im;
}
template <class R>
R scale(R x, R r) {
    return x * r;
}
template <class R>
Cx<R> scale(const Cx<R>& x, R r) {
    return {x.re * r, x.im * r};
}
template <class R>
R conjugate(R x) {
    return x;
}
template <class R>
Cx<R> conjugate(const Cx<R>& x) {
    return {x.re, -x.im};
}
/// s − l·conj(c)
template <class R>
R sub_mul_conj(R s, R l, R c) {
    return s - l * c;
}
template <class R>
Cx<R> sub_mul_conj(const Cx<R>& s, const Cx<R>& l, const Cx<R>& c) {
    return {s.re - (l.re * c.re + l.im * c.im), s.im - (l.im * c.re - l.re * c.im)};
}
/// s − l·c
template <class R>
R sub_mul(R s, R l, R c) {
    return s - l * c;
}
template <class R>
Cx<R> sub_mul(const Cx<R>& s, const Cx<R>& l, const Cx<R>& c) {
    return {s.re - (l.re * c.re - l.im * c.im), s.im - (l.re * c.im + l.im * c.re)};
}
/// Re(conj(a)·b)
inline double re_dot(double a, double b) {
    return a * b;
}
inline double re_dot(const Cx<double>& a, const Cx<double>& b) {
    return a.re * b.re + a.im * b.im;
}
template <class R>
Cx<R> operator+(const Cx<R>& a, const Cx<R>& b) {
    return {a.re + b.re, a.im + b.im};
}

/// The entry type E holding the complex number z (its real part for real E).
template <class E>
E entry_of(std::complex<double> z) {
    if constexpr (std::is_same_v<E, double> || std::is_same_v<E, DoubleDouble>) {
        return E(z.real());
    } else {
        return {z.real(), z.imag()};
    }
}

/// The relative rounding of one operation: u = 2^−53 in double; in double-double 4u² covers
/// +, − and ×, and / and √ come within a few of it (numeric/double_double.hpp).
template <class R>
constexpr double kUnit = std::is_same_v<R, double> ? 0x1p-53 : 0x1p-104;

// ---- double with exact roundings: each returns fl(result) and adds (exact − fl) to `round`

inline double scale_x(double c, double r, double& round) {
    const double v = c * r;
    round += std::fma(c, r, -v);
    return v;
}
inline Cx<double> scale_x(const Cx<double>& c, double r, Cx<double>& round) {
    return {scale_x(c.re, r, round.re), scale_x(c.im, r, round.im)};
}
/// s − a·b (a·b's and the subtraction's roundings)
inline double sub_product_x(double s, double a, double b, double& round) {
    const double p = a * b;
    const double ep = std::fma(a, b, -p);
    double v = 0, e = 0;
    numeric::two_sum(s, -p, v, e);
    round += e - ep;
    return v;
}
/// s − (a·b + c·d)
inline double sub_two_products_x(double s, double a, double b, double c, double d, double& round) {
    const double p = a * b, q = c * d;
    const double ep = std::fma(a, b, -p), eq = std::fma(c, d, -q);
    double t = 0, et = 0, v = 0, ev = 0;
    numeric::two_sum(p, q, t, et);
    numeric::two_sum(s, -t, v, ev);
    round += ev - et - ep - eq;
    return v;
}
inline double sub_mul_conj_x(double s, double l, double c, double& round) {
    return sub_product_x(s, l, c, round);
}
inline Cx<double> sub_mul_conj_x(const Cx<double>& s, const Cx<double>& l, const Cx<double>& c,
                                 Cx<double>& round) {
    return {sub_two_products_x(s.re, l.re, c.re, l.im, c.im, round.re),
            sub_two_products_x(s.im, l.im, c.re, -l.re, c.im, round.im)};
}
inline double sub_mul_x(double s, double l, double c, double& round) {
    return sub_product_x(s, l, c, round);
}
inline Cx<double> sub_mul_x(const Cx<double>& s, const Cx<double>& l, const Cx<double>& c,
                            Cx<double>& round) {
    return {sub_two_products_x(s.re, l.re, c.re, -l.im, c.im, round.re),
            sub_two_products_x(s.im, l.re, c.im, l.im, c.re, round.im)};
}
/// |x|² and its exact rounding
inline double norm_x(double x, double& round) {
    const double v = x * x;
    round += std::fma(x, x, -v);
    return v;
}
inline double norm_x(const Cx<double>& x, double& round) {
    const double a = x.re * x.re, b = x.im * x.im;
    double v = 0, e = 0;
    numeric::two_sum(a, b, v, e);
    round += e + std::fma(x.re, x.re, -a) + std::fma(x.im, x.im, -b);
    return v;
}
/// |x|² in double-double (exactly, up to the sum's 4u²)
inline DoubleDouble norm_dd(double x) {
    return DoubleDouble(x) * DoubleDouble(x);
}
inline DoubleDouble norm_dd(const Cx<double>& x) {
    return norm_dd(x.re) + norm_dd(x.im);
}

}  // namespace pmcount::exact::tor
