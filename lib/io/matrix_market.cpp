// Matrix Market reader (NIST format: https://math.nist.gov/MatrixMarket/formats.html).
// Phases: (1) banner; (2) comments and the size line; (3) entries, coordinate or array, expanded
// from symmetric / skew-symmetric / hermitian storage; (4) EntryCollector.
#include <algorithm>
#include <cctype>
#include <cstdint>
#include <limits>
#include <optional>

#include "io/entries.hpp"
#include "io/readers.hpp"
#include "io/text.hpp"
#include "pmcount/error.hpp"

namespace pmcount::io {

namespace {

enum class Layout { coordinate, array };
enum class Symmetry { general, symmetric, skew_symmetric, hermitian };

struct Banner {
    Layout layout;
    ValueField field;
    Symmetry symmetry;
};

std::string lower(std::string_view s) {
    std::string out(s);
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
}

Banner parse_banner(std::string_view line, const Location& where) {
    const auto t = split_tokens(line);
    const char* expected =
        "expected '%%MatrixMarket matrix coordinate|array real|integer|complex|pattern "
        "general|symmetric|skew-symmetric|hermitian'";
    if (t.empty() || lower(t[0]) != "%%matrixmarket") {
        fail(where, std::string("not a Matrix Market banner: ") + expected);
    }
    if (t.size() != 5) {
        fail(where, "banner has " + std::to_string(t.size()) + " fields: " + expected);
    }
    if (lower(t[1]) != "matrix") {
        fail(where, "unsupported Matrix Market object " + quote(t[1]) + " (only 'matrix')");
    }
    Banner b{};
    const std::string layout = lower(t[2]), field = lower(t[3]), symmetry = lower(t[4]);
    if (layout == "coordinate") {
        b.layout = Layout::coordinate;
    } else if (layout == "array") {
        b.layout = Layout::array;
    } else {
        fail(where, "unknown Matrix Market format " + quote(t[2]) + " (coordinate or array)");
    }
    if (field == "pattern") {
        b.field = ValueField::none;
    } else if (field == "integer") {
        b.field = ValueField::integer;
    } else if (field == "real" || field == "double") {
        b.field = ValueField::real;
    } else if (field == "complex") {
        b.field = ValueField::complex;
    } else {
        fail(where,
             "unknown Matrix Market field " + quote(t[3]) + " (pattern, integer, real or complex)");
    }
    if (symmetry == "general") {
        b.symmetry = Symmetry::general;
    } else if (symmetry == "symmetric") {
        b.symmetry = Symmetry::symmetric;
    } else if (symmetry == "skew-symmetric") {
        b.symmetry = Symmetry::skew_symmetric;
    } else if (symmetry == "hermitian") {
        b.symmetry = Symmetry::hermitian;
    } else {
        fail(where, "unknown Matrix Market symmetry " + quote(t[4]) +
                        " (general, symmetric, skew-symmetric or hermitian)");
    }
    if (b.field == ValueField::none && b.layout == Layout::array) {
        fail(where, "'array pattern' is not a valid Matrix Market combination");
    }
    if (b.field == ValueField::none && b.symmetry == Symmetry::skew_symmetric) {
        fail(where, "'pattern skew-symmetric' is not a valid Matrix Market combination");
    }
    if (b.symmetry == Symmetry::hermitian && b.field != ValueField::complex) {
        fail(where, "'hermitian' needs the complex field");
    }
    return b;
}

std::size_t value_tokens(ValueField field) {
    switch (field) {
        case ValueField::none:
            return 0;
        case ValueField::complex:
            return 2;
        default:
            return 1;
    }
}

/// Parses the value tokens of an entry into e. An integer beyond int64 turns the collector's
/// integer input into a real one (the same token in a real file is a real).
void parse_value(const std::vector<std::string_view>& t, std::size_t first, ValueField field,
                 const Location& where, Entry& e, EntryCollector& collector) {
    if (field == ValueField::integer) {
        const std::optional<std::int64_t> value = parse_int64_if_fits(t[first], where, "value");
        if (value) {
            e.integer = *value;
            e.re = static_cast<double>(e.integer);
        } else {
            e.re = parse_double(t[first], where, "value");
            collector.integer_beyond_int64(where, t[first]);
        }
    } else if (field == ValueField::real) {
        e.re = parse_double(t[first], where, "value");
    } else if (field == ValueField::complex) {
        e.re = parse_double(t[first], where, "real part");
        e.im = parse_double(t[first + 1], where, "imaginary part");
    }
}

bool value_is_zero(const Entry& e, ValueField field) {
    return field == ValueField::integer ? e.integer == 0 : (e.re == 0 && e.im == 0);
}

/// Adds e and, off the diagonal of a symmetric-kind matrix, its mirror image.
void add_with_mirror(const Entry& e, const Banner& b, const Location& where, EntryCollector& out) {
    if (e.row == e.col) {
        if (b.symmetry == Symmetry::skew_symmetric && !value_is_zero(e, b.field)) {
            fail(where, "skew-symmetric matrix with a nonzero diagonal entry at (" +
                            std::to_string(e.shown_row) + ", " + std::to_string(e.shown_col) + ")");
        }
        if (b.symmetry == Symmetry::hermitian && e.im != 0) {
            fail(where, "hermitian matrix with a non-real diagonal entry at (" +
                            std::to_string(e.shown_row) + ", " + std::to_string(e.shown_col) + ")");
        }
        if (b.symmetry == Symmetry::skew_symmetric) {
            return;  // an explicit zero on the diagonal carries nothing
        }
    }
    out.add(e);
    if (b.symmetry == Symmetry::general || e.row == e.col) {
        return;
    }
    Entry m = e;
    std::swap(m.row, m.col);
    std::swap(m.shown_row, m.shown_col);
    if (b.symmetry == Symmetry::skew_symmetric) {
        if (b.field == ValueField::integer &&
            m.integer == std::numeric_limits<std::int64_t>::min()) {
            fail(where, "skew-symmetric entry " + std::to_string(m.integer) + " at (" +
                            std::to_string(e.shown_row) + ", " + std::to_string(e.shown_col) +
                            ") has no 64-bit negation for its mirror image");
        }
        m.integer = -m.integer;
        m.re = -m.re;
        m.im = -m.im;
    } else if (b.symmetry == Symmetry::hermitian) {
        m.im = -m.im;
    }
    out.add(m);
}

}  // namespace

Input read_matrix_market(std::string_view text, const std::string& file,
                         const ReadOptions& options) {
    LineScanner lines(text);
    std::string_view line;
    // Format detection skips leading blank lines, so the reader does too.
    bool have_banner_line = false;
    while (!have_banner_line && lines.next(line)) {
        have_banner_line = !split_tokens(line).empty();
    }
    if (!have_banner_line) {
        fail({file, std::max<std::int64_t>(1, lines.line_number())},
             "empty file: expected a Matrix Market banner");
    }
    const std::int64_t banner_line = lines.line_number();
    const Banner banner = parse_banner(line, {file, banner_line});

    // Comments, then the size line.
    std::vector<std::string_view> size_tokens;
    std::int64_t size_line = 0;
    while (lines.next(line)) {
        const auto t = split_tokens(line);
        if (t.empty() || t[0].front() == '%') {
            continue;
        }
        size_tokens = t;
        size_line = lines.line_number();
        break;
    }
    const Location size_where{file, size_line};
    if (size_line == 0) {
        fail({file, lines.line_number()}, "truncated file: no size line after the banner");
    }
    const std::size_t size_fields = banner.layout == Layout::coordinate ? 3 : 2;
    if (size_tokens.size() != size_fields) {
        fail(size_where, "size line has " + std::to_string(size_tokens.size()) +
                             " fields, expected " +
                             (size_fields == 3 ? "'rows cols entries'" : "'rows cols'"));
    }
    const std::int64_t rows = parse_count(size_tokens[0], size_where, "row count");
    const std::int64_t cols = parse_count(size_tokens[1], size_where, "column count");
    if (rows > kMaxDeclaredVertices || cols > kMaxDeclaredVertices) {
        fail(size_where, "matrix size exceeds the supported " +
                             std::to_string(kMaxDeclaredVertices) + " rows or columns");
    }
    if (banner.symmetry != Symmetry::general && rows != cols) {
        fail(size_where, "a symmetric, skew-symmetric or hermitian matrix must be square");
    }
    const bool hafnian = options.interpretation == GraphInterpretation::general;
    if (hafnian && rows != cols) {
        fail(size_where, "a hafnian needs a square (symmetric) matrix; this one is " +
                             std::to_string(rows) + "×" + std::to_string(cols));
    }
    if (hafnian &&
        (banner.symmetry == Symmetry::skew_symmetric || banner.symmetry == Symmetry::hermitian)) {
        fail({file, banner_line},
             std::string("a hafnian needs a symmetric matrix; the banner declares it ") +
                 (banner.symmetry == Symmetry::hermitian ? "hermitian" : "skew-symmetric"));
    }
    EntryCollector collector(file, text.size(), banner.field, options);
    const std::size_t fields = 2 + value_tokens(banner.field);

    if (banner.layout == Layout::coordinate) {
        const std::int64_t declared = parse_count(size_tokens[2], size_where, "entry count");
        // Only a file whose repeated entries are errors cannot hold more entries than positions.
        const bool repeats_allowed =
            collector.field() == ValueField::none || options.sum_duplicates;
        if (!repeats_allowed && rows * cols < declared && banner.symmetry == Symmetry::general) {
            fail(size_where, "declares " + std::to_string(declared) + " entries, more than the " +
                                 std::to_string(rows * cols) + " positions of the matrix");
        }
        std::int64_t seen = 0;
        while (lines.next(line)) {
            const auto t = split_tokens(line);
            const Location where{file, lines.line_number()};
            if (t.empty() || t[0].front() == '%') {
                continue;
            }
            if (seen == declared) {
                fail(where, "more entries than the " + std::to_string(declared) +
                                " declared on line " + std::to_string(size_line));
            }
            if (t.size() != fields) {
                fail(where, std::string(t.size() < fields ? "too few" : "too many") + " fields (" +
                                std::to_string(t.size()) + "), expected " + std::to_string(fields) +
                                " for a " +
                                (fields == 2   ? "pattern"
                                 : fields == 4 ? "complex"
                                               : "valued") +
                                " entry");
            }
            const std::int64_t i = parse_count(t[0], where, "row index");
            const std::int64_t j = parse_count(t[1], where, "column index");
            if (i < 1 || i > rows || j < 1 || j > cols) {
                fail(where, "entry (" + std::to_string(i) + ", " + std::to_string(j) +
                                ") is outside the " + std::to_string(rows) + "×" +
                                std::to_string(cols) + " matrix (indices are 1-based)");
            }
            Entry e{static_cast<vertex_t>(i - 1), static_cast<vertex_t>(j - 1), where.line, i, j};
            parse_value(t, 2, banner.field, where, e, collector);
            add_with_mirror(e, banner, where, collector);
            ++seen;
        }
        if (seen < declared) {
            fail({file, lines.line_number()},
                 "truncated file: " + std::to_string(seen) + " of the " + std::to_string(declared) +
                     " entries declared on line " + std::to_string(size_line));
        }
    } else {
        // Column-major values; symmetric kinds store only the lower triangle (strictly lower
        // for skew-symmetric). Walk the positions without materialising them.
        auto first_row = [&](std::int64_t column) -> std::int64_t {
            switch (banner.symmetry) {
                case Symmetry::general:
                    return 1;
                case Symmetry::skew_symmetric:
                    return column + 1;
                default:
                    return column;
            }
        };
        // Positions stored: all, the lower triangle, or the strictly lower one (square).
        const std::int64_t expected = banner.symmetry == Symmetry::general ? rows * cols
                                      : banner.symmetry == Symmetry::skew_symmetric
                                          ? rows * (rows - 1) / 2
                                          : rows * (rows + 1) / 2;
        // Every value needs a character and a line break: a size line that promises more values
        // than that is refused before a line of them is read.
        if (static_cast<std::uint64_t>(expected) > text.size() / 2) {
            fail(size_where, "truncated file: the size line implies " + std::to_string(expected) +
                                 " values, more than a file of " + std::to_string(text.size()) +
                                 " bytes can hold");
        }
        std::int64_t i = 0, j = 1, seen = 0;
        if (cols > 0) {
            i = first_row(1);
        }
        while (lines.next(line)) {
            const auto t = split_tokens(line);
            const Location where{file, lines.line_number()};
            if (t.empty() || t[0].front() == '%') {
                continue;
            }
            if (seen == expected) {
                fail(where, "more values than the " + std::to_string(expected) + " the size line " +
                                std::to_string(size_line) + " implies");
            }
            const std::size_t value_fields = value_tokens(banner.field);
            if (t.size() != value_fields) {
                fail(where, "expected " + std::to_string(value_fields) + " value field(s), got " +
                                std::to_string(t.size()));
            }
            while (i > rows) {  // next column with a stored position
                ++j;
                i = first_row(j);
            }
            Entry e{static_cast<vertex_t>(i - 1), static_cast<vertex_t>(j - 1), where.line, i, j};
            parse_value(t, 0, banner.field, where, e, collector);
            if (!value_is_zero(e, banner.field)) {
                add_with_mirror(e, banner, where, collector);
            }
            ++seen;
            ++i;
        }
        if (seen < expected) {
            fail({file, lines.line_number()},
                 "truncated file: " + std::to_string(seen) + " of the " + std::to_string(expected) +
                     " values the size line " + std::to_string(size_line) + " implies");
        }
    }
    if (hafnian) {
        return collector.finish_symmetric(static_cast<vertex_t>(rows), InputFormat::matrix_market,
                                          {});
    }
    const bool directed = options.interpretation == GraphInterpretation::directed;
    return collector.finish(static_cast<vertex_t>(rows), static_cast<vertex_t>(cols), directed,
                            InputFormat::matrix_market, {});
}

}  // namespace pmcount::io
