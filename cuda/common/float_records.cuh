// The double-double sums in which the host forms a unit's floating record from its segments and
// combines the units' records (in unit order, so that the result does not depend on which GPU
// finished first): for the Ryser walks (cuda/ryser_range.cu) and the hafnian (cuda/hafnian_gpu.cu).
#pragma once

#include <cstddef>
#include <cstring>

#include "numeric/compensated.hpp"
#include "numeric/double_double.hpp"

namespace pmcount::backend::cuda {

using numeric::DoubleDouble;

/// a + b in double-double with one two-sum (QD's "sloppy" add: the high parts' error and both low
/// parts added, renormalised). Not numeric's operator+ (which also two-sums the low parts): the
/// merged records have always been formed this way, and a different add changes their last bits.
inline DoubleDouble record_add(DoubleDouble a, DoubleDouble b) noexcept {
    double s, e;
    numeric::two_sum(a.hi, b.hi, s, e);
    e += a.lo + b.lo;
    return numeric::quick_two_sum(s, e);
}

/// Words of a floating unit record: re hi/lo, im hi/lo, Σ|term| (kFloatWords), and for the
/// Ryser walks Σ|term|² after them (kFloatWordsWithSquares, for walk_error's figure).
constexpr std::size_t kFloatWords = 5;
constexpr std::size_t kFloatWordsWithSquares = 6;

/// The floating record of a unit (`words` doubles, as above) from its `count` segment records of
/// `stride` doubles each (the same words first), added in order.
inline void float_unit_record(const double* segments, std::size_t count, std::size_t stride,
                              unsigned char* record, std::size_t words = kFloatWords) {
    DoubleDouble re, im;
    double magnitude = 0, squares = 0;
    for (std::size_t g = 0; g < count; ++g) {
        const double* r = segments + g * stride;
        re = record_add(re, {r[0], r[1]});
        im = record_add(im, {r[2], r[3]});
        magnitude += r[4];
        if (words == kFloatWordsWithSquares) {
            squares += r[5];
        }
    }
    const double sums[kFloatWordsWithSquares] = {re.hi, re.lo, im.hi, im.lo, magnitude, squares};
    std::memcpy(record, sums, words * sizeof(double));
}

/// Σ of floating unit records (float_unit_record's layout, `units` of them of `words` doubles),
/// in unit order, into a result's re_hi, re_lo, im_hi, im_lo and magnitude (GpuRyserResult,
/// GpuHafnianResult); Σ|term|² into `squares` when the records carry it.
template <class Result>
void merge_float_records(const unsigned char* records, std::size_t units, Result& result,
                         std::size_t words = kFloatWords, double* squares = nullptr) {
    DoubleDouble re, im;
    double magnitude = 0, square_sum = 0;
    for (std::size_t u = 0; u < units; ++u) {
        double sums[kFloatWordsWithSquares] = {};
        std::memcpy(sums, records + u * words * sizeof(double), words * sizeof(double));
        re = record_add(re, {sums[0], sums[1]});
        im = record_add(im, {sums[2], sums[3]});
        magnitude += sums[4];
        square_sum += sums[5];
    }
    result.re_hi = re.hi;
    result.re_lo = re.lo;
    result.im_hi = im.hi;
    result.im_lo = im.lo;
    result.magnitude = magnitude;
    if (squares != nullptr) {
        *squares = square_sum;
    }
}

}  // namespace pmcount::backend::cuda
