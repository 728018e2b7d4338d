// A floating result, value ± error as mantissa · 2^exponent, written into CountResult's fields
// (value, its mantissa and exponent, log10 |value|, sign, abs_error and rel_error): what every
// floating count reports, whatever range its value has.
#pragma once

#include <cmath>
#include <limits>

#include "numeric/scaled.hpp"
#include "pmcount/options.hpp"
#include "pmcount/result.hpp"

namespace pmcount::plan {

inline void set_floating_result(CountResult& result, const numeric::Scaled& value,
                                const numeric::Scaled& error) {
    result.is_exact = false;
    result.mantissa = value.mantissa;
    result.exponent2 = value.exponent;
    result.complex_value = value.value();
    result.value = result.complex_value.real();
    const double log2_abs = value.log2_abs();
    result.log10_abs = log2_abs * std::log10(2.0);
    result.sign = value.mantissa.real() > 0 ? 1 : (value.mantissa.real() < 0 ? -1 : 0);
    result.abs_error = error.value().real();
    if (result.abs_error == 0 && !error.is_zero()) {
        result.abs_error = std::numeric_limits<double>::denorm_min();  // still a bound
    }
    result.rel_error = value.is_zero()
                           ? (error.is_zero() ? 0.0 : std::numeric_limits<double>::infinity())
                           : std::exp2(error.log2_abs() - log2_abs);
}

}  // namespace pmcount::plan
