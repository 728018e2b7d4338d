// What the sparse eliminations (sparse_determinant.hpp, sparse_pfaffian.hpp) share: sparse rows,
// the sign of a permutation, and the arithmetic as a field policy — integers modulo a 62-bit
// prime in Montgomery form, double, or complex double (library-internal).
//
// A field policy has a Value type, kExact (no rounding, so no growth to watch), from_int (the
// modular ones), magnitude (0 exactly for the zero element; in floating point |v|, which
// threshold pivoting compares), mul, negate, sub_products(a, x, b, y, c) = a − x·b − y·c,
// inverse (of a nonzero value) and one; ModularField and FloatField also sub, for the
// determinant's elimination.
#pragma once

#include <array>
#include <cmath>
#include <complex>
#include <cstdint>
#include <vector>

#include "numeric/montgomery.hpp"
#include "pmcount/types.hpp"

namespace pmcount::numeric {

/// Sign of the permutation i ↦ perm[i] of {0, …, n−1}: +1 or −1 (cycle decomposition, O(n)).
inline int permutation_sign(const std::vector<vertex_t>& perm) {
    std::vector<char> seen(perm.size(), 0);
    int sign = 1;
    for (std::size_t i = 0; i < perm.size(); ++i) {
        std::size_t length = 0;
        for (std::size_t j = i; seen[j] == 0; j = static_cast<std::size_t>(perm[j])) {
            seen[j] = 1;
            ++length;
        }
        if (length != 0 && length % 2 == 0) {
            sign = -sign;  // a cycle of even length is an odd permutation
        }
    }
    return sign;
}

template <class V>
struct SparseEntry {
    vertex_t col;
    V value;
};

/// Rows of a square sparse matrix, each sorted by column.
template <class V>
using SparseRows = std::vector<std::vector<SparseEntry<V>>>;

/// Integers modulo an odd prime p < 2^62, values in Montgomery form.
class ModularField {
public:
    using Value = std::uint64_t;
    static constexpr bool kExact = true;
    explicit ModularField(std::uint64_t p) : m_(p), one_(m_.to_montgomery(1)) {}
    Value from_int(std::int64_t v) const {
        return m_.to_montgomery(reduce_signed(v, m_.modulus()));
    }
    static double magnitude(Value v) { return v == 0 ? 0.0 : 1.0; }
    Value mul(Value a, Value b) const { return m_.mul(a, b); }
    Value sub(Value a, Value b) const { return sub_mod(a, b, m_.modulus()); }
    Value negate(Value a) const { return a == 0 ? 0 : m_.modulus() - a; }
    /// a − x·b − y·c with one reduction for both products: x·b + y·c < 2p² < p·2^64.
    Value sub_products(Value a, Value x, Value b, Value y, Value c) const {
        return sub_mod(a, m_.redc(uint128_t{x} * b + uint128_t{y} * c), m_.modulus());
    }
    /// a⁻¹ in Montgomery form: a^(p−2) by square-and-multiply in Montgomery arithmetic.
    Value inverse(Value a) const {
        Value result = one_, base = a;
        for (std::uint64_t e = m_.modulus() - 2; e != 0; e >>= 1) {
            if ((e & 1) != 0) {
                result = m_.mul(result, base);
            }
            base = m_.mul(base, base);
        }
        return result;
    }
    Value one() const { return one_; }
    /// The plain residue of a Montgomery-form value.
    std::uint64_t residue(Value a) const { return m_.redc(a); }

private:
    Montgomery64 m_;
    Value one_;
};

/// double or std::complex<double>.
template <class T>
class FloatField {
public:
    using Value = T;
    static constexpr bool kExact = false;
    static double magnitude(Value v) { return std::abs(v); }
    static Value mul(Value a, Value b) { return a * b; }
    static Value sub(Value a, Value b) { return a - b; }
    static Value negate(Value a) { return -a; }
    static Value sub_products(Value a, Value x, Value b, Value y, Value c) {
        return a - x * b - y * c;
    }
    static Value inverse(Value a) { return Value(1) / a; }
    static Value one() { return Value(1); }
};

/// L primes at once ("lanes"), a value holding one residue per prime (Montgomery form): one
/// sweep over a sparse structure serves L primes, so the cost of reaching each entry — scattered
/// memory accesses, index arithmetic — is shared by L products. A value counts as zero when it
/// is zero modulo any of the primes, so a pivot is one usable in every lane.
template <std::size_t L>
class ModularLanes {
public:
    using Value = std::array<std::uint64_t, L>;
    static constexpr bool kExact = true;
    explicit ModularLanes(const std::array<std::uint64_t, L>& primes) {
        lanes_.reserve(L);
        for (const std::uint64_t p : primes) {
            lanes_.emplace_back(p);
        }
    }
    Value from_int(std::int64_t v) const {
        return apply([&](const ModularField& f, std::size_t) { return f.from_int(v); });
    }
    static double magnitude(const Value& v) {
        for (const std::uint64_t x : v) {
            if (x == 0) {
                return 0.0;
            }
        }
        return 1.0;
    }
    Value mul(const Value& a, const Value& b) const {
        return apply([&](const ModularField& f, std::size_t l) { return f.mul(a[l], b[l]); });
    }
    Value negate(const Value& a) const {
        return apply([&](const ModularField& f, std::size_t l) { return f.negate(a[l]); });
    }
    Value sub_products(const Value& a, const Value& x, const Value& b, const Value& y,
                       const Value& c) const {
        return apply([&](const ModularField& f, std::size_t l) {
            return f.sub_products(a[l], x[l], b[l], y[l], c[l]);
        });
    }
    Value inverse(const Value& a) const {
        return apply([&](const ModularField& f, std::size_t l) { return f.inverse(a[l]); });
    }
    Value one() const {
        return apply([](const ModularField& f, std::size_t) { return f.one(); });
    }
    /// The plain residue of lane l.
    std::uint64_t residue(const Value& a, std::size_t l) const { return lanes_[l].residue(a[l]); }

private:
    template <class Op>
    Value apply(Op op) const {
        Value out;
        for (std::size_t l = 0; l < L; ++l) {
            out[l] = op(lanes_[l], l);
        }
        return out;
    }
    std::vector<ModularField> lanes_;
};

}  // namespace pmcount::numeric
