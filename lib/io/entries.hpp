// Collects the entries a reader finds, with their line numbers, and turns them into an Input:
// duplicates merged (patterns, with a warning), summed (--sum-duplicates) or rejected naming both
// lines; values typed (a real file whose values are all integers becomes an exact integer
// problem); the graph or matrix built — a permanent's rows × columns, or a general graph /
// symmetric matrix for its perfect matchings or hafnian. A side declared larger than the file
// (side_beyond_file) keeps only the vertices that occur, and the Input names an isolated one.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "io/text.hpp"
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

/// True when a file of `file_bytes` bytes declares a side of `declared` vertices that it cannot
/// cover: an entry takes at least two bytes for each vertex it touches on a side (a mirrored
/// Matrix Market entry `1 2` touches two rows in four bytes), so some vertex of a side larger
/// than the file is isolated and the count is 0. Such a side is never allocated: the readers
/// keep the vertices that occur instead, so memory follows the file, not its header.
bool side_beyond_file(std::int64_t declared, std::size_t file_bytes) noexcept;

/// `ids` sorted, without repeats.
void sort_distinct(std::vector<std::int64_t>& ids);
/// Position of `id` in sorted distinct `ids`, which hold it.
vertex_t index_of(const std::vector<std::int64_t>& ids, std::int64_t id);
/// The smallest of [0, declared) missing from sorted distinct `ids`; `declared` when none is.
std::int64_t first_missing(const std::vector<std::int64_t>& ids, std::int64_t declared);

class EntryCollector {
public:
    /// `file_bytes`: the size of the file, which bounds the sides worth allocating.
    EntryCollector(const std::string& file, std::size_t file_bytes, ValueField field,
                   const ReadOptions& options);

    ValueField field() const noexcept { return field_; }
    void add(const Entry& entry) { entries_.push_back(entry); }
    /// An integer value `token` at `where` is beyond int64: an integer input is read as real
    /// instead (every entry carries its double value in `re`), with a warning naming the first
    /// such value. The library's exact engines take int64 entries.
    void integer_beyond_int64(const Location& where, std::string_view token);
    std::size_t size() const noexcept { return entries_.size(); }

    /// Builds the Input: a BipartiteGraph / Digraph for patterns, else a SparseMatrix.
    /// `directed`: rows and columns are the same vertices (requires rows == cols for a Digraph).
    /// Entries are in the declared index space; a side beyond the file is kept compact
    /// (Input::isolated).
    Input finish(vertex_t rows, vertex_t cols, bool directed, InputFormat format,
                 std::vector<std::string> warnings);
    /// Builds the Input of a general graph on n vertices: an UndirectedGraph for patterns, else
    /// the symmetric SparseMatrix of a hafnian (Input::hafnian). Every entry must have its mirror
    /// image with the same value (a reader of undirected edges adds both); an error names the
    /// first that has not. A pattern's diagonal entry is a self-loop, an error; nonzero diagonal
    /// values are dropped with a warning (the hafnian does not use them). With ReadOptions::loops
    /// the diagonal is kept (a pattern's entries weigh 1) and the result is always a matrix
    /// (Input::loops).
    Input finish_symmetric(vertex_t n, InputFormat format, std::vector<std::string> warnings);

private:
    /// The vertices that occur, when a side is beyond the file and has an isolated vertex.
    struct Kept {
        std::vector<std::int64_t> row_labels;  // as the file numbers them
        std::vector<std::int64_t> col_labels;
        IsolatedVertex isolated;
    };
    /// With a side beyond the file and a vertex no entry touches: renumbers the entries to the
    /// rows and columns that occur (the same list for both when `same_vertices`) and names the
    /// first isolated vertex. Otherwise nothing (every declared vertex is then allocated).
    std::optional<Kept> keep_occurring(vertex_t rows, vertex_t cols, bool same_vertices,
                                       InputFormat format);
    void combine_duplicates(std::vector<std::string>& warnings);
    /// The field after typing: real values that are all integers below 2^53 become an exact
    /// integer problem (with a warning naming `problem`, e.g. "permanent"). Warns about an
    /// integer value beyond int64 read as real, and names the first subnormal value (it underflowed
    /// and keeps fewer digits than a double).
    ValueField settle_field(std::vector<std::string>& warnings, const char* problem);

    const std::string& file_;
    std::size_t file_bytes_;
    ValueField field_;
    ReadOptions options_;
    std::vector<Entry> entries_;
    std::string beyond_int64_;  // the warning of integer_beyond_int64(), once
};

}  // namespace pmcount::io
