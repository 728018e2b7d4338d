// The planar engine (see planar.hpp).
//
// Phases: (1) nonzero pattern → Kasteleyn signing (planarity test, DM blocks, faces, dual tree);
// (2) the signed entries of the edges in some perfect matching and a minimum degree column order
// of their pattern; (3) determinant: modulo each prime (the first prime fixes the pivot rows the
// others follow) or once in floating point; (4) perm = c·det, CRT with the spare's check.
#include "exact/planar/planar.hpp"

#include <algorithm>
#include <string>
#include <type_traits>

#include "exact/planar/kasteleyn.hpp"
#include "exact/planar/pivot_outcome.hpp"
#include "numeric/crt.hpp"
#include "numeric/permanent_bound.hpp"
#include "numeric/sparse_determinant.hpp"
#include "pmcount/error.hpp"

namespace pmcount::exact {

namespace {

/// The signed matrix K restricted to the entries that lie in some perfect matching, with the
/// column order of its elimination.
template <class T>
struct SignedMatrix {
    int constant = 0;  ///< perm(A) = constant · det(K); 0: perm(A) = 0
    vertex_t n = 0;
    std::vector<edge_t> offsets;  ///< CSR of K
    std::vector<vertex_t> cols;
    std::vector<T> values;
    numeric::PivotOrder order;
};

template <class T>
SignedMatrix<T> signed_matrix(const SparseMatrix<T>& a) {
    if (!a.is_square()) {
        throw DimensionMismatch("planar needs a square matrix, got " + std::to_string(a.rows()) +
                                "×" + std::to_string(a.cols()));
    }
    // (1) The pattern of the nonzeros lists them in the CSR order of `a` (both sort by row, then
    // column), so values[k] belongs to pattern edge k.
    std::vector<BipartiteGraph::Edge> edges;
    std::vector<T> values;
    for (vertex_t r = 0; r < a.rows(); ++r) {
        for (edge_t e = a.row_offsets()[static_cast<std::size_t>(r)];
             e < a.row_offsets()[static_cast<std::size_t>(r) + 1]; ++e) {
            const T& v = a.values()[static_cast<std::size_t>(e)];
            if (v != T{}) {
                edges.emplace_back(r, a.col_indices()[static_cast<std::size_t>(e)]);
                values.push_back(v);
            }
        }
    }
    const BipartiteGraph pattern(a.rows(), a.cols(), std::move(edges));
    const std::optional<KasteleynSigning> signing = kasteleyn_signing(pattern);
    if (!signing) {
        throw InvalidArgument(
            "planar: the nonzero pattern is not a planar graph (it contains a "
            "subdivision of K_{3,3} or K_5); use another engine");
    }
    SignedMatrix<T> k;
    k.constant = signing->constant;
    k.n = a.rows();
    if (k.constant == 0) {
        return k;
    }
    // (2) Kept entries, signed, and their pattern's minimum degree order.
    std::vector<BipartiteGraph::Edge> kept;
    k.offsets.assign(1, 0);
    for (vertex_t r = 0; r < a.rows(); ++r) {
        for (edge_t e = pattern.left_offsets()[static_cast<std::size_t>(r)];
             e < pattern.left_offsets()[static_cast<std::size_t>(r) + 1]; ++e) {
            const std::int8_t s = signing->sign[static_cast<std::size_t>(e)];
            if (s != 0) {
                const vertex_t c = pattern.left_adjacency()[static_cast<std::size_t>(e)];
                kept.emplace_back(r, c);
                k.cols.push_back(c);
                k.values.push_back(s > 0 ? values[static_cast<std::size_t>(e)]
                                         : -values[static_cast<std::size_t>(e)]);
            }
        }
        k.offsets.push_back(static_cast<edge_t>(k.cols.size()));
    }
    k.order = numeric::minimum_degree_order(BipartiteGraph(a.rows(), a.cols(), std::move(kept)),
                                            signing->col_match);
    return k;
}

template <class V, class T, class Convert>
numeric::SparseRows<V> rows_of(const SignedMatrix<T>& k, Convert convert) {
    numeric::SparseRows<V> rows(static_cast<std::size_t>(k.n));
    for (std::size_t r = 0; r < rows.size(); ++r) {
        for (edge_t e = k.offsets[r]; e < k.offsets[r + 1]; ++e) {
            rows[r].push_back({k.cols[static_cast<std::size_t>(e)],
                               convert(k.values[static_cast<std::size_t>(e)])});
        }
    }
    return rows;
}

/// perm(A) mod p = c · sgn · Π pivots, and the pivot rows used.
std::uint64_t residue_mod(const SignedMatrix<std::int64_t>& k, std::uint64_t p,
                          const std::vector<vertex_t>& follow, std::vector<vertex_t>* pivot_rows) {
    const numeric::ModularField field(p);
    auto result = numeric::eliminate(
        field, rows_of<std::uint64_t>(k, [&field](std::int64_t v) { return field.from_int(v); }),
        k.order, follow);
    if (pivot_rows != nullptr) {
        *pivot_rows = std::move(result.pivot_rows);
    }
    if (result.singular) {
        return 0;
    }
    std::uint64_t product = field.one();
    for (const std::uint64_t pivot : result.pivots) {
        product = field.mul(product, pivot);
    }
    const std::uint64_t r = field.residue(product);
    return result.sign * k.constant > 0 ? r : (r == 0 ? 0 : p - r);
}

template <class T>
FloatOutcome planar_float(const SparseMatrix<T>& a) {
    const SignedMatrix<T> k = signed_matrix(a);
    FloatOutcome out;
    out.arithmetic =
        std::is_same_v<T, double> ? "sparse LU in double" : "sparse LU in complex double";
    if (k.constant == 0) {
        return out;
    }
    double largest_input = 0;
    for (const T& v : k.values) {
        largest_input = std::max(largest_input, std::abs(v));
    }
    const auto result = numeric::eliminate(
        numeric::FloatField<T>{}, rows_of<T>(k, [](const T& v) { return v; }), k.order, {});
    return pivot_outcome(out, result, static_cast<double>(k.constant), k.n, largest_input);
}

}  // namespace

ExactOutcome planar_exact(const SparseMatrix<std::int64_t>& a, const run::EngineRun& run) {
    const SignedMatrix<std::int64_t> k = signed_matrix(a);
    ExactOutcome out;
    out.arithmetic = "Kasteleyn determinant, modular";
    if (k.constant == 0) {
        out.value = 0;
        return out;
    }
    const bool binary = std::all_of(a.values().begin(), a.values().end(),
                                    [](std::int64_t v) { return v == 0 || v == 1; });
    const std::vector<std::uint64_t> primes =
        numeric::large_primes_with_spare(numeric::permanent_bound_log2(a, binary));
    std::vector<std::uint64_t> residues(primes.size());
    // The first prime chooses the pivot rows; the others follow them, in parallel.
    std::vector<vertex_t> pivot_rows;
    residues[0] = residue_mod(k, primes[0], {}, &pivot_rows);
    const auto count = static_cast<std::int64_t>(primes.size());
    run::parallel_units(count - 1, count, 1, run, [&](std::int64_t j) -> std::int64_t {
        const auto i = static_cast<std::size_t>(j) + 1;
        residues[i] = residue_mod(k, primes[i], pivot_rows, nullptr);
        return 1;
    });
    out.primes = static_cast<int>(primes.size());
    out.arithmetic += " (" + std::to_string(primes.size()) + " primes of 62 bits, one spare) + CRT";
    out.value = numeric::crt_with_spare(residues, primes, "planar");
    return out;
}

FloatOutcome planar_real(const SparseMatrix<double>& a, const run::EngineRun&) {
    return planar_float(a);
}

FloatOutcome planar_complex(const SparseMatrix<std::complex<double>>& a, const run::EngineRun&) {
    return planar_float(a);
}

}  // namespace pmcount::exact
