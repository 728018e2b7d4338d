// Helpers shared by the reader tests: parse a string as the file "g.txt" and check the exact
// position and wording of the InvalidInput it must raise.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>

#include "pmcount/error.hpp"
#include "pmcount/io.hpp"

namespace pmcount::test {

inline const std::string kFile = "g.txt";

inline Input parse(std::string_view text, const ReadOptions& options = {}) {
    return parse_input(text, kFile, options);
}

inline ReadOptions matrix_market_options() {
    ReadOptions options;
    options.format = InputFormat::matrix_market;
    return options;
}

/// Expects parse(text) to throw InvalidInput (not NotBipartite) whose what() starts with
/// "g.txt:<line>: ", contains `fragment`, and is one line.
inline void expect_invalid(std::string_view text, std::int64_t line, const std::string& fragment,
                           const ReadOptions& options = {}) {
    try {
        const Input input = parse(text, options);
        ADD_FAILURE() << "accepted (" << input.rows() << "×" << input.cols() << ", " << input.nnz()
                      << " entries); expected an error on line " << line << " mentioning '"
                      << fragment << "' for:\n"
                      << text;
    } catch (const NotBipartite& e) {
        ADD_FAILURE() << "NotBipartite instead of a malformed-input error: " << e.what();
    } catch (const InvalidInput& e) {
        const std::string what = e.what();
        const std::string prefix = kFile + ":" + std::to_string(line) + ": ";
        EXPECT_EQ(what.compare(0, prefix.size(), prefix), 0)
            << "expected prefix '" << prefix << "' in: " << what;
        EXPECT_NE(what.find(fragment), std::string::npos)
            << "expected '" << fragment << "' in: " << what;
        EXPECT_EQ(e.file(), kFile);
        EXPECT_EQ(e.line(), line) << what;
        EXPECT_EQ(what.find('\n'), std::string::npos) << "message spans lines: " << what;
    }
}

template <class T>
const T& data_as(const Input& input) {
    EXPECT_TRUE(std::holds_alternative<T>(input.data)) << "variant index " << input.data.index();
    return std::get<T>(input.data);
}

}  // namespace pmcount::test
