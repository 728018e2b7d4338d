// Collects the entries a reader finds, with their line numbers, and turns them into an Input:
// duplicates merged (patterns, with a warning), summed (--sum-duplicates) or rejected naming both
// lines; values typed (a real file whose values are all integers becomes an exact integer
// problem); the graph or matrix built — a permanent's rows × columns, or a general graph /
// symmetric matrix for its perfect matchings or hafnian.
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
    /// Builds the Input of a general graph on n vertices: an UndirectedGraph for patterns, else
    /// the symmetric SparseMatrix of a hafnian (Input::hafnian). Every entry must have its mirror
    /// image with the same value (a reader of undirected edges adds both); an error names the
    /// first that has not. A pattern's diagonal entry is a self-loop, an error; nonzero diagonal
    /// values are dropped with a warning (the hafnian does not use them).
    Input finish_symmetric(vertex_t n, InputFormat format, std::vector<std::string> warnings);

private:
    void combine_duplicates(std::vector<std::string>& warnings);
    /// The field after typing: real values that are all integers below 2^53 become an exact
    /// integer problem (with a warning naming `problem`, e.g. "permanent").
    ValueField settle_field(std::vector<std::string>& warnings, const char* problem);

    const std::string& file_;
    ValueField field_;
    ReadOptions options_;
    std::vector<Entry> entries_;
};

}  // namespace pmcount::io
