// Arbitrary-precision signed integer for exact counts. A thin value type so that public headers do
// not expose Boost.Multiprecision; the arithmetic lives in the library.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace pmcount {

class BigInt {
public:
    BigInt() = default;
    BigInt(std::int64_t value);  // NOLINT(google-explicit-constructor): an integer is a BigInt
    /// Parses an optionally signed decimal integer; throws InvalidArgument on anything else.
    static BigInt from_string(std::string_view decimal);
    /// From sign and magnitude, little-endian 64-bit limbs.
    static BigInt from_limbs(bool negative, std::vector<std::uint64_t> magnitude);

    std::string to_string() const;
    bool is_zero() const noexcept { return magnitude_.empty(); }
    bool is_negative() const noexcept { return negative_; }
    int sign() const noexcept { return is_zero() ? 0 : (negative_ ? -1 : 1); }
    /// Nearest double (±inf when out of range).
    double to_double() const;
    /// log10 |value|; -inf for zero.
    double log10_abs() const;
    bool fits_int64() const noexcept;
    /// The value as int64; throws Overflow when it does not fit.
    std::int64_t to_int64() const;
    /// Little-endian 64-bit limbs of |value|, without leading zero limbs.
    const std::vector<std::uint64_t>& magnitude() const noexcept { return magnitude_; }

    friend BigInt operator+(const BigInt& a, const BigInt& b);
    friend BigInt operator-(const BigInt& a, const BigInt& b);
    friend BigInt operator*(const BigInt& a, const BigInt& b);
    BigInt operator-() const;
    BigInt& operator+=(const BigInt& b) { return *this = *this + b; }
    BigInt& operator-=(const BigInt& b) { return *this = *this - b; }
    BigInt& operator*=(const BigInt& b) { return *this = *this * b; }

    friend bool operator==(const BigInt& a, const BigInt& b) noexcept {
        return a.negative_ == b.negative_ && a.magnitude_ == b.magnitude_;
    }
    friend bool operator!=(const BigInt& a, const BigInt& b) noexcept { return !(a == b); }
    friend bool operator<(const BigInt& a, const BigInt& b) noexcept;

private:
    bool negative_ = false;                 // never true for zero
    std::vector<std::uint64_t> magnitude_;  // little-endian limbs, no leading zeros
};

}  // namespace pmcount
