// Collects the entries a reader finds, with their line numbers, and turns them into an Input:
// duplicates merged (patterns, with a warning), summed (--sum-duplicates) or rejected naming both
// lines; values typed (a real file whose values are all integers becomes an exact integer
// problem); the graph or matrix built.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "pmcount/io.hpp"

namespace pmcount::io {

/// What the values of a file are.
enum class ValueField { none, integer, real, complex };

struct Entry {
    vertex_t row;
    vertex_t col;
    std::int64_t line;
    std::int64_t shown_row;  // ids as the file wrote them, for messages
    std::int64_t shown_col;
    std::int64_t integer = 0;
    double re = 0;
    double im = 0;
};

class EntryCollector {
public:
    EntryCollector(const std::string& file, ValueField field, const ReadOptions& options);

    ValueField field() const noexcept { return field_; }
    void add(const Entry& entry) { entries_.push_back(entry); }
    std::size_t size() const noexcept { return entries_.size(); }

    /// Builds the Input: a BipartiteGraph / Digraph for patterns, else a SparseMatrix.
    /// `directed`: rows and columns are the same vertices (requires rows == cols for a Digraph).
    Input finish(vertex_t rows, vertex_t cols, bool directed, InputFormat format,
                 std::vector<std::string> warnings);

private:
    void combine_duplicates(std::vector<std::string>& warnings);

    const std::string& file_;
    ValueField field_;
    ReadOptions options_;
    std::vector<Entry> entries_;
};

}  // namespace pmcount::io
