// CountResult::value_string: the count as decimal text, exact integers in full and floating
// values with 17 significant digits, also beyond double's range (mantissa · 2^exponent2).
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>

#include "pmcount/result.hpp"

namespace pmcount {

std::string CountResult::value_string() const {
    if (is_exact) {
        return exact.to_string();
    }
    auto format = [](double v) {
        char buffer[64];
        std::snprintf(buffer, sizeof buffer, "%.17g", v);
        return std::string(buffer);
    };
    // mantissa · 2^exponent2 in decimal, 17 significant digits rounded exactly: the value is an
    // integer N times 2^E, written as N·2^E or N·5^−E·10^E with big-integer arithmetic.
    auto scientific = [](double m, std::int64_t e2) {
        if (m == 0) {
            return std::string("0");
        }
        auto power = [](std::int64_t base, std::int64_t k) {
            BigInt result = 1, square = base;
            for (; k > 0; k /= 2) {
                if (k % 2 == 1) {
                    result *= square;
                }
                if (k > 1) {
                    square *= square;
                }
            }
            return result;
        };
        int m_exponent = 0;
        const double fraction = std::frexp(std::fabs(m), &m_exponent);
        const std::int64_t e = e2 + m_exponent - 53;
        const BigInt n = BigInt(static_cast<std::int64_t>(std::ldexp(fraction, 53))) *
                         (e >= 0 ? power(2, e) : power(5, -e));
        std::string digits = n.to_string();
        std::int64_t exponent =
            static_cast<std::int64_t>(digits.size()) - 1 + std::min<std::int64_t>(e, 0);
        if (digits.size() > 17) {
            const bool up = digits[17] >= '5';
            digits.resize(17);
            for (std::size_t i = digits.size(); up && i-- > 0;) {
                if (digits[i] != '9') {
                    ++digits[i];
                    break;
                }
                digits[i] = '0';
                if (i == 0) {
                    digits.insert(digits.begin(), '1');
                    digits.pop_back();
                    ++exponent;
                }
            }
        }
        while (digits.size() > 1 && digits.back() == '0') {
            digits.pop_back();
        }
        std::string text = m < 0 ? "-" : "";
        text += digits.substr(0, 1);
        if (digits.size() > 1) {
            text += "." + digits.substr(1);
        }
        return text + (exponent < 0 ? "e-" : "e+") + std::to_string(std::llabs(exponent));
    };
    auto in_range = [](double v, double m) {
        return std::isfinite(v) && (m == 0 || std::fabs(v) >= std::numeric_limits<double>::min());
    };
    const int e2 = static_cast<int>(std::clamp<std::int64_t>(exponent2, -5000, 5000));
    const std::complex<double> v{std::ldexp(mantissa.real(), e2), std::ldexp(mantissa.imag(), e2)};
    const bool normal = in_range(v.real(), mantissa.real()) && in_range(v.imag(), mantissa.imag());
    auto part = [&](double in_double, double m) {
        return normal ? format(in_double) : scientific(m, exponent2);
    };
    if (kind != ValueKind::complex) {
        return part(v.real(), mantissa.real());
    }
    const double im = mantissa.imag();
    return part(v.real(), mantissa.real()) + (std::signbit(im) ? "-" : "+") +
           part(std::fabs(v.imag()), std::fabs(im)) + "i";
}

}  // namespace pmcount
