// A complex (or real) number as mantissa · 2^exponent, so that products of many block
// permanents and counts like 10^1266 stay finite. The mantissa's larger component is kept in
// [1/2, 1) (or the value is zero).
#pragma once

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>

namespace pmcount::numeric {

struct Scaled {
    std::complex<double> mantissa{0.0, 0.0};
    std::int64_t exponent = 0;

    static Scaled from(std::complex<double> v, std::int64_t exponent2 = 0) {
        Scaled s{v, exponent2};
        s.normalise();
        return s;
    }
    bool is_zero() const noexcept { return mantissa == std::complex<double>(0.0, 0.0); }

    void normalise() {
        const double big = std::max(std::fabs(mantissa.real()), std::fabs(mantissa.imag()));
        if (big == 0) {
            exponent = 0;
            return;
        }
        int e = 0;
        std::frexp(big, &e);
        mantissa = {std::ldexp(mantissa.real(), -e), std::ldexp(mantissa.imag(), -e)};
        exponent += e;
    }
    /// log2 |value| (−∞ for zero).
    double log2_abs() const {
        return is_zero() ? -std::numeric_limits<double>::infinity()
                         : std::log2(std::abs(mantissa)) + static_cast<double>(exponent);
    }
    /// |value| as a Scaled real.
    Scaled magnitude() const { return from(std::abs(mantissa), exponent); }
    /// The value in double precision (±inf / 0 when out of range).
    std::complex<double> value() const {
        const int e = static_cast<int>(std::clamp<std::int64_t>(exponent, -100000, 100000));
        return {std::ldexp(mantissa.real(), e), std::ldexp(mantissa.imag(), e)};
    }
};

inline Scaled operator*(const Scaled& a, const Scaled& b) {
    return Scaled::from(a.mantissa * b.mantissa, a.exponent + b.exponent);
}

inline Scaled operator+(const Scaled& a, const Scaled& b) {
    if (a.is_zero()) {
        return b;
    }
    if (b.is_zero()) {
        return a;
    }
    const std::int64_t e = std::max(a.exponent, b.exponent);
    auto shifted = [e](const Scaled& s) {
        const int d = static_cast<int>(std::max<std::int64_t>(s.exponent - e, -2000));
        return std::complex<double>(std::ldexp(s.mantissa.real(), d), std::ldexp(s.mantissa.imag(), d));
    };
    return Scaled::from(shifted(a) + shifted(b), e);
}

}  // namespace pmcount::numeric
