// The torontonian walk's two arithmetics (walk.hpp has what each figure means): Tracked, double
// entries with their first-order errors; Bounded, double-double entries with bounds on theirs.
// Each provides the pivots of a mode (its factor and the factor's error) and the child's
// complement. Library-internal, for torontonian.cpp.
#pragma once

#include <cmath>
#include <cstddef>
#include <vector>

#include "exact/torontonian/entries.hpp"
#include "exact/torontonian/walk.hpp"

namespace pmcount::exact::tor {

namespace detail {
/// Row-major index of (i, c) in a K×K level.
inline std::size_t at(int k, int i, int c) {
    return static_cast<std::size_t>(i) * static_cast<std::size_t>(k) + static_cast<std::size_t>(c);
}
}  // namespace detail

// ---- Tracked: double, each entry with its signed first-order error
// ------------------------------------------------------------------------------------------

template <class Entry>
struct Tracked {
    using R = double;
    using E = Entry;
    using Err = Entry;

    struct Pivots {
        double p1 = 0, p2 = 0, inv1 = 0, inv2 = 0, rho1 = 0, rho2 = 0, dp1 = 0, dp2 = 0;
        E s{}, ds{};
        E w1{}, dw1{}, w2{}, dw2{};
    };

    /// Per row below the pivots: the columns r and r + 1 after the first pivot (c1, c2), the
    /// multipliers l = c/p, and their errors.
    struct Scratch {
        explicit Scratch(int k)
            : c1(static_cast<std::size_t>(k)),
              dc1(c1.size()),
              l1(c1.size()),
              dl1(c1.size()),
              c2(c1.size()),
              dc2(c1.size()),
              l2(c1.size()),
              dl2(c1.size()) {}
        std::vector<E> c1, dc1, l1, dl1, c2, dc2, l2, dl2;
    };

    /// l = c/p (c·inv, 1/p = inv·(1 + rho) exactly to first order) and its error.
    static E multiplier(const E& c, const E& dc, double inv, double rho, double dp, E& dl) {
        E round{};
        const E l = scale_x(c, inv, round);
        dl = round + scale(c, inv * rho) + scale(sub_mul(dc, l, E(dp_entry(dp))), inv);
        return l;
    }
    static E dp_entry(double dp) {
        if constexpr (std::is_same_v<E, double>) {
            return dp;
        } else {
            return {dp, 0.0};
        }
    }

    static Failure pivot(const Problem<E, Err>& problem, const Level<E, Err>& level, int k, int j,
                         const Node<R>& node, Pivots& pv, Node<R>& child) {
        const int r = 2 * j;
        pv.p1 = real_part(level.s[detail::at(k, r, r)]);
        pv.dp1 = real_part(level.e[detail::at(k, r, r)]);
        pv.s = level.s[detail::at(k, r + 1, r)];
        pv.ds = level.e[detail::at(k, r + 1, r)];
        pv.inv1 = 1 / pv.p1;
        pv.rho1 = std::fma(-pv.p1, pv.inv1, 1.0);
        // p2 = d − |s|²/p1, and its error from d's, s's and p1's and the four roundings.
        double ens = 0;
        const double ns = norm_x(pv.s, ens);
        const double x = ns * pv.inv1, ex = std::fma(ns, pv.inv1, -x);
        const double d = real_part(level.s[detail::at(k, r + 1, r + 1)]);
        double esub = 0;
        numeric::two_sum(d, -x, pv.p2, esub);
        pv.dp2 = real_part(level.e[detail::at(k, r + 1, r + 1)]) + esub - ex - x * pv.rho1 -
                 (ens + 2 * re_dot(pv.s, pv.ds) - x * pv.dp1) * pv.inv1;
        if (!(pv.p1 > 0 && pv.p2 > 0 && std::fabs(pv.dp1) <= kLostTracked * pv.p1 &&
              std::fabs(pv.dp2) <= kLostTracked * pv.p2)) {
            const bool negative = (pv.p1 < 0 && std::fabs(pv.dp1) < -0.5 * pv.p1) ||
                                  (pv.p1 > 0 && pv.p2 < 0 && std::fabs(pv.dp2) < -0.5 * pv.p2);
            return negative ? Failure::not_positive_definite : Failure::lost;
        }
        pv.inv2 = 1 / pv.p2;
        pv.rho2 = std::fma(-pv.p2, pv.inv2, 1.0);
        // The factor in double-double (p1·p2 exact there), its rounding to double recovered.
        DoubleDouble factor = DoubleDouble(1) / numeric::sqrt(DoubleDouble(pv.p1) * pv.p2);
        child.delta = -0.5 * (pv.dp1 / pv.p1 + pv.dp2 / pv.p2);
        if (problem.loop) {
            const std::size_t rr = static_cast<std::size_t>(r);
            pv.w1 = level.w[rr];
            pv.dw1 = level.ew[rr];
            E dls{};
            const E ls = multiplier(pv.s, pv.ds, pv.inv1, pv.rho1, pv.dp1, dls);
            E round{};
            pv.w2 = sub_mul_x(level.w[rr + 1], ls, pv.w1, round);
            pv.dw2 = sub_mul(sub_mul(level.ew[rr + 1], dls, pv.w1), ls, pv.dw1) + round;
            // Δq = |w1|²/p1 + |w2|²/p2 in double-double; its first-order error from the inputs'.
            const DoubleDouble norm1 = norm_dd(pv.w1), norm2 = norm_dd(pv.w2);
            const DoubleDouble dq = norm1 / DoubleDouble(pv.p1) + norm2 / DoubleDouble(pv.p2);
            const double n1 = norm1.hi, n2 = norm2.hi;
            const double ddq = (2 * re_dot(pv.w1, pv.dw1) - n1 * pv.dp1 * pv.inv1) * pv.inv1 +
                               (2 * re_dot(pv.w2, pv.dw2) - n2 * pv.dp2 * pv.inv2) * pv.inv2;
            factor = factor * numeric::exp(ldexp(dq, -1));
            child.delta += 0.5 * ddq;
        }
        const DoubleDouble g = DoubleDouble(node.g) * factor;
        child.g = g.hi;
        child.delta += g.lo / g.hi;
        return Failure::none;
    }

    static void build(const Problem<E, Err>& problem, const Level<E, Err>& level, int k, int j,
                      const Pivots& pv, Level<E, Err>& to, Scratch& t) {
        const int r = 2 * j, kc = k - r - 2;
        for (int x = 0; x < kc; ++x) {
            const int i = x + r + 2;
            const auto ux = static_cast<std::size_t>(x);
            t.c1[ux] = level.s[detail::at(k, i, r)];
            t.dc1[ux] = level.e[detail::at(k, i, r)];
            t.l1[ux] = multiplier(t.c1[ux], t.dc1[ux], pv.inv1, pv.rho1, pv.dp1, t.dl1[ux]);
            E round{};
            t.c2[ux] = sub_mul_conj_x(level.s[detail::at(k, i, r + 1)], t.l1[ux], pv.s, round);
            t.dc2[ux] =
                sub_mul_conj(sub_mul_conj(level.e[detail::at(k, i, r + 1)], t.dl1[ux], pv.s),
                             t.l1[ux], pv.ds) +
                round;
            t.l2[ux] = multiplier(t.c2[ux], t.dc2[ux], pv.inv2, pv.rho2, pv.dp2, t.dl2[ux]);
        }
        for (int x = 0; x < kc; ++x) {
            const int i = x + r + 2;
            const auto ux = static_cast<std::size_t>(x);
            E* out = to.s.data() + ux * static_cast<std::size_t>(kc);
            E* out_d = to.e.data() + ux * static_cast<std::size_t>(kc);
            const E* in = level.s.data() + detail::at(k, i, r + 2);
            const E* in_d = level.e.data() + detail::at(k, i, r + 2);
            const E l1 = t.l1[ux], dl1 = t.dl1[ux], l2 = t.l2[ux], dl2 = t.dl2[ux];
            for (int y = 0; y <= x; ++y) {
                const auto uy = static_cast<std::size_t>(y);
                E round{};
                out[y] =
                    sub_mul_conj_x(sub_mul_conj_x(in[y], l1, t.c1[uy], round), l2, t.c2[uy], round);
                out_d[y] =
                    sub_mul_conj(sub_mul_conj(sub_mul_conj(sub_mul_conj(in_d[y], dl1, t.c1[uy]), l1,
                                                           t.dc1[uy]),
                                              dl2, t.c2[uy]),
                                 l2, t.dc2[uy]) +
                    round;
            }
            if constexpr (!std::is_same_v<E, double>) {
                out[x].im = 0;  // Hermitian: the diagonal is real, exactly
                out_d[x].im = 0;
            }
        }
        if (problem.loop) {
            for (int x = 0; x < kc; ++x) {
                const auto ux = static_cast<std::size_t>(x);
                const auto i = static_cast<std::size_t>(x + r + 2);
                E round{};
                to.w[ux] = sub_mul_x(sub_mul_x(level.w[i], t.l1[ux], pv.w1, round), t.l2[ux], pv.w2,
                                     round);
                to.ew[ux] =
                    sub_mul(
                        sub_mul(sub_mul(sub_mul(level.ew[i], t.dl1[ux], pv.w1), t.l1[ux], pv.dw1),
                                t.dl2[ux], pv.w2),
                        t.l2[ux], pv.dw2) +
                    round;
            }
        }
    }
};

// ---- Bounded: double-double, each entry with a bound on its error
// ------------------------------------------------------------------------------------------

template <class Real, class Entry>
struct Bounded {
    using R = Real;
    using E = Entry;
    using Err = double;

    struct Pivots {
        R p1{}, p2{}, inv1{}, inv2{};
        double e1 = 0, e2 = 0;
        E s{};  ///< S_(r+1)r
        double es = 0;
        E w1{}, w2{};  ///< the loop's v entries of rows r and r + 1, after the first pivot
        double ew1 = 0, ew2 = 0;
    };

    /// Per row below the pivots: the multipliers l, the columns c, their sizes m and bounds.
    struct Scratch {
        explicit Scratch(int k)
            : l1(static_cast<std::size_t>(k)),
              c1(l1.size()),
              l2(l1.size()),
              c2(l1.size()),
              a1(l1.size()),
              b1(l1.size()),
              m1(l1.size()),
              e1(l1.size()),
              a2(l1.size()),
              b2(l1.size()),
              m2(l1.size()),
              e2(l1.size()) {}
        std::vector<E> l1, c1, l2, c2;
        std::vector<double> a1, b1, m1, e1, a2, b2, m2, e2;
    };

    static Failure pivot(const Problem<E, Err>& problem, const Level<E, Err>& level, int k, int j,
                         const Node<R>& node, Pivots& pv, Node<R>& child) {
        constexpr double u = kUnit<R>;
        const int r = 2 * j;
        pv.p1 = real_part(level.s[detail::at(k, r, r)]);
        pv.e1 = level.e[detail::at(k, r, r)];
        pv.s = level.s[detail::at(k, r + 1, r)];
        pv.es = level.e[detail::at(k, r + 1, r)];
        pv.inv1 = R(1) / pv.p1;
        const double ms = mag(pv.s), p1 = hi(pv.p1);
        const R d = real_part(level.s[detail::at(k, r + 1, r + 1)]);
        pv.p2 = d - norm(pv.s) * pv.inv1;
        const double p2 = hi(pv.p2);
        pv.e2 = level.e[detail::at(k, r + 1, r + 1)] +
                (2 * ms * pv.es + ms * ms * pv.e1 / p1) / p1 +
                kOps * u * (std::fabs(hi(d)) + ms * ms / p1);
        if (!(p1 > pv.e1 / kLostBound) || !(p2 > pv.e2 / kLostBound)) {
            const bool negative = p1 < -pv.e1 || (p1 > 0 && p2 < -pv.e2);
            return negative ? Failure::not_positive_definite : Failure::lost;
        }
        pv.inv2 = R(1) / pv.p2;
        using numeric::exp;
        using numeric::sqrt;
        // The factor: p1·p2, its root, the quotient and the product each round once.
        child.eps = 0.5 * (pv.e1 / p1 + pv.e2 / p2) + 5 * u;
        if (!problem.loop) {
            child.g = node.g / sqrt(pv.p1 * pv.p2);
            return Failure::none;
        }
        const auto rr = static_cast<std::size_t>(r);
        pv.w1 = level.w[rr];
        pv.ew1 = level.ew[rr];
        pv.w2 = sub_mul(level.w[rr + 1], scale(pv.s, pv.inv1), pv.w1);
        const double als = ms / p1, bls = pv.es / p1 + als * (pv.e1 / p1) + 3 * u * als;
        const double m1 = mag(pv.w1), m2 = mag(pv.w2);
        pv.ew2 = level.ew[rr + 1] + bls * m1 + als * pv.ew1 +
                 kOps * u * (mag(level.w[rr + 1]) + als * m1);
        // Δq = |w1|²/p1 + |w2|²/p2 ≥ 0; its error moves exp(Δq/2) by half as much, relatively,
        // and exp rounds once more (and its argument's rounding, u·Δq/2).
        const R dq = norm(pv.w1) * pv.inv1 + norm(pv.w2) * pv.inv2;
        const double edq = (2 * m1 * pv.ew1 + m1 * m1 * pv.e1 / p1) / p1 +
                           (2 * m2 * pv.ew2 + m2 * m2 * pv.e2 / p2) / p2 + kOps * u * hi(dq);
        child.eps += 0.5 * edq + 2 * u;
        child.g = node.g * exp(dq * R(0.5)) / sqrt(pv.p1 * pv.p2);
        return Failure::none;
    }

    static void build(const Problem<E, Err>& problem, const Level<E, Err>& level, int k, int j,
                      const Pivots& pv, Level<E, Err>& to, Scratch& t) {
        constexpr double u = kUnit<R>;
        const int r = 2 * j, kc = k - r - 2;
        const double p1 = hi(pv.p1), p2 = hi(pv.p2), ms = mag(pv.s);
        for (int x = 0; x < kc; ++x) {
            const int i = x + r + 2;
            const auto ux = static_cast<std::size_t>(x);
            t.c1[ux] = level.s[detail::at(k, i, r)];
            t.m1[ux] = mag(t.c1[ux]);
            t.e1[ux] = level.e[detail::at(k, i, r)];
            t.l1[ux] = scale(t.c1[ux], pv.inv1);
            t.a1[ux] = t.m1[ux] / p1;
            t.b1[ux] = t.e1[ux] / p1 + t.a1[ux] * (pv.e1 / p1) + 3 * u * t.a1[ux];
            const E& below = level.s[detail::at(k, i, r + 1)];
            t.c2[ux] = sub_mul_conj(below, t.l1[ux], pv.s);
            t.m2[ux] = mag(t.c2[ux]);
            t.e2[ux] = level.e[detail::at(k, i, r + 1)] + t.b1[ux] * ms + t.a1[ux] * pv.es +
                       kOps * u * (mag(below) + t.a1[ux] * ms);
            t.l2[ux] = scale(t.c2[ux], pv.inv2);
            t.a2[ux] = t.m2[ux] / p2;
            t.b2[ux] = t.e2[ux] / p2 + t.a2[ux] * (pv.e2 / p2) + 3 * u * t.a2[ux];
        }
        for (int x = 0; x < kc; ++x) {
            const int i = x + r + 2;
            const auto ux = static_cast<std::size_t>(x);
            E* out = to.s.data() + ux * static_cast<std::size_t>(kc);
            double* out_e = to.e.data() + ux * static_cast<std::size_t>(kc);
            const E* in = level.s.data() + detail::at(k, i, r + 2);
            const double* in_e = level.e.data() + detail::at(k, i, r + 2);
            const E l1 = t.l1[ux], l2 = t.l2[ux];
            const double a1 = t.a1[ux], b1 = t.b1[ux], a2 = t.a2[ux], b2 = t.b2[ux];
            for (int y = 0; y <= x; ++y) {
                const auto uy = static_cast<std::size_t>(y);
                out[y] = sub_mul_conj(sub_mul_conj(in[y], l1, t.c1[uy]), l2, t.c2[uy]);
                out_e[y] = in_e[y] + b1 * t.m1[uy] + a1 * t.e1[uy] + b2 * t.m2[uy] + a2 * t.e2[uy] +
                           kOps * u * (mag(in[y]) + a1 * t.m1[uy] + a2 * t.m2[uy]);
            }
            if constexpr (!std::is_same_v<E, R>) {
                out[x].im = R(0);  // Hermitian: the diagonal is real
            }
        }
        if (problem.loop) {
            const double mw1 = mag(pv.w1), mw2 = mag(pv.w2);
            for (int x = 0; x < kc; ++x) {
                const auto ux = static_cast<std::size_t>(x);
                const auto i = static_cast<std::size_t>(x + r + 2);
                to.w[ux] = sub_mul(sub_mul(level.w[i], t.l1[ux], pv.w1), t.l2[ux], pv.w2);
                to.ew[ux] = level.ew[i] + t.b1[ux] * mw1 + t.a1[ux] * pv.ew1 + t.b2[ux] * mw2 +
                            t.a2[ux] * pv.ew2 +
                            kOps * u * (mag(level.w[i]) + t.a1[ux] * mw1 + t.a2[ux] * mw2);
            }
        }
    }
};

}  // namespace pmcount::exact::tor
