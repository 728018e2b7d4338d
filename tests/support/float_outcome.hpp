// An engine's floating outcome (mantissa · 2^exponent2, error likewise) as plain numbers, for the
// engine tests.
#pragma once

#include <cmath>
#include <complex>

#include "exact/outcome.hpp"

namespace pmcount::test {

inline std::complex<double> value_of(const exact::FloatOutcome& o) {
    const int e = static_cast<int>(o.exponent2);
    return {std::ldexp(o.mantissa.real(), e), std::ldexp(o.mantissa.imag(), e)};
}

inline double error_of(const exact::FloatOutcome& o) {
    return std::ldexp(o.abs_error_mantissa, static_cast<int>(o.exponent2));
}

}  // namespace pmcount::test
