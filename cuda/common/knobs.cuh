// Measurement knobs: environment variables that replace a launch policy's choice, so other
// values can be timed without a rebuild (PMCOUNT_GPU_SHAPE, PMCOUNT_GPU_BATCH_DIVISOR,
// PMCOUNT_GPU_SPARSE_UNROLL, PMCOUNT_HAFNIAN_BLOCK). Unset or empty: the policy's value; a
// malformed value is a DeviceError naming the variable and what it expects, never ignored.
#pragma once

#include <array>
#include <cerrno>
#include <cstddef>
#include <cstdlib>
#include <optional>
#include <string>

#include "pmcount/error.hpp"

namespace pmcount::backend::cuda {

/// The text of knob `name`, or null when it is unset or empty.
inline const char* knob_text(const char* name) {
    const char* text = std::getenv(name);
    return text == nullptr || *text == '\0' ? nullptr : text;
}

/// DeviceError `name="text": expected <expected>`.
[[noreturn]] inline void refuse_knob(const char* name, const char* text,
                                     const std::string& expected) {
    throw DeviceError(std::string(name) + "=\"" + text + "\": expected " + expected);
}

/// An inclusive range of a knob's integer.
struct KnobRange {
    int lo;
    int hi;
};

/// The N comma-separated integers of knob `name`, each within its range, or nullopt when the
/// knob is unset; anything else (a missing or extra field, a trailing character, a value out of
/// range) is refused with `expected`.
template <std::size_t N>
std::optional<std::array<int, N>> knob_ints(const char* name,
                                            const std::array<KnobRange, N>& ranges,
                                            const std::string& expected) {
    const char* text = knob_text(name);
    if (text == nullptr) {
        return std::nullopt;
    }
    std::array<int, N> values{};
    const char* p = text;
    for (std::size_t k = 0; k < N; ++k) {
        if (k > 0 && *p++ != ',') {
            refuse_knob(name, text, expected);
        }
        char* end = nullptr;
        errno = 0;
        const long v = std::strtol(p, &end, 10);
        if (end == p || errno != 0 || v < ranges[k].lo || v > ranges[k].hi) {
            refuse_knob(name, text, expected);
        }
        values[k] = static_cast<int>(v);
        p = end;
    }
    if (*p != '\0') {
        refuse_knob(name, text, expected);
    }
    return values;
}

/// The integer of knob `name` (`lo` to `hi`; `what` its meaning in the error), or `fallback`
/// when it is unset.
inline int knob(const char* name, int lo, int hi, int fallback, const char* what) {
    const auto value = knob_ints<1>(name, {KnobRange{lo, hi}},
                                    std::string(what) + " " + std::to_string(lo) + " to " +
                                        std::to_string(hi));
    return value ? (*value)[0] : fallback;
}

}  // namespace pmcount::backend::cuda
