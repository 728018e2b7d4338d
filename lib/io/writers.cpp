// Edge-list and Matrix Market writers; each output reads back to the same graph or matrix.
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <ostream>
#include <string>
#include <type_traits>

#include "pmcount/error.hpp"
#include "pmcount/io.hpp"

namespace pmcount {

namespace {

/// Shortest decimal that reads back to the same double.
std::string exact_decimal(double v) {
    char buffer[32];
    for (int digits = 15; digits <= 17; ++digits) {
        std::snprintf(buffer, sizeof buffer, "%.*g", digits, v);
        if (std::strtod(buffer, nullptr) == v) {
            break;
        }
    }
    return buffer;
}

template <class T>
std::string format_value(const T& v) {
    if constexpr (std::is_same_v<T, std::int64_t>) {
        return std::to_string(v);
    } else if constexpr (std::is_same_v<T, double>) {
        return exact_decimal(v);
    } else {
        return exact_decimal(v.real()) + " " + exact_decimal(v.imag());
    }
}

template <class T>
const char* field_name() {
    if constexpr (std::is_same_v<T, std::int64_t>) {
        return "integer";
    } else if constexpr (std::is_same_v<T, double>) {
        return "real";
    } else {
        return "complex";
    }
}

}  // namespace

void write_edge_list(std::ostream& out, const BipartiteGraph& graph) {
    out << "# bipartite " << graph.n_left() << ' ' << graph.n_right() << '\n';
    for (const auto& [u, v] : graph.edges()) {
        out << u << ' ' << v << '\n';
    }
}

void write_edge_list(std::ostream& out, const UndirectedGraph& graph) {
    out << "# undirected " << graph.num_vertices() << '\n';
    for (const auto& [u, v] : graph.edges()) {
        out << u << ' ' << v << '\n';
    }
}

void write_embedding(std::ostream& out, const Embedding& embedding) {
    if (embedding.cells && embedding.cells->place.empty()) {  // the ids are the places
        out << "cells " << embedding.cells->rows << ' ' << embedding.cells->cols << ' '
            << embedding.cells->sites << '\n';
    }
    for (std::size_t v = 0; v < embedding.rotation.size(); ++v) {
        out << v << ':';
        for (const vertex_t w : embedding.rotation[v]) {
            out << ' ' << w;
        }
        out << '\n';
    }
}

void write_edge_list(std::ostream& out, const Digraph& graph) {
    out << "# directed " << graph.num_vertices() << '\n';
    for (const auto& [u, v] : graph.arcs()) {
        out << u << ' ' << v << '\n';
    }
}

template <class T>
void write_edge_list(std::ostream& out, const SparseMatrix<T>& matrix) {
    if constexpr (std::is_same_v<T, std::complex<double>>) {
        throw InvalidArgument("an edge list cannot hold complex weights; write Matrix Market");
    } else {
        out << "# bipartite " << matrix.rows() << ' ' << matrix.cols() << '\n';
        for (const auto& t : matrix.triplets()) {
            out << t.row << ' ' << t.col << ' ' << format_value(t.value) << '\n';
        }
    }
}

void write_matrix_market(std::ostream& out, const BipartiteGraph& graph) {
    out << "%%MatrixMarket matrix coordinate pattern general\n";
    out << graph.n_left() << ' ' << graph.n_right() << ' ' << graph.num_edges() << '\n';
    for (const auto& [u, v] : graph.edges()) {
        out << u + 1 << ' ' << v + 1 << '\n';
    }
}

void write_matrix_market(std::ostream& out, const UndirectedGraph& graph) {
    out << "%%MatrixMarket matrix coordinate pattern symmetric\n";
    out << graph.num_vertices() << ' ' << graph.num_vertices() << ' ' << graph.num_edges() << '\n';
    for (const auto& [u, v] : graph.edges()) {  // u < v: the lower triangle is (v, u)
        out << v + 1 << ' ' << u + 1 << '\n';
    }
}

template <class T>
void write_matrix_market(std::ostream& out, const SparseMatrix<T>& matrix) {
    out << "%%MatrixMarket matrix coordinate " << field_name<T>() << " general\n";
    out << matrix.rows() << ' ' << matrix.cols() << ' ' << matrix.nnz() << '\n';
    for (const auto& t : matrix.triplets()) {
        out << t.row + 1 << ' ' << t.col + 1 << ' ' << format_value(t.value) << '\n';
    }
}

template void write_edge_list(std::ostream&, const SparseMatrix<std::int64_t>&);
template void write_edge_list(std::ostream&, const SparseMatrix<double>&);
template void write_edge_list(std::ostream&, const SparseMatrix<std::complex<double>>&);
template void write_matrix_market(std::ostream&, const SparseMatrix<std::int64_t>&);
template void write_matrix_market(std::ostream&, const SparseMatrix<double>&);
template void write_matrix_market(std::ostream&, const SparseMatrix<std::complex<double>>&);

}  // namespace pmcount
