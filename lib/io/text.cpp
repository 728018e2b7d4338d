#include "io/text.hpp"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <string>
#include <system_error>

#include "pmcount/error.hpp"

namespace pmcount::io {

bool LineScanner::next(std::string_view& line) noexcept {
    if (position_ >= text_.size()) {
        return false;
    }
    const std::size_t end = text_.find('\n', position_);
    const std::size_t stop = end == std::string_view::npos ? text_.size() : end;
    line = text_.substr(position_, stop - position_);
    if (!line.empty() && line.back() == '\r') {
        line.remove_suffix(1);
    }
    position_ = stop + 1;
    ++line_number_;
    return true;
}

std::vector<std::string_view> split_tokens(std::string_view line) {
    std::vector<std::string_view> tokens;
    auto is_space = [](char c) {
        return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
    };
    std::size_t i = 0;
    while (i < line.size()) {
        while (i < line.size() && is_space(line[i])) {
            ++i;
        }
        const std::size_t start = i;
        while (i < line.size() && !is_space(line[i])) {
            ++i;
        }
        if (i > start) {
            tokens.push_back(line.substr(start, i - start));
        }
    }
    return tokens;
}

void fail(const Location& where, const std::string& problem) {
    throw InvalidInput(where.file, where.line, problem);
}

std::string quote(std::string_view token) {
    constexpr std::size_t kMax = 40;
    std::string out = "'";
    for (std::size_t i = 0; i < token.size() && i < kMax; ++i) {
        const auto c = static_cast<unsigned char>(token[i]);
        if (c < 0x20 || c >= 0x7f) {
            static constexpr char kHex[] = "0123456789abcdef";
            out += "\\x";
            out += kHex[c >> 4];
            out += kHex[c & 15];
        } else {
            out += static_cast<char>(c);
        }
    }
    if (token.size() > kMax) {
        out += "...";
    }
    return out + "'";
}

bool is_integer_token(std::string_view token) noexcept {
    if (!token.empty() && (token.front() == '+' || token.front() == '-')) {
        token.remove_prefix(1);
    }
    if (token.empty()) {
        return false;
    }
    for (const char c : token) {
        if (c < '0' || c > '9') {
            return false;
        }
    }
    return true;
}

namespace {

/// from_chars takes a leading '-' but not '+': drop a '+' sign, unless another sign follows it
/// ("+-1" is not a number).
std::string_view without_plus(std::string_view token) noexcept {
    if (token.size() >= 2 && token.front() == '+' && token[1] != '-' && token[1] != '+') {
        token.remove_prefix(1);
    }
    return token;
}

bool looks_numeric(std::string_view token) noexcept {
    double ignored;
    token = without_plus(token);
    const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), ignored);
    return end == token.data() + token.size() &&
           (ec == std::errc{} || ec == std::errc::result_out_of_range);
}

/// True when the significand of a decimal number (the part before any exponent) has a nonzero
/// digit: the number is not zero.
bool has_nonzero_digit(std::string_view number) noexcept {
    for (const char c : number) {
        if (c == 'e' || c == 'E') {
            return false;
        }
        if (c >= '1' && c <= '9') {
            return true;
        }
    }
    return false;
}

}  // namespace

std::optional<std::int64_t> parse_int64_if_fits(std::string_view token, const Location& where,
                                                const char* what) {
    if (!is_integer_token(token)) {
        fail(where, std::string(what) + " " + quote(token) +
                        (looks_numeric(token) ? " is not an integer" : " is not a number"));
    }
    std::string_view digits = token;
    if (digits.front() == '+') {
        digits.remove_prefix(1);
    }
    std::int64_t value = 0;
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
    if (ec == std::errc::result_out_of_range) {
        return std::nullopt;
    }
    if (ec != std::errc{} || end != digits.data() + digits.size()) {
        fail(where, std::string(what) + " " + quote(token) + " is not a number");
    }
    return value;
}

std::int64_t parse_int64(std::string_view token, const Location& where, const char* what) {
    const std::optional<std::int64_t> value = parse_int64_if_fits(token, where, what);
    if (!value) {
        fail(where, std::string(what) + " " + quote(token) + " does not fit in 64 bits");
    }
    return *value;
}

std::int64_t parse_count(std::string_view token, const Location& where, const char* what) {
    const std::int64_t value = parse_int64(token, where, what);
    if (value < 0) {
        fail(where, std::string(what) + " " + quote(token) + " is negative");
    }
    return value;
}

double parse_double(std::string_view token, const Location& where, const char* what) {
    const std::string_view body = without_plus(token);
    double value = 0;
    const auto [end, ec] = std::from_chars(body.data(), body.data() + body.size(), value);
    if (end != body.data() + body.size() || body.empty() ||
        (ec != std::errc{} && ec != std::errc::result_out_of_range)) {
        fail(where, std::string(what) + " " + quote(token) + " is not a number");
    }
    if (ec == std::errc::result_out_of_range) {
        // from_chars leaves value untouched: tell overflow from underflow with strtod ("C" locale).
        value = std::strtod(std::string(body).c_str(), nullptr);
    }
    if (std::isnan(value)) {
        fail(where, std::string(what) + " is NaN");
    }
    if (std::isinf(value) || std::fabs(value) == HUGE_VAL) {
        fail(where, std::string(what) + " " + quote(token) + " is infinite or beyond double range");
    }
    if (value == 0 && has_nonzero_digit(body)) {
        // Read as 0, a real entry would vanish and could even make the input look integer-valued:
        // refused like overflow. A subnormal result is kept (the collector notes it).
        fail(where, std::string(what) + " " + quote(token) +
                        " underflows the double range (a nonzero value that reads as 0; scale "
                        "the matrix)");
    }
    return value;
}

}  // namespace pmcount::io
