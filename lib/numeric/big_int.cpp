#include "pmcount/big_int.hpp"

#include <cmath>
#include <iterator>
#include <limits>

#include "numeric/cpp_int_bridge.hpp"
#include "pmcount/error.hpp"

namespace pmcount {

namespace numeric {

cpp_int to_cpp_int(const BigInt& value) {
    cpp_int result;
    const auto& limbs = value.magnitude();
    if (!limbs.empty()) {
        boost::multiprecision::import_bits(result, limbs.rbegin(), limbs.rend(), 64, true);
    }
    return value.is_negative() ? cpp_int(-result) : result;
}

BigInt from_cpp_int(const cpp_int& value) {
    std::vector<std::uint64_t> limbs;
    if (value != 0) {
        const cpp_int magnitude = abs(value);
        // export_bits writes most significant first.
        boost::multiprecision::export_bits(magnitude, std::back_inserter(limbs), 64, true);
        std::reverse(limbs.begin(), limbs.end());
    }
    return BigInt::from_limbs(value < 0, std::move(limbs));
}

}  // namespace numeric

using numeric::from_cpp_int;
using numeric::to_cpp_int;

BigInt::BigInt(std::int64_t value) : negative_(value < 0) {
    const std::uint64_t magnitude =
        value < 0 ? ~static_cast<std::uint64_t>(value) + 1 : static_cast<std::uint64_t>(value);
    if (magnitude != 0) {
        magnitude_.push_back(magnitude);
    }
}

BigInt BigInt::from_limbs(bool negative, std::vector<std::uint64_t> magnitude) {
    while (!magnitude.empty() && magnitude.back() == 0) {
        magnitude.pop_back();
    }
    BigInt result;
    result.negative_ = negative && !magnitude.empty();
    result.magnitude_ = std::move(magnitude);
    return result;
}

BigInt BigInt::from_string(std::string_view decimal) {
    std::string_view digits = decimal;
    bool negative = false;
    if (!digits.empty() && (digits.front() == '-' || digits.front() == '+')) {
        negative = digits.front() == '-';
        digits.remove_prefix(1);
    }
    if (digits.empty()) {
        throw InvalidArgument("not a decimal integer: '" + std::string(decimal) + "'");
    }
    numeric::cpp_int value = 0;
    for (const char c : digits) {
        if (c < '0' || c > '9') {
            throw InvalidArgument("not a decimal integer: '" + std::string(decimal) + "'");
        }
        value = value * 10 + (c - '0');
    }
    return from_cpp_int(negative ? numeric::cpp_int(-value) : value);
}

std::string BigInt::to_string() const { return to_cpp_int(*this).str(); }

double BigInt::to_double() const {
    double result = 0;
    for (auto it = magnitude_.rbegin(); it != magnitude_.rend(); ++it) {
        result = result * 18446744073709551616.0 + static_cast<double>(*it);
    }
    return negative_ ? -result : result;
}

double BigInt::log10_abs() const {
    if (is_zero()) {
        return -std::numeric_limits<double>::infinity();
    }
    // Use the top two limbs for the mantissa and count the rest as powers of 2^64.
    const std::size_t k = magnitude_.size();
    double top = static_cast<double>(magnitude_[k - 1]);
    std::size_t skipped = k - 1;
    if (k >= 2) {
        top = top * 18446744073709551616.0 + static_cast<double>(magnitude_[k - 2]);
        skipped = k - 2;
    }
    return std::log10(top) + static_cast<double>(skipped) * 64.0 * std::log10(2.0);
}

bool BigInt::fits_int64() const noexcept {
    if (magnitude_.size() > 1) {
        return false;
    }
    if (magnitude_.empty()) {
        return true;
    }
    const std::uint64_t limit = std::uint64_t{1} << 63;
    return negative_ ? magnitude_[0] <= limit : magnitude_[0] < limit;
}

std::int64_t BigInt::to_int64() const {
    if (!fits_int64()) {
        throw Overflow("integer " + to_string() + " does not fit in 64 bits");
    }
    if (magnitude_.empty()) {
        return 0;
    }
    const std::uint64_t m = magnitude_[0];
    return negative_ ? static_cast<std::int64_t>(~m + 1) : static_cast<std::int64_t>(m);
}

BigInt operator+(const BigInt& a, const BigInt& b) {
    return from_cpp_int(to_cpp_int(a) + to_cpp_int(b));
}
BigInt operator-(const BigInt& a, const BigInt& b) {
    return from_cpp_int(to_cpp_int(a) - to_cpp_int(b));
}
BigInt operator*(const BigInt& a, const BigInt& b) {
    return from_cpp_int(to_cpp_int(a) * to_cpp_int(b));
}
BigInt BigInt::operator-() const {
    BigInt result = *this;
    result.negative_ = !negative_ && !magnitude_.empty();
    return result;
}
bool operator<(const BigInt& a, const BigInt& b) noexcept {
    if (a.negative_ != b.negative_) {
        return a.negative_;
    }
    // Same sign: compare magnitudes, reversing for negatives.
    bool magnitude_less;
    if (a.magnitude_.size() != b.magnitude_.size()) {
        magnitude_less = a.magnitude_.size() < b.magnitude_.size();
    } else {
        magnitude_less = std::lexicographical_compare(a.magnitude_.rbegin(), a.magnitude_.rend(),
                                                      b.magnitude_.rbegin(), b.magnitude_.rend());
    }
    const bool equal = a.magnitude_ == b.magnitude_;
    return a.negative_ ? (!magnitude_less && !equal) : magnitude_less;
}

}  // namespace pmcount
