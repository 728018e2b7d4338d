// Names of enum values, for the CLI, JSON and error messages: one table per enum, read both ways.
#pragma once

#include <string>
#include <string_view>

#include "pmcount/error.hpp"

namespace pmcount::detail {

template <class Value>
struct Named {
    Value value;
    const char* name;
};

/// The name of `value` in `table`; "unknown" for a value the table lacks.
template <class Value, std::size_t N>
const char* name_of(const Named<Value> (&table)[N], Value value) noexcept {
    for (const auto& entry : table) {
        if (entry.value == value) {
            return entry.name;
        }
    }
    return "unknown";
}

/// The value named `name`; InvalidArgument listing the accepted names (`what`: "backend", ...)
/// otherwise.
template <class Value, std::size_t N>
Value value_named(const Named<Value> (&table)[N], std::string_view name, const char* what) {
    std::string accepted;
    for (const auto& entry : table) {
        if (name == entry.name) {
            return entry.value;
        }
        accepted += accepted.empty() ? "" : ", ";
        accepted += entry.name;
    }
    throw InvalidArgument("unknown " + std::string(what) + " '" + std::string(name) +
                          "' (expected one of: " + accepted + ")");
}

}  // namespace pmcount::detail
