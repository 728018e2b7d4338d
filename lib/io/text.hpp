// Line and token scanning with line numbers, and strict number parsing, for the readers.
// Every failure throws InvalidInput(file, line, problem).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pmcount::io {

/// Splits text into lines (\n or \r\n), numbering them from 1.
class LineScanner {
public:
    explicit LineScanner(std::string_view text) noexcept : text_(text) {}
    /// Next line without its terminator; false at the end of the text.
    bool next(std::string_view& line) noexcept;
    /// 1-based number of the line last returned (0 before the first).
    std::int64_t line_number() const noexcept { return line_number_; }

private:
    std::string_view text_;
    std::size_t position_ = 0;
    std::int64_t line_number_ = 0;
};

/// Whitespace-separated tokens of a line.
std::vector<std::string_view> split_tokens(std::string_view line);

/// Where a token came from, for error messages.
struct Location {
    const std::string& file;
    std::int64_t line;
};

[[noreturn]] void fail(const Location& where, const std::string& problem);

/// A token quoted for an error message (shortened, with control bytes escaped).
std::string quote(std::string_view token);

/// True for an optionally signed run of decimal digits.
bool is_integer_token(std::string_view token) noexcept;

/// A non-negative integer id / size; `what` names it in errors ("vertex id", "row index").
std::int64_t parse_count(std::string_view token, const Location& where, const char* what);
/// A signed 64-bit integer value.
std::int64_t parse_int64(std::string_view token, const Location& where, const char* what);
/// As parse_int64, but an integer token beyond 64 bits gives nothing (the caller reads it as a
/// real) instead of an error.
std::optional<std::int64_t> parse_int64_if_fits(std::string_view token, const Location& where,
                                                const char* what);
/// A finite double: NaN, infinities, overflow and a nonzero value that underflows to 0 are
/// errors; a value that underflows to a subnormal is returned as that subnormal.
double parse_double(std::string_view token, const Location& where, const char* what);

}  // namespace pmcount::io
