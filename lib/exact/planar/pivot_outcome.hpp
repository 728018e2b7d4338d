// The floating result of a sparse elimination (the Kasteleyn determinant, the FKT Pfaffian):
// ±constant · Π pivots in scaled form, with the error estimate both planar engines use.
#pragma once

#include <algorithm>
#include <cmath>
#include <complex>
#include <vector>

#include "exact/outcome.hpp"
#include "numeric/scaled.hpp"
#include "pmcount/types.hpp"

namespace pmcount::exact {

/// Fills out's value from an elimination result (fields singular, sign, pivots, largest_entry)
/// of an n×n matrix whose entries are at most largest_input in magnitude, times `constant`. A
/// singular result (a zero pivot in floating point) means the value is below the rounding noise:
/// 0 with error u·largest_input. Otherwise the error estimate is n·u·growth·|value|, growth the
/// largest entry met over the largest input.
template <class Result>
FloatOutcome pivot_outcome(FloatOutcome out, const Result& result, double constant, vertex_t n,
                           double largest_input) {
    constexpr double kUnitRoundoff = 0x1p-53;
    if (result.singular) {
        out.abs_error_mantissa = kUnitRoundoff * largest_input;
        return out;
    }
    numeric::Scaled value = numeric::Scaled::from(static_cast<double>(result.sign) * constant);
    for (const auto& pivot : result.pivots) {
        value = value * numeric::Scaled::from(std::complex<double>(pivot));
    }
    out.mantissa = value.mantissa;
    out.exponent2 = value.exponent;
    const double growth = largest_input > 0 ? result.largest_entry / largest_input : 1.0;
    out.abs_error_mantissa =
        static_cast<double>(n) * kUnitRoundoff * growth * std::abs(value.mantissa);
    return out;
}

}  // namespace pmcount::exact
