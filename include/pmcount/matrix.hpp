// Matrices whose permanents pmcount computes.
//
// SparseMatrix<T> stores CSR and CSC; DenseMatrix<T> is row-major. T is one of std::int64_t,
// double and std::complex<double> (the integer, real and complex value kinds; the binary kind is a
// BipartiteGraph).
#pragma once

#include <complex>
#include <cstdint>
#include <vector>

#include "pmcount/array_view.hpp"
#include "pmcount/graph.hpp"
#include "pmcount/types.hpp"

namespace pmcount {

template <class T>
struct Triplet {
    vertex_t row;
    vertex_t col;
    T value;
};

/// What a SparseMatrix constructor does with repeated (row, col) positions.
enum class Duplicates {
    reject,  ///< throw InvalidArgument naming the position
    sum,     ///< add the values
};

template <class T>
class DenseMatrix;

template <class T>
class SparseMatrix {
public:
    using value_type = T;

    SparseMatrix() = default;
    /// Validates positions against the shape; entries may come in any order. Stored zeros are kept
    /// (they are structural entries: edges of pattern()).
    SparseMatrix(vertex_t rows, vertex_t cols, std::vector<Triplet<T>> entries,
                 Duplicates duplicates = Duplicates::reject);
    /// Every nonzero of a dense matrix.
    explicit SparseMatrix(const DenseMatrix<T>& dense);

    vertex_t rows() const noexcept { return rows_; }
    vertex_t cols() const noexcept { return cols_; }
    edge_t nnz() const noexcept { return static_cast<edge_t>(values_.size()); }
    bool is_square() const noexcept { return rows_ == cols_; }

    /// CSR: row_offsets (rows + 1), column indices ascending within a row, values.
    const std::vector<edge_t>& row_offsets() const noexcept { return row_offsets_; }
    const std::vector<vertex_t>& col_indices() const noexcept { return col_indices_; }
    const std::vector<T>& values() const noexcept { return values_; }
    /// CSC: col_offsets (cols + 1), row indices ascending within a column, and for each CSC slot
    /// the position of the same entry in the CSR arrays.
    const std::vector<edge_t>& col_offsets() const noexcept { return col_offsets_; }
    const std::vector<vertex_t>& row_indices() const noexcept { return row_indices_; }
    const std::vector<edge_t>& csc_to_csr() const noexcept { return csc_to_csr_; }

    /// The entry at (r, c), zero when not stored. O(log row length).
    T at(vertex_t r, vertex_t c) const;
    DenseMatrix<T> to_dense() const;
    /// The bipartite graph of the stored positions (rows = left).
    BipartiteGraph pattern() const;
    std::vector<Triplet<T>> triplets() const;

private:
    vertex_t rows_ = 0;
    vertex_t cols_ = 0;
    std::vector<edge_t> row_offsets_{0};
    std::vector<vertex_t> col_indices_;
    std::vector<T> values_;
    std::vector<edge_t> col_offsets_{0};
    std::vector<vertex_t> row_indices_;
    std::vector<edge_t> csc_to_csr_;
};

/// Row-major dense matrix.
template <class T>
class DenseMatrix {
public:
    using value_type = T;

    DenseMatrix() = default;
    DenseMatrix(vertex_t rows, vertex_t cols, T fill = T{});
    /// Takes row-major data of size rows * cols.
    DenseMatrix(vertex_t rows, vertex_t cols, std::vector<T> row_major);

    vertex_t rows() const noexcept { return rows_; }
    vertex_t cols() const noexcept { return cols_; }
    bool is_square() const noexcept { return rows_ == cols_; }
    T& operator()(vertex_t r, vertex_t c) noexcept {
        return data_[static_cast<std::size_t>(r) * static_cast<std::size_t>(cols_) +
                     static_cast<std::size_t>(c)];
    }
    const T& operator()(vertex_t r, vertex_t c) const noexcept {
        return data_[static_cast<std::size_t>(r) * static_cast<std::size_t>(cols_) +
                     static_cast<std::size_t>(c)];
    }
    const std::vector<T>& data() const noexcept { return data_; }

private:
    vertex_t rows_ = 0;
    vertex_t cols_ = 0;
    std::vector<T> data_;
};

/// The 0-1 biadjacency matrix of a bipartite graph, as integers.
DenseMatrix<std::int64_t> biadjacency_matrix(const BipartiteGraph& graph);

extern template class SparseMatrix<std::int64_t>;
extern template class SparseMatrix<double>;
extern template class SparseMatrix<std::complex<double>>;
extern template class DenseMatrix<std::int64_t>;
extern template class DenseMatrix<double>;
extern template class DenseMatrix<std::complex<double>>;

}  // namespace pmcount
