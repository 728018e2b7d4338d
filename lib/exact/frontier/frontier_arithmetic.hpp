// The frontier DP's arithmetics (frontier.cpp): exact values as two's-complement integers of L
// 64-bit limbs (ring Z/2^(64L): additions and multiplications by a word wrap exactly as the true
// values do as long as those fit), L grown before a step could overflow from a running bound on
// the magnitude that is re-measured when it gets near the top; floating values with a common
// power-of-two scale and, alongside, the same DP over |a_ij| for the error bound; residues in
// lanes of primes for the matchings of every size.
// Library-internal.
#pragma once

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <vector>

#include "exact/frontier/frontier_order.hpp"
#include "numeric/int128.hpp"
#include "numeric/montgomery.hpp"
#include "pmcount/big_int.hpp"

namespace pmcount::exact::frontier {

using numeric::uint128_t;

/// Two's-complement integers of `limbs` words; weights int64.
class BigArith {
public:
    using Word = std::uint64_t;
    explicit BigArith(const std::vector<std::int64_t>& weights) : weights_(weights) {}
    std::size_t words() const { return limbs_; }

    /// Makes room for one more step whose values grow at most by the factor 2^growth_log2.
    void before_step(std::vector<Word>& values, std::size_t live, double growth_log2) {
        bound_bits_ += growth_log2;
        if (bound_bits_ + 2 <= 64.0 * static_cast<double>(limbs_)) {
            return;
        }
        bound_bits_ = measured_bits(values, live) + growth_log2;
        const auto needed = static_cast<std::size_t>(std::ceil((bound_bits_ + 2) / 64.0));
        if (needed <= limbs_) {
            return;
        }
        // Two spare limbs: regrowth (a copy of the live values) then comes every ≥ 128 bits of
        // growth, while the values themselves never carry more than two idle limbs.
        const std::size_t grown = needed + 2;
        std::vector<Word> wider(live * grown);
        for (std::size_t i = 0; i < live; ++i) {
            const Word* s = &values[i * limbs_];
            const Word extension = (s[limbs_ - 1] >> 63) != 0 ? ~Word{0} : 0;
            std::copy(s, s + limbs_, &wider[i * grown]);
            std::fill(&wider[i * grown + limbs_], &wider[(i + 1) * grown], extension);
        }
        values.swap(wider);
        limbs_ = grown;
    }
    using Dot = BigInt;
    static std::int64_t exponent() { return 0; }
    void set_one(Word* d) const {
        std::fill(d, d + limbs_, Word{0});
        d[0] = 1;
    }
    /// dot += a·b (a in this arithmetic, b in `other`, whose width may differ).
    void dot(Dot& sum, const Word* a, const BigArith& other, const Word* b) const {
        sum += value(a) * other.value(b);
    }
    void copy(Word* d, const Word* s) const { std::copy(s, s + limbs_, d); }
    /// d = w·s.
    void assign_mul(Word* d, const Word* s, edge_t entry) const {
        const std::int64_t w = weights_[static_cast<std::size_t>(entry)];
        if (w == 1) {
            copy(d, s);
            return;
        }
        std::fill(d, d + limbs_, Word{0});
        add_mul(d, s, entry);
    }
    /// d = a + w·b in one pass when w = 1 (the common 0-1 case: saves a copy of a).
    void sum_mul(Word* d, const Word* a, const Word* b, edge_t entry) const {
        if (weights_[static_cast<std::size_t>(entry)] != 1) {
            copy(d, a);
            add_mul(d, b, entry);
            return;
        }
        unsigned char carry = 0;
        for (std::size_t i = 0; i < limbs_; ++i) {
            unsigned long long sum = 0;
            carry = _addcarry_u64(carry, a[i], b[i], &sum);
            d[i] = sum;
        }
    }
    /// d += w·s.
    void add_mul(Word* d, const Word* s, edge_t entry) const {
        const std::int64_t w = weights_[static_cast<std::size_t>(entry)];
        if (w == 1) {
            unsigned char carry = 0;
            for (std::size_t i = 0; i < limbs_; ++i) {
                unsigned long long sum = 0;
                carry = _addcarry_u64(carry, d[i], s[i], &sum);
                d[i] = sum;
            }
            return;
        }
        // d ± |w|·s modulo 2^(64L): the product of the two's-complement s by a word is exact in
        // that ring.
        const Word m = w < 0 ? ~static_cast<Word>(w) + 1 : static_cast<Word>(w);
        Word mul_carry = 0;
        unsigned char carry = 0;
        for (std::size_t i = 0; i < limbs_; ++i) {
            const uint128_t p = uint128_t{s[i]} * m + mul_carry;
            const Word low = static_cast<Word>(p);
            mul_carry = static_cast<Word>(p >> 64);
            if (w > 0) {
                const uint128_t sum = uint128_t{d[i]} + low + carry;
                d[i] = static_cast<Word>(sum);
                carry = static_cast<unsigned char>(sum >> 64);
            } else {
                const uint128_t diff = uint128_t{d[i]} - low - carry;
                d[i] = static_cast<Word>(diff);
                carry = static_cast<unsigned char>((diff >> 64) != 0 ? 1 : 0);
            }
        }
    }
    /// Bits of growth per step: log2(1 + Σ|w|) over the step's entries.
    double growth_log2(const StepPlan& plan, std::size_t step) const {
        double sum = 1;
        for (edge_t k = plan.forward_offsets[step]; k < plan.forward_offsets[step + 1]; ++k) {
            sum += std::fabs(static_cast<double>(weights_[static_cast<std::size_t>(
                plan.forward_entry[static_cast<std::size_t>(k)])]));
        }
        return std::log2(sum) + 1e-9;
    }
    BigInt value(const Word* v) const {
        const bool negative = (v[limbs_ - 1] >> 63) != 0;
        std::vector<std::uint64_t> magnitude(v, v + limbs_);
        if (negative) {  // two's complement negation
            unsigned char carry = 1;
            for (auto& limb : magnitude) {
                const uint128_t sum = uint128_t{~limb} + carry;
                limb = static_cast<std::uint64_t>(sum);
                carry = static_cast<unsigned char>(sum >> 64);
            }
        }
        while (!magnitude.empty() && magnitude.back() == 0) {
            magnitude.pop_back();
        }
        return BigInt::from_limbs(negative, std::move(magnitude));
    }

private:
    /// Bits of the largest magnitude among the live values (top limbs that are pure sign
    /// extension are skipped; the rest counts in full).
    double measured_bits(const std::vector<Word>& values, std::size_t live) const {
        std::size_t top = 1;
        for (std::size_t i = 0; i < live; ++i) {
            const Word* v = &values[i * limbs_];
            const Word extension = (v[limbs_ - 1] >> 63) != 0 ? ~Word{0} : 0;
            std::size_t used = limbs_;
            while (used > top && v[used - 1] == extension) {
                --used;
            }
            top = std::max(top, used);
        }
        return 64.0 * static_cast<double>(top);
    }

    const std::vector<std::int64_t>& weights_;
    std::size_t limbs_ = 1;
    double bound_bits_ = 1;
};

/// Residues in `lanes` independent lanes, each modulo its own prime (the matchings of every
/// size: one lane per evaluation point and prime); a weight per entry and lane, in the Montgomery
/// form of the lane's prime, so that one Montgomery product gives value·weight.
class ModArith {
public:
    using Word = std::uint64_t;
    /// `primes[l]`: lane l's prime; `weights[entry · lanes + l]`: the entry's weight in lane l,
    /// Montgomery form.
    ModArith(const std::vector<std::uint64_t>& primes, const std::vector<std::uint64_t>& weights)
        : primes_(primes), weights_(weights) {
        for (const std::uint64_t p : primes_) {
            fields_.emplace_back(p);
        }
    }
    std::size_t words() const { return primes_.size(); }
    void before_step(std::vector<Word>&, std::size_t, double) const {}
    using Dot = std::vector<std::uint64_t>;
    static std::int64_t exponent() { return 0; }
    void set_one(Word* d) const { std::fill(d, d + primes_.size(), Word{1}); }
    void dot(Dot& sum, const Word* a, const ModArith&, const Word* b) const {
        sum.resize(primes_.size(), 0);
        for (std::size_t l = 0; l < primes_.size(); ++l) {
            sum[l] = numeric::add_mod(sum[l], numeric::mul_mod(a[l], b[l], primes_[l]), primes_[l]);
        }
    }
    void copy(Word* d, const Word* s) const { std::copy(s, s + primes_.size(), d); }
    void assign_mul(Word* d, const Word* s, edge_t entry) const {
        const std::uint64_t* w = &weights_[static_cast<std::size_t>(entry) * primes_.size()];
        for (std::size_t l = 0; l < primes_.size(); ++l) {
            d[l] = fields_[l].mul(s[l], w[l]);
        }
    }
    void sum_mul(Word* d, const Word* a, const Word* b, edge_t entry) const {
        const std::uint64_t* w = &weights_[static_cast<std::size_t>(entry) * primes_.size()];
        for (std::size_t l = 0; l < primes_.size(); ++l) {
            d[l] = numeric::add_mod(a[l], fields_[l].mul(b[l], w[l]), primes_[l]);
        }
    }
    void add_mul(Word* d, const Word* s, edge_t entry) const {
        const std::uint64_t* w = &weights_[static_cast<std::size_t>(entry) * primes_.size()];
        for (std::size_t l = 0; l < primes_.size(); ++l) {
            d[l] = numeric::add_mod(d[l], fields_[l].mul(s[l], w[l]), primes_[l]);
        }
    }
    static double growth_log2(const StepPlan&, std::size_t) { return 0; }

private:
    const std::vector<std::uint64_t>& primes_;
    const std::vector<std::uint64_t>& weights_;
    std::vector<numeric::Montgomery64> fields_;
};

/// Values and, in the second word, the same DP over |weights| (for the error bound); a common
/// scale 2^exponent keeps both in range.
template <class T>
class FloatArith {
public:
    using Word = T;
    explicit FloatArith(const std::vector<T>& weights) : weights_(weights) {}
    static std::size_t words() { return 2; }
    void before_step(std::vector<Word>& values, std::size_t live, double) {
        double largest = 0;
        for (std::size_t i = 0; i < live; ++i) {
            largest = std::max(largest, std::abs(values[2 * i + 1]));
        }
        if (largest == 0 || (largest < 0x1p400 && largest > 0x1p-400)) {
            return;
        }
        int e = 0;
        std::frexp(largest, &e);
        for (std::size_t i = 0; i < 2 * live; ++i) {
            values[i] = values[i] * std::ldexp(1.0, -e);
        }
        exponent_ += e;
    }
    /// Σ a·b and Σ |a|·|b| (the magnitude lanes), each a mantissa with the exponent of both
    /// scales.
    struct Dot {
        T value{};
        double magnitude = 0;
    };
    static void set_one(Word* d) { d[0] = d[1] = T(1); }
    void dot(Dot& sum, const Word* a, const FloatArith&, const Word* b) const {
        sum.value += a[0] * b[0];
        sum.magnitude += std::abs(a[1]) * std::abs(b[1]);
    }
    static void copy(Word* d, const Word* s) { d[0] = s[0], d[1] = s[1]; }
    void assign_mul(Word* d, const Word* s, edge_t entry) const {
        const T w = weights_[static_cast<std::size_t>(entry)];
        d[0] = w * s[0];
        d[1] = std::abs(w) * s[1];
    }
    void sum_mul(Word* d, const Word* a, const Word* b, edge_t entry) const {
        copy(d, a);
        add_mul(d, b, entry);
    }
    void add_mul(Word* d, const Word* s, edge_t entry) const {
        const T w = weights_[static_cast<std::size_t>(entry)];
        d[0] += w * s[0];
        d[1] += std::abs(w) * s[1];
    }
    static double growth_log2(const StepPlan&, std::size_t) { return 0; }
    std::int64_t exponent() const { return exponent_; }

private:
    const std::vector<T>& weights_;
    std::int64_t exponent_ = 0;
};

}  // namespace pmcount::exact::frontier
