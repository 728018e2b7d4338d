// The arithmetics that ryser_range() runs in. Each is a small policy (see ryser_kernel.hpp for
// the interface); the products use 8 (double) or 4 (wider types) independent lanes so that the
// n-fold product is a short tree instead of one long dependency chain.
//
// Instruction counts per Gray step for an order-n matrix (W = n rounded up to 8):
//   ExactLanes<L>  W double adds + W double muls (lane products, exact) + L conversions, then per
//                  prime L−1 Montgomery reductions (≈ 2.5 multiply instructions each)
//   Modular        W modular adds + W−1 Montgomery products, one prime per pass
//   Double         W adds + W muls + 10 flops of compensated accumulation
//   DoubleDouble   ≈ 20 W flops (TwoSum adds, FMA-based products)
//   Complex        2 W adds + ≈ 4 W flops of products
#pragma once

#include <cmath>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "exact/ryser/lanes.hpp"
#include "exact/ryser/walk_error.hpp"
#include "numeric/compensated.hpp"
#include "numeric/double_double.hpp"
#include "numeric/int128.hpp"
#include "numeric/montgomery.hpp"

namespace pmcount::exact {

using numeric::uint128_t;

// ---- Exact: integer y held exactly in doubles, products reduced modulo several primes ----------

/// Exact arithmetic for integer matrices whose row 1-norms R_i are small enough that each of the
/// L lane products (rows i ≡ l mod L of the padded table) satisfies Π R_i ≤ 2^53: since
/// |y_i| ≤ R_i always, every y_i and every lane product is an exactly represented integer. The L
/// lane magnitudes (< 2^53) are multiplied modulo each prime with Montgomery reductions, which
/// need no pre-reduction of factors below 2^64; the result carries a factor R^-(L−1) that
/// finish() removes. Terms are summed, per prime and per sign, in 128-bit integers: at most 2^63
/// terms below 2^62 cannot overflow.
///
/// Compact (L = 4 only): when moreover the lane bounds satisfy b0·b1 < 2^62 and b2·b3 < 2^62
/// (sparse or small matrices), the whole product is formed exactly in 128 bits (two 64-bit
/// products and one 64×64→128) and summed exactly in 192-bit integers (at most 2^63 terms below
/// 2^124); the reduction modulo each prime happens once per chunk instead of once per term.
template <int L, bool Compact = false>
class ExactLanes {
    static_assert(!Compact || L == 4, "the compact product pairs exactly four lanes");
public:
    using Elem = double;
    struct ModularAcc {
        std::vector<uint128_t> sums;  // [2k] positive, [2k + 1] negative terms for prime k
    };
    /// A 192-bit unsigned sum.
    struct Wide {
        uint128_t low = 0;
        std::uint64_t high = 0;
        void add(uint128_t v) noexcept {
            low += v;
            high += low < v ? 1 : 0;
        }
        void add(const Wide& w) noexcept {
            add(w.low);
            high += w.high;
        }
        /// Adds v·2^64 (v < 2^128).
        void add_shifted64(uint128_t v) noexcept {
            const uint128_t shifted = v << 64;
            add(shifted);
            high += static_cast<std::uint64_t>(v >> 64);
        }
        /// (high·2^128 + low) mod p, by Horner in base 2^64.
        std::uint64_t mod(std::uint64_t p) const noexcept {
            const std::uint64_t two64 = static_cast<std::uint64_t>((uint128_t{1} << 64) % p);
            const uint128_t upper = uint128_t{numeric::mul_mod(high % p, two64, p)} +
                                    static_cast<std::uint64_t>(low >> 64);
            const uint128_t all =
                (uint128_t{static_cast<std::uint64_t>(upper % p)} << 64) | static_cast<std::uint64_t>(low);
            return static_cast<std::uint64_t>(all % p);
        }
    };
    struct CompactAcc {
        Wide positive;
        Wide negative;
    };
    using Acc = std::conditional_t<Compact, CompactAcc, ModularAcc>;
    static constexpr int reset_log2 = 0;
    static constexpr int lanes = L;

    explicit ExactLanes(const std::vector<std::uint64_t>& primes) {
        for (const std::uint64_t p : primes) {
            moduli_.emplace_back(p);
        }
    }
    Acc make_acc() const {
        if constexpr (Compact) {
            return {};
        } else {
            return Acc{std::vector<uint128_t>(2 * moduli_.size(), 0)};
        }
    }

    static double add(double a, double b) noexcept { return a + b; }
    static double sub(double a, double b) noexcept { return a - b; }
    static bool is_zero(double a) noexcept { return a == 0; }

    template <int W, bool Odd, bool ScalarStores = false>
    void accumulate(Acc& acc, const double* y) const noexcept {
        double lane[L];
        if constexpr (ScalarStores) {
            lane_products_scalar<L, W>(y, lane);
        } else {
            lane_products<L, W>(y, lane);
        }
        accumulate_lanes<Odd>(acc, lane);
    }

    /// Lane products can be kept up to date as single y_i change (sparse kernels): each lane is an
    /// exact integer below 2^53, so dividing out the old value is exact.
    static constexpr bool incremental_lanes = true;

    /// Adds ±Π lanes (Odd: sign −) modulo every prime; nothing when a lane is zero.
    template <bool Odd>
    void accumulate_lanes(Acc& acc, const double (&lane)[L]) const noexcept {
        bool negative = Odd;
        std::uint64_t magnitude[L];
        if (!magnitudes(lane, magnitude, negative)) {
            return;  // common for sparse 0-1 matrices; skips all modular work
        }
        if constexpr (Compact) {
            (negative ? acc.negative : acc.positive).add(compact_product(magnitude));
        } else {
            accumulate_modular(acc, magnitude, negative, 0);
        }
    }

    /// Adds ±Π lanes · times (Odd: sign −), `times` an exact integer below 2^53 (SkipPer's
    /// sub-block sums, numeric/sub_block_bits.hpp): in the compact form the product, below 2^177,
    /// goes into the 192-bit sums; in the modular form `times` enters in Montgomery form, so the
    /// factor R^-(L−1) stays.
    template <bool Odd>
    void accumulate_lanes_times(Acc& acc, const double (&lane)[L], double times) const noexcept {
        bool negative = Odd != std::signbit(times);
        const auto factor = static_cast<std::uint64_t>(std::fabs(times));
        std::uint64_t magnitude[L];
        if (factor == 0 || !magnitudes(lane, magnitude, negative)) {
            return;
        }
        if constexpr (Compact) {
            const uint128_t product = compact_product(magnitude);
            Wide& sum = negative ? acc.negative : acc.positive;
            sum.add(uint128_t{static_cast<std::uint64_t>(product)} * factor);
            sum.add_shifted64(uint128_t{static_cast<std::uint64_t>(product >> 64)} * factor);
        } else {
            accumulate_modular(acc, magnitude, negative, factor);
        }
    }

    /// Π y_i (mod p_k) with the Montgomery factor removed, summed with signs, for every prime.
    std::vector<std::uint64_t> residues(const Acc& acc) const {
        std::vector<std::uint64_t> out;
        for (std::size_t k = 0; k < moduli_.size(); ++k) {
            const std::uint64_t p = moduli_[k].modulus();
            if constexpr (Compact) {
                out.push_back(numeric::sub_mod(acc.positive.mod(p), acc.negative.mod(p), p));
            } else {
                const std::uint64_t pos = static_cast<std::uint64_t>(acc.sums[2 * k] % p);
                const std::uint64_t neg = static_cast<std::uint64_t>(acc.sums[2 * k + 1] % p);
                out.push_back(numeric::mul_mod(numeric::sub_mod(pos, neg, p),
                                               moduli_[k].r_power(L - 1), p));
            }
        }
        return out;
    }
    static void merge(Acc& into, const Acc& from) noexcept {
        if constexpr (Compact) {
            into.positive.add(from.positive);
            into.negative.add(from.negative);
        } else {
            for (std::size_t i = 0; i < into.sums.size(); ++i) {
                into.sums[i] += from.sums[i];
            }
        }
    }

private:
    /// The lanes' magnitudes as integers, their signs folded into `negative`; false when one is 0.
    static bool magnitudes(const double (&lane)[L], std::uint64_t (&magnitude)[L],
                           bool& negative) noexcept {
        bool zero = false;
        for (int l = 0; l < L; ++l) {
            negative ^= std::signbit(lane[l]);
            magnitude[l] = static_cast<std::uint64_t>(std::fabs(lane[l]));
            zero |= magnitude[l] == 0;
        }
        return !zero;
    }
    /// The compact form's exact product (< 2^124).
    static uint128_t compact_product(const std::uint64_t (&magnitude)[L]) noexcept {
        return uint128_t{magnitude[0] * magnitude[1]} * (magnitude[2] * magnitude[3]);
    }
    /// Each prime: Montgomery products of the lane magnitudes (factor R^-(L−1)), times `factor`
    /// in Montgomery form when it is not 0.
    void accumulate_modular(ModularAcc& acc, const std::uint64_t (&magnitude)[L], bool negative,
                            std::uint64_t factor) const noexcept {
        uint128_t* sums = acc.sums.data() + (negative ? 1 : 0);
        const numeric::Montgomery64* mont = moduli_.data();
        const std::size_t primes = moduli_.size();
        const uint128_t first = uint128_t{magnitude[0]} * magnitude[1];
        for (std::size_t k = 0; k < primes; ++k) {
            std::uint64_t r = mont[k].redc(first);
            for (int l = 2; l < L; ++l) {
                r = mont[k].mul(r, magnitude[l]);
            }
            if (factor != 0) {
                r = mont[k].mul(r, mont[k].to_montgomery(factor));
            }
            sums[2 * k] += r;
        }
    }

    std::vector<numeric::Montgomery64> moduli_;
};

// ---- Modular: residues mod one prime; works for any int64 entries -----------------------------

/// y_i mod p for one prime p < 2^62; products by Montgomery reduction in 4 chains. Slower than
/// ExactLanes but with no size condition on the entries.
class Modular {
public:
    using Elem = std::uint64_t;
    struct Acc {
        uint128_t positive = 0;  // (even subsets) ≤ 2^63 terms < 2^62: no overflow
        uint128_t negative = 0;
    };
    static constexpr int reset_log2 = 0;

    explicit Modular(std::uint64_t p) : mont_(p), p_(p) {}
    Acc make_acc() const { return {}; }

    std::uint64_t add(std::uint64_t a, std::uint64_t b) const noexcept {
        const std::uint64_t s = a + b;
        return s >= p_ ? s - p_ : s;
    }
    std::uint64_t sub(std::uint64_t a, std::uint64_t b) const noexcept {
        return a >= b ? a - b : a + p_ - b;
    }
    /// Zero modulo p (possibly a nonzero multiple of p: sparse_ryser.hpp says why skipping it is
    /// still exact).
    static bool is_zero(std::uint64_t a) noexcept { return a == 0; }

    template <int W, bool Odd, bool ScalarStores = false>
    void accumulate(Acc& acc, const std::uint64_t* y) const noexcept {
        // Four chains of W/4 factors: W/4 − 1 reductions each, then 3 to combine: W − 1 in all.
        std::uint64_t chain[4];
        for (int c = 0; c < 4; ++c) {
            chain[c] = y[c];
        }
        for (int m = 1; m < W / 4; ++m) {
            for (int c = 0; c < 4; ++c) {
                chain[c] = mont_.mul(chain[c], y[m * 4 + c]);
            }
        }
        const std::uint64_t r =
            mont_.mul(mont_.mul(chain[0], chain[1]), mont_.mul(chain[2], chain[3]));
        (Odd ? acc.negative : acc.positive) += r;
    }

    /// The signed sum mod p with the Montgomery factor R^-(W−1) removed.
    std::uint64_t residue(const Acc& acc, int width) const {
        const std::uint64_t pos = static_cast<std::uint64_t>(acc.positive % p_);
        const std::uint64_t neg = static_cast<std::uint64_t>(acc.negative % p_);
        return numeric::mul_mod(numeric::sub_mod(pos, neg, p_),
                                mont_.r_power(static_cast<unsigned>(width - 1)), p_);
    }
    static void merge(Acc& into, const Acc& from) noexcept {
        into.positive += from.positive;
        into.negative += from.negative;
    }

private:
    numeric::Montgomery64 mont_;
    std::uint64_t p_;
};

// ---- Floating point ----------------------------------------------------------------------------

/// Float accumulators shared by the double, double-double and complex arithmetics: the signed
/// sum of the terms, the sum of their magnitudes and (double and complex) of their squared
/// magnitudes, for the error figure (walk_error.hpp).
template <class Sum>
struct FloatAcc {
    Sum even;
    Sum odd;
    double magnitude_even = 0;  // two chains: halves the latency of this extra sum
    double magnitude_odd = 0;
    double squares = 0;
};

/// double y, products in 8 lanes, Neumaier-compensated sums of the terms. y is recomputed from
/// the tables every 2^10 steps, so rounding drift of the incremental updates stays bounded.
class Double {
public:
    using Elem = double;
    using Acc = FloatAcc<numeric::CompensatedSum>;
    static constexpr int reset_log2 = driver::kFloatWalkResetLog2;

    Acc make_acc() const { return {}; }
    static double add(double a, double b) noexcept { return a + b; }
    static double sub(double a, double b) noexcept { return a - b; }
    static bool is_zero(double a) noexcept { return a == 0; }

    template <int W, bool Odd, bool ScalarStores = false>
    void accumulate(Acc& acc, const double* y) const noexcept {
        double lane[8];
        if constexpr (ScalarStores) {
            lane_products_scalar<8, W>(y, lane);
        } else {
            lane_products<8, W>(y, lane);
        }
        const double p = ((lane[0] * lane[1]) * (lane[2] * lane[3])) *
                         ((lane[4] * lane[5]) * (lane[6] * lane[7]));
        add_term<Odd>(acc, p);
    }
    /// ±p into the even or odd sum, |p| into the magnitude that feeds the error estimate.
    template <bool Odd>
    static void add_term(Acc& acc, double p) noexcept {
        if (Odd) {
            acc.odd.add(p);
            acc.magnitude_odd += std::fabs(p);
        } else {
            acc.even.add(p);
            acc.magnitude_even += std::fabs(p);
        }
        acc.squares = std::fma(p, p, acc.squares);
    }
    static void merge(Acc& into, const Acc& from) noexcept {
        into.even.add(from.even);
        into.odd.add(from.odd);
        into.magnitude_even += from.magnitude_even;
        into.magnitude_odd += from.magnitude_odd;
        into.squares += from.squares;
    }

    /// accumulate() for y held in registers (rows 8c … 8c + 7 in y[c]): the same lane products
    /// and the same tree, so the same bits, without a store and reload of y per step.
    static constexpr bool vector_y = true;
    template <int W, bool Odd>
    void accumulate_vector(Acc& acc, const Double8 (&y)[W / 8]) const noexcept {
        Double8 lane = y[0];
        for (int c = 1; c < W / 8; ++c) {
            lane *= y[c];
        }
        const double p = ((lane[0] * lane[1]) * (lane[2] * lane[3])) *
                         ((lane[4] * lane[5]) * (lane[6] * lane[7]));
        add_term<Odd>(acc, p);
    }
};

/// Certified: Double's y and term products, the terms summed in double-double, and beside each
/// term a rigorous bound on its distance from the exact term of the given matrix. The caller
/// passes E_i per padded slot: a bound on |ŷ_i − y_i| that holds at every step (y is recomputed
/// every 2^reset_log2 steps, so a slot sees at most n − 1 + 2^reset_log2 rounded additions since
/// its start value; see driver::certified_row_errors). With p̂ = fl(Π ŷ_i) and B̂ = fl(Π (|ŷ_i|
/// + E_i)), |p̂ − Π y_i| ≤ |p̂ − Π ŷ_i| + Π(|ŷ_i| + E_i) − Π|ŷ_i| ≤ B̂(1 + g) − |p̂|(1 − g) with
/// g = 2γ_{2n+2} + 4u (γ_k = ku/(1 − ku): the rounding of the two products, the sums |ŷ_i| + E_i,
/// and of this very expression). A term whose ŷ has a zero still carries its bound: nothing is
/// skipped. The bounds and magnitudes are nonnegative double sums (error ≤ γ_N of the sum, N
/// terms); the terms' double-double sums lose at most 3u²/(1 − 4u) of each partial sum per
/// addition (Joldes, Muller, Popescu, TOMS 2017, AccurateDWPlusDW).
class Certified {
public:
    using Elem = double;
    struct Acc {
        numeric::DoubleDouble even;
        numeric::DoubleDouble odd;
        double magnitude = 0;  // Σ |p̂|
        double bound = 0;      // Σ per-term bounds
        std::uint64_t terms = 0;
    };
    static constexpr int reset_log2 = 6;
    static constexpr bool vector_y = true;

    /// row_errors: W entries (0 for padding), alive as long as this object.
    Certified(const double* row_errors, int n) noexcept : errors_(row_errors) {
        constexpr double u = 0x1p-53;
        const double k = 2.0 * n + 2;
        g_ = 2 * (k * u / (1 - k * u)) + 4 * u;
    }
    Acc make_acc() const { return {}; }
    static double add(double a, double b) noexcept { return a + b; }
    static double sub(double a, double b) noexcept { return a - b; }
    static bool is_zero(double) noexcept { return false; }  // a zero ŷ_i still has a bound

    template <int W, bool Odd, bool ScalarStores = false>
    void accumulate(Acc& acc, const double* y) const noexcept {
        double lane[8], upper[8];
        for (int l = 0; l < 8; ++l) {
            lane[l] = y[l];
            upper[l] = std::fabs(y[l]) + errors_[l];
        }
        for (int i = 8; i < W; ++i) {
            lane[i % 8] *= y[i];
            upper[i % 8] *= std::fabs(y[i]) + errors_[i];
        }
        add_term<Odd>(acc, tree(lane), tree(upper));
    }
    template <int W, bool Odd>
    void accumulate_vector(Acc& acc, const Double8 (&y)[W / 8]) const noexcept {
        Double8 lane = y[0];
        Double8 upper = magnitude_plus(y[0], 0);
        for (int c = 1; c < W / 8; ++c) {
            lane *= y[c];
            upper *= magnitude_plus(y[c], c);
        }
        double l[8], u[8];
        for (int k = 0; k < 8; ++k) {
            l[k] = lane[k];
            u[k] = upper[k];
        }
        add_term<Odd>(acc, tree(l), tree(u));
    }
    static void merge(Acc& into, const Acc& from) noexcept {
        into.even = into.even + from.even;
        into.odd = into.odd + from.odd;
        into.magnitude += from.magnitude;
        into.bound += from.bound;
        into.terms += from.terms;
    }

private:
    static double tree(const double (&v)[8]) noexcept {
        return ((v[0] * v[1]) * (v[2] * v[3])) * ((v[4] * v[5]) * (v[6] * v[7]));
    }
    Double8 magnitude_plus(const Double8& y, int c) const noexcept {
        Double8 r;
        for (int k = 0; k < 8; ++k) {
            r[k] = std::fabs(y[k]) + errors_[8 * c + k];
        }
        return r;
    }
    template <bool Odd>
    void add_term(Acc& acc, double p, double upper) const noexcept {
        const double m = std::fabs(p);
        acc.bound += std::fma(upper, 1 + g_, -(1 - g_) * m);
        acc.magnitude += m;
        if (Odd) {
            acc.odd = acc.odd + numeric::DoubleDouble(p);
        } else {
            acc.even = acc.even + numeric::DoubleDouble(p);
        }
        ++acc.terms;
    }
    const double* errors_;
    double g_ = 0;
};

/// Double-double y, products and sums (about 106 bits throughout).
class DoubleDoubleArith {
public:
    using DD = numeric::DoubleDouble;
    using Elem = DD;
    using Acc = FloatAcc<DD>;
    static constexpr int reset_log2 = 0;

    Acc make_acc() const { return {}; }
    static DD add(DD a, DD b) noexcept { return a + b; }
    static DD sub(DD a, DD b) noexcept { return a - b; }
    static bool is_zero(DD a) noexcept { return a.hi == 0 && a.lo == 0; }

    template <int W, bool Odd, bool ScalarStores = false>
    void accumulate(Acc& acc, const DD* y) const noexcept {
        DD lane[4] = {y[0], y[1], y[2], y[3]};
        for (int m = 1; m < W / 4; ++m) {
            for (int l = 0; l < 4; ++l) {
                lane[l] *= y[m * 4 + l];
            }
        }
        const DD p = (lane[0] * lane[1]) * (lane[2] * lane[3]);
        if (Odd) {
            acc.odd += p;
            acc.magnitude_odd += std::fabs(p.hi);
        } else {
            acc.even += p;
            acc.magnitude_even += std::fabs(p.hi);
        }
    }
    static void merge(Acc& into, const Acc& from) noexcept {
        into.even += from.even;
        into.odd += from.odd;
        into.magnitude_even += from.magnitude_even;
        into.magnitude_odd += from.magnitude_odd;
    }
};

using numeric::Complex;
using numeric::ComplexSum;

class ComplexArith {
public:
    using Elem = Complex;
    using Acc = FloatAcc<ComplexSum>;
    static constexpr int reset_log2 = driver::kFloatWalkResetLog2;

    Acc make_acc() const { return {}; }
    static Complex add(Complex a, Complex b) noexcept { return {a.re + b.re, a.im + b.im}; }
    static Complex sub(Complex a, Complex b) noexcept { return {a.re - b.re, a.im - b.im}; }
    static bool is_zero(Complex a) noexcept { return a.re == 0 && a.im == 0; }
    static Complex mul(Complex a, Complex b) noexcept {
        return {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
    }

    template <int W, bool Odd, bool ScalarStores = false>
    void accumulate(Acc& acc, const Complex* y) const noexcept {
        Complex lane[4] = {y[0], y[1], y[2], y[3]};
        for (int m = 1; m < W / 4; ++m) {
            for (int l = 0; l < 4; ++l) {
                lane[l] = mul(lane[l], y[m * 4 + l]);
            }
        }
        const Complex p = mul(mul(lane[0], lane[1]), mul(lane[2], lane[3]));
        ComplexSum& sum = Odd ? acc.odd : acc.even;
        sum.re.add(p.re);
        sum.im.add(p.im);
        (Odd ? acc.magnitude_odd : acc.magnitude_even) += std::fabs(p.re) + std::fabs(p.im);
        acc.squares = std::fma(p.re, p.re, std::fma(p.im, p.im, acc.squares));
    }
    static void merge(Acc& into, const Acc& from) noexcept {
        into.even.re.add(from.even.re);
        into.even.im.add(from.even.im);
        into.odd.re.add(from.odd.re);
        into.odd.im.add(from.odd.im);
        into.magnitude_even += from.magnitude_even;
        into.magnitude_odd += from.magnitude_odd;
        into.squares += from.squares;
    }
};

}  // namespace pmcount::exact
