#include <algorithm>
#include <complex>
#include <numeric>
#include <string>
#include <type_traits>

#include "pmcount/error.hpp"
#include "pmcount/matrix.hpp"

namespace pmcount {

namespace {

/// sum += addend for Duplicates::sum; a 64-bit integer sum that wraps is an Overflow.
template <class T>
void add_checked(T& sum, const T& addend, vertex_t row, vertex_t col) {
    if constexpr (std::is_same_v<T, std::int64_t>) {
        if (__builtin_add_overflow(sum, addend, &sum)) {
            throw Overflow("SparseMatrix: the repeated entries at (" + std::to_string(row) + ", " +
                           std::to_string(col) + ") sum beyond 64-bit integers");
        }
    } else {
        sum += addend;
    }
}

/// The element count of a rows × cols matrix, validated before anything is allocated.
std::size_t dense_size(vertex_t rows, vertex_t cols) {
    if (rows < 0 || cols < 0) {
        throw InvalidArgument("DenseMatrix: negative dimension " + std::to_string(rows) + "×" +
                              std::to_string(cols));
    }
    return static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols);
}

}  // namespace

template <class T>
SparseMatrix<T>::SparseMatrix(vertex_t rows, vertex_t cols, std::vector<Triplet<T>> entries,
                              Duplicates duplicates)
    : rows_(rows), cols_(cols) {
    if (rows < 0 || cols < 0) {
        throw InvalidArgument("SparseMatrix: negative dimension");
    }
    for (const auto& t : entries) {
        if (t.row < 0 || t.row >= rows || t.col < 0 || t.col >= cols) {
            throw InvalidArgument("SparseMatrix: entry (" + std::to_string(t.row) + ", " +
                                  std::to_string(t.col) + ") outside a " + std::to_string(rows) +
                                  "×" + std::to_string(cols) + " matrix");
        }
    }
    const auto before = [](const Triplet<T>& a, const Triplet<T>& b) {
        return a.row != b.row ? a.row < b.row : a.col < b.col;
    };
    if (!std::is_sorted(entries.begin(), entries.end(), before)) {  // often given in order
        std::stable_sort(entries.begin(), entries.end(), before);
    }
    // Merge or reject repeated positions.
    std::vector<Triplet<T>> unique;
    unique.reserve(entries.size());
    for (const auto& t : entries) {
        if (!unique.empty() && unique.back().row == t.row && unique.back().col == t.col) {
            if (duplicates == Duplicates::reject) {
                throw InvalidArgument("SparseMatrix: duplicate entry (" + std::to_string(t.row) +
                                      ", " + std::to_string(t.col) + ")");
            }
            add_checked(unique.back().value, t.value, t.row, t.col);
            continue;
        }
        unique.push_back(t);
    }

    row_offsets_.assign(static_cast<std::size_t>(rows) + 1, 0);
    col_offsets_.assign(static_cast<std::size_t>(cols) + 1, 0);
    for (const auto& t : unique) {
        ++row_offsets_[static_cast<std::size_t>(t.row) + 1];
        ++col_offsets_[static_cast<std::size_t>(t.col) + 1];
        col_indices_.push_back(t.col);
        values_.push_back(t.value);
    }
    std::partial_sum(row_offsets_.begin(), row_offsets_.end(), row_offsets_.begin());
    std::partial_sum(col_offsets_.begin(), col_offsets_.end(), col_offsets_.begin());
    row_indices_.resize(unique.size());
    csc_to_csr_.resize(unique.size());
    std::vector<edge_t> next(col_offsets_.begin(), col_offsets_.end() - 1);
    for (std::size_t k = 0; k < unique.size(); ++k) {
        const auto slot = static_cast<std::size_t>(next[static_cast<std::size_t>(unique[k].col)]++);
        row_indices_[slot] = unique[k].row;
        csc_to_csr_[slot] = static_cast<edge_t>(k);
    }
}

template <class T>
SparseMatrix<T>::SparseMatrix(const DenseMatrix<T>& dense)
    : SparseMatrix(dense.rows(), dense.cols(), [&] {
          std::vector<Triplet<T>> entries;
          for (vertex_t i = 0; i < dense.rows(); ++i) {
              for (vertex_t j = 0; j < dense.cols(); ++j) {
                  if (dense(i, j) != T{}) {
                      entries.push_back({i, j, dense(i, j)});
                  }
              }
          }
          return entries;
      }()) {}

template <class T>
T SparseMatrix<T>::at(vertex_t r, vertex_t c) const {
    if (r < 0 || r >= rows_ || c < 0 || c >= cols_) {
        throw InvalidArgument("SparseMatrix::at: (" + std::to_string(r) + ", " +
                              std::to_string(c) + ") outside a " + std::to_string(rows_) + "×" +
                              std::to_string(cols_) + " matrix");
    }
    const auto begin = col_indices_.begin() + row_offsets_[static_cast<std::size_t>(r)];
    const auto end = col_indices_.begin() + row_offsets_[static_cast<std::size_t>(r) + 1];
    const auto it = std::lower_bound(begin, end, c);
    return (it != end && *it == c) ? values_[static_cast<std::size_t>(it - col_indices_.begin())]
                                   : T{};
}

template <class T>
DenseMatrix<T> SparseMatrix<T>::to_dense() const {
    DenseMatrix<T> dense(rows_, cols_);
    for (vertex_t i = 0; i < rows_; ++i) {
        for (edge_t k = row_offsets_[static_cast<std::size_t>(i)];
             k < row_offsets_[static_cast<std::size_t>(i) + 1]; ++k) {
            dense(i, col_indices_[static_cast<std::size_t>(k)]) =
                values_[static_cast<std::size_t>(k)];
        }
    }
    return dense;
}

template <class T>
BipartiteGraph SparseMatrix<T>::pattern() const {
    std::vector<BipartiteGraph::Edge> edges;
    edges.reserve(values_.size());
    for (const auto& t : triplets()) {
        edges.emplace_back(t.row, t.col);
    }
    return {rows_, cols_, std::move(edges)};
}

template <class T>
std::vector<Triplet<T>> SparseMatrix<T>::triplets() const {
    std::vector<Triplet<T>> out;
    out.reserve(values_.size());
    for (vertex_t i = 0; i < rows_; ++i) {
        for (edge_t k = row_offsets_[static_cast<std::size_t>(i)];
             k < row_offsets_[static_cast<std::size_t>(i) + 1]; ++k) {
            out.push_back({i, col_indices_[static_cast<std::size_t>(k)],
                           values_[static_cast<std::size_t>(k)]});
        }
    }
    return out;
}

template <class T>
DenseMatrix<T>::DenseMatrix(vertex_t rows, vertex_t cols, T fill)
    : rows_(rows), cols_(cols), data_(dense_size(rows, cols), fill) {}

template <class T>
DenseMatrix<T>::DenseMatrix(vertex_t rows, vertex_t cols, std::vector<T> row_major)
    : rows_(rows), cols_(cols), data_(std::move(row_major)) {
    if (data_.size() != dense_size(rows, cols)) {
        throw InvalidArgument("DenseMatrix: data size does not match " + std::to_string(rows) +
                              "×" + std::to_string(cols));
    }
}

DenseMatrix<std::int64_t> biadjacency_matrix(const BipartiteGraph& graph) {
    DenseMatrix<std::int64_t> dense(graph.n_left(), graph.n_right());
    for (const auto& [u, v] : graph.edges()) {
        dense(u, v) = 1;
    }
    return dense;
}

template class SparseMatrix<std::int64_t>;
template class SparseMatrix<double>;
template class SparseMatrix<std::complex<double>>;
template class DenseMatrix<std::int64_t>;
template class DenseMatrix<double>;
template class DenseMatrix<std::complex<double>>;

}  // namespace pmcount
