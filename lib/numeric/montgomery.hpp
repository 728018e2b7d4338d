// Montgomery arithmetic modulo an odd prime p < 2^62 with R = 2^64.
//
// redc(t) returns t·R⁻¹ mod p for any t < p·R, in [0, p). The exact engine feeds it products of
// an unreduced factor below 2^64 and a residue below p, so no operand needs reducing first
// (Montgomery, "Modular multiplication without trial division", Math. Comp. 44, 1985).
// Cost of mul(): two 64×64→128 multiplications, one 64×64→64 multiplication, one compare.
#pragma once

#include <cstdint>

#include "numeric/int128.hpp"

namespace pmcount::numeric {

class Montgomery64 {
public:
    explicit Montgomery64(std::uint64_t p) noexcept : p_(p) {
        // Newton iteration for p⁻¹ mod 2^64: each step doubles the number of correct bits.
        std::uint64_t inv = p;  // correct to 3 bits for odd p
        for (int i = 0; i < 5; ++i) {
            inv *= 2 - p * inv;
        }
        neg_p_inv_ = ~inv + 1;
        const std::uint64_t r_mod_p = static_cast<std::uint64_t>((uint128_t{1} << 64) % p);
        r2_ = static_cast<std::uint64_t>(uint128_t{r_mod_p} * r_mod_p % p);
    }

    std::uint64_t modulus() const noexcept { return p_; }
    /// −p⁻¹ mod 2^64; its low 32 bits are −p⁻¹ mod 2^32 (the GPU kernels' 32-bit Montgomery).
    std::uint64_t negative_inverse() const noexcept { return neg_p_inv_; }

    /// t·R⁻¹ mod p, for t < p·R.
    std::uint64_t redc(uint128_t t) const noexcept {
        const std::uint64_t m = static_cast<std::uint64_t>(t) * neg_p_inv_;
        // t + m·p < 2·p·R < 2^128 because p < 2^62; the low 64 bits of the sum are zero.
        const std::uint64_t u = static_cast<std::uint64_t>((t + uint128_t{m} * p_) >> 64);
        return u >= p_ ? u - p_ : u;
    }
    /// a·b·R⁻¹ mod p, for a·b < p·R (e.g. a < p and b < 2^64).
    std::uint64_t mul(std::uint64_t a, std::uint64_t b) const noexcept {
        return redc(uint128_t{a} * b);
    }
    /// a·R mod p (Montgomery form) for any a.
    std::uint64_t to_montgomery(std::uint64_t a) const noexcept { return mul(a % p_, r2_); }
    /// R^k mod p in plain form (k ≥ 0).
    std::uint64_t r_power(unsigned k) const noexcept {
        std::uint64_t result = 1 % p_;
        const std::uint64_t r_mod_p = redc(r2_);  // R·R⁻¹·R = R mod p
        for (unsigned i = 0; i < k; ++i) {
            result = static_cast<std::uint64_t>(uint128_t{result} * r_mod_p % p_);
        }
        return result;
    }

private:
    std::uint64_t p_;
    std::uint64_t neg_p_inv_;  // −p⁻¹ mod 2^64
    std::uint64_t r2_;         // R² mod p
};

/// Plain modular helpers (not on hot paths).
inline std::uint64_t mul_mod(std::uint64_t a, std::uint64_t b, std::uint64_t p) noexcept {
    return static_cast<std::uint64_t>(uint128_t{a} * b % p);
}
inline std::uint64_t add_mod(std::uint64_t a, std::uint64_t b, std::uint64_t p) noexcept {
    const std::uint64_t s = a + b;  // a, b < p < 2^63: no overflow
    return s >= p ? s - p : s;
}
inline std::uint64_t sub_mod(std::uint64_t a, std::uint64_t b, std::uint64_t p) noexcept {
    return a >= b ? a - b : a + (p - b);
}
inline std::uint64_t pow_mod(std::uint64_t base, std::uint64_t exponent, std::uint64_t p) noexcept {
    std::uint64_t result = 1 % p;
    base %= p;
    for (; exponent != 0; exponent >>= 1) {
        if ((exponent & 1) != 0) {
            result = mul_mod(result, base, p);
        }
        base = mul_mod(base, base, p);
    }
    return result;
}
/// a⁻¹ mod p for prime p and a ≢ 0 (Fermat).
inline std::uint64_t inverse_mod(std::uint64_t a, std::uint64_t p) noexcept {
    return pow_mod(a, p - 2, p);
}
/// a mod p for a signed a.
inline std::uint64_t reduce_signed(std::int64_t a, std::uint64_t p) noexcept {
    const std::uint64_t magnitude =
        a < 0 ? ~static_cast<std::uint64_t>(a) + 1 : static_cast<std::uint64_t>(a);
    const std::uint64_t r = magnitude % p;
    return (a < 0 && r != 0) ? p - r : r;
}

}  // namespace pmcount::numeric
