// Integers modulo several primes at once, one prime per 64-bit vector lane, for the exact hafnian
// recursion: a coefficient is a vector of residues, a multiply-add one vector multiply of their
// low 32 bits and one vector add, and a reduction (once per output coefficient) a handful of
// vector operations shared by all lanes.
//
// Primes lie in (2^26, 2^27). Residues are kept in Montgomery form x·R mod p with R = 2^32, below
// p. A product of two residues is below 2^54; a coefficient sums at most 2(m − 1) products plus
// the previous value times R (below 2^59): for m ≤ 64 the sum stays below 2^62 in a 64-bit lane,
// with no reduction until it is complete. reduce() then folds the high half in (x ≡ x_hi·(2^32
// mod p) + x_lo, below 2^57 + 2^32 < p·2^32) and applies Montgomery's REDC (Montgomery, Math.
// Comp. 44, 1985), giving (x·R⁻¹ mod p) in [0, p): the Montgomery form of the sum of the products
// of the plain values, so the form is kept through every level.
//
// The lanes are AVX-512 (8 primes), AVX2 (4 primes) or plain arrays (4 primes), chosen at
// compile time; every variant computes the same residues.
#pragma once

#include <cstdint>
#include <vector>

#if defined(__AVX512F__) || defined(__AVX2__)
// GCC 12's AVX-512 intrinsics start from an "undefined" vector that -Wmaybe-uninitialized flags
// (GCC bug 105593); the warning is about the header, not about this code.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <immintrin.h>
#pragma GCC diagnostic pop
#endif

#include "numeric/montgomery.hpp"

namespace pmcount::exact::hafnian {

/// The range of the lanes' primes: 2^26 < p < 2^27 (see the file comment).
inline constexpr int kLanePrimeBits = 27;
inline constexpr double kLanePrimeLog2 = 26.99;

#if defined(__AVX512F__)
inline constexpr int kPrimeLanes = 8;
struct Lanes {
    __m512i v;
};
inline Lanes lanes_add(Lanes a, Lanes b) {
    return {_mm512_add_epi64(a.v, b.v)};
}
inline Lanes lanes_sub(Lanes a, Lanes b) {
    return {_mm512_sub_epi64(a.v, b.v)};
}
/// Products of the low 32 bits of each lane.
inline Lanes lanes_mul32(Lanes a, Lanes b) {
    return {_mm512_mul_epu32(a.v, b.v)};
}
inline Lanes lanes_shift_right32(Lanes a) {
    return {_mm512_srli_epi64(a.v, 32)};
}
inline Lanes lanes_shift_left32(Lanes a) {
    return {_mm512_slli_epi64(a.v, 32)};
}
inline Lanes lanes_low32(Lanes a) {
    return {_mm512_and_si512(a.v, _mm512_set1_epi64(0xffffffff))};
}
/// a − p where a ≥ p, else a (a < 2p).
inline Lanes lanes_reduce_once(Lanes a, Lanes p) {
    return {_mm512_min_epu64(a.v, _mm512_sub_epi64(a.v, p.v))};
}
inline Lanes lanes_load(const std::uint64_t* x) {
    return {_mm512_loadu_si512(x)};
}
inline void lanes_store(std::uint64_t* x, Lanes a) {
    _mm512_storeu_si512(x, a.v);
}
inline Lanes lanes_zero() {
    return {_mm512_setzero_si512()};
}
#elif defined(__AVX2__)
inline constexpr int kPrimeLanes = 4;
struct Lanes {
    __m256i v;
};
inline Lanes lanes_add(Lanes a, Lanes b) {
    return {_mm256_add_epi64(a.v, b.v)};
}
inline Lanes lanes_sub(Lanes a, Lanes b) {
    return {_mm256_sub_epi64(a.v, b.v)};
}
inline Lanes lanes_mul32(Lanes a, Lanes b) {
    return {_mm256_mul_epu32(a.v, b.v)};
}
inline Lanes lanes_shift_right32(Lanes a) {
    return {_mm256_srli_epi64(a.v, 32)};
}
inline Lanes lanes_shift_left32(Lanes a) {
    return {_mm256_slli_epi64(a.v, 32)};
}
inline Lanes lanes_low32(Lanes a) {
    return {_mm256_and_si256(a.v, _mm256_set1_epi64x(0xffffffff))};
}
inline Lanes lanes_reduce_once(Lanes a, Lanes p) {
    // Values are below 2^63, so the signed comparison is the unsigned one.
    const __m256i below = _mm256_cmpgt_epi64(p.v, a.v);
    return {_mm256_sub_epi64(a.v, _mm256_andnot_si256(below, p.v))};
}
inline Lanes lanes_load(const std::uint64_t* x) {
    return {_mm256_loadu_si256(reinterpret_cast<const __m256i*>(x))};
}
inline void lanes_store(std::uint64_t* x, Lanes a) {
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(x), a.v);
}
inline Lanes lanes_zero() {
    return {_mm256_setzero_si256()};
}
#else
inline constexpr int kPrimeLanes = 4;
struct Lanes {
    std::uint64_t v[kPrimeLanes];
};
template <class F>
inline Lanes lanes_map(Lanes a, Lanes b, F f) {
    Lanes out;
    for (int l = 0; l < kPrimeLanes; ++l) {
        out.v[l] = f(a.v[l], b.v[l]);
    }
    return out;
}
inline Lanes lanes_add(Lanes a, Lanes b) {
    return lanes_map(a, b, [](std::uint64_t x, std::uint64_t y) { return x + y; });
}
inline Lanes lanes_sub(Lanes a, Lanes b) {
    return lanes_map(a, b, [](std::uint64_t x, std::uint64_t y) { return x - y; });
}
inline Lanes lanes_mul32(Lanes a, Lanes b) {
    return lanes_map(a, b, [](std::uint64_t x, std::uint64_t y) {
        return (x & 0xffffffffU) * (y & 0xffffffffU);
    });
}
inline Lanes lanes_shift_right32(Lanes a) {
    return lanes_map(a, a, [](std::uint64_t x, std::uint64_t) { return x >> 32; });
}
inline Lanes lanes_shift_left32(Lanes a) {
    return lanes_map(a, a, [](std::uint64_t x, std::uint64_t) { return x << 32; });
}
inline Lanes lanes_low32(Lanes a) {
    return lanes_map(a, a, [](std::uint64_t x, std::uint64_t) { return x & 0xffffffffU; });
}
inline Lanes lanes_reduce_once(Lanes a, Lanes p) {
    return lanes_map(a, p, [](std::uint64_t x, std::uint64_t q) { return x >= q ? x - q : x; });
}
inline Lanes lanes_load(const std::uint64_t* x) {
    Lanes out;
    for (int l = 0; l < kPrimeLanes; ++l) {
        out.v[l] = x[l];
    }
    return out;
}
inline void lanes_store(std::uint64_t* x, Lanes a) {
    for (int l = 0; l < kPrimeLanes; ++l) {
        x[l] = a.v[l];
    }
}
inline Lanes lanes_zero() {
    return Lanes{};
}
#endif

/// The arithmetic of recursion.hpp modulo kPrimeLanes primes at once (see the file comment).
class PrimeLanes {
public:
    using Elem = Lanes;  ///< residues in Montgomery form, each below its prime
    using Wide = Lanes;  ///< unreduced sums of products, below 2^62
    struct Leaves {
        Lanes sum = lanes_zero();  ///< Σ ± leaf values, Montgomery form, reduced
    };

    /// `primes`: kPrimeLanes primes in (2^26, 2^27) (repeat one to fill unused lanes).
    explicit PrimeLanes(const std::vector<std::uint64_t>& primes) {
        std::uint64_t p[kPrimeLanes], inverse[kPrimeLanes], fold[kPrimeLanes];
        for (int l = 0; l < kPrimeLanes; ++l) {
            p[l] = primes[static_cast<std::size_t>(l)];
            // −p⁻¹ mod 2^32 by Newton's iteration (5 steps double the 3 correct bits past 32).
            std::uint32_t x = static_cast<std::uint32_t>(p[l]);
            for (int i = 0; i < 5; ++i) {
                x *= 2 - static_cast<std::uint32_t>(p[l]) * x;
            }
            inverse[l] = static_cast<std::uint32_t>(~x + 1);
            fold[l] = (std::uint64_t{1} << 32) % p[l];
        }
        p_ = lanes_load(p);
        negative_inverse_ = lanes_load(inverse);
        fold_ = lanes_load(fold);
    }

    /// The residues of v (reduced per lane) in Montgomery form.
    Elem from_integer(std::int64_t v, const std::vector<std::uint64_t>& primes) const {
        std::uint64_t r[kPrimeLanes];
        for (int l = 0; l < kPrimeLanes; ++l) {
            const std::uint64_t q = primes[static_cast<std::size_t>(l)];
            r[l] = numeric::mul_mod(numeric::reduce_signed(v, q), (std::uint64_t{1} << 32) % q, q);
        }
        return lanes_load(r);
    }
    static Elem zero() { return lanes_zero(); }

    static Wide wide(Elem x) { return lanes_shift_left32(x); }
    static void mac(Wide& acc, Elem a, Elem b) { acc = lanes_add(acc, lanes_mul32(a, b)); }
    Elem narrow(Wide x) const {
        const Lanes folded = lanes_add(lanes_low32(x), lanes_mul32(lanes_shift_right32(x), fold_));
        const Lanes q = lanes_mul32(folded, negative_inverse_);  // only its low 32 bits matter
        const Lanes t = lanes_shift_right32(lanes_add(folded, lanes_mul32(q, p_)));
        return lanes_reduce_once(t, p_);
    }
    void leaf(Leaves& leaves, const Wide& dot, int sign) const {
        const Lanes v = narrow(dot);
        leaves.sum = sign > 0 ? lanes_reduce_once(lanes_add(leaves.sum, v), p_)
                              : lanes_reduce_once(lanes_add(leaves.sum, lanes_sub(p_, v)), p_);
    }
    void merge(Leaves& into, const Leaves& from) const {
        into.sum = lanes_reduce_once(lanes_add(into.sum, from.sum), p_);
    }
    /// The plain residues (Montgomery form removed) of a Leaves sum.
    std::vector<std::uint64_t> residues(const Leaves& leaves) const {
        std::uint64_t out[kPrimeLanes];
        lanes_store(out, narrow(leaves.sum));  // x·R⁻¹: REDC of a value below p
        return {out, out + kPrimeLanes};
    }

private:
    Lanes p_;
    Lanes negative_inverse_;
    Lanes fold_;
};

}  // namespace pmcount::exact::hafnian
