// The planar engine for general graphs: hafnians of symmetric matrices whose nonzero pattern is a
// planar graph (bipartite or not), in polynomial time, as ε·Pf(K) of a skew-symmetric matrix
// oriented by the FKT construction (library-internal).
//
// Pfaffian orientations (Kasteleyn 1963, 1967; Temperley & Fisher 1961; Lovász & Plummer,
// "Matching Theory", §8.3; R. Thomas, "A survey of Pfaffian orientations of graphs", ICM 2006).
// Orient every edge; K_uv = a_uv when u → v, −a_uv when v → u. Then
//     Pf(K) = Σ_M sgn(π_M) Π_{uv ∈ M} K_uv,    π_M = (u₁ v₁ u₂ v₂ …),
// and the orientation is Pfaffian when every perfect matching M has the same sign
// sgn(π_M)·Π_{uv ∈ M} o_uv =: ε; then haf(A) = ε·Pf(K) for every A with that pattern. The
// symmetric difference of two perfect matchings is a set of "nice" even cycles C (G − V(C) has a
// perfect matching), and the two signs agree when each such C has an odd number of edges oriented
// along either direction of C (Lovász–Plummer Lemma 8.3.1). Kasteleyn: if in each connected
// component every face of a plane embedding but one has an odd number of edges oriented along
// its boundary walk, every nice cycle has that property.
//
// Proof with face walks, so that bridges, cut vertices and several components need no special
// case. Embed each component on the sphere; its faces are the orbits of the darts (directed
// edges) under the rotation system, so every dart lies in exactly one face walk and all walks
// turn the same way. A non-tree edge of a spanning forest is no bridge and borders two distinct
// faces, walked once in each, in opposite directions; a bridge lies in every spanning forest and
// is walked twice by one face, in opposite directions. Either way each edge has exactly one
// traversal along its orientation. Let C be a cycle, "inside" the side of C without the
// unconstrained face, with v vertices, e edges and f faces strictly inside, and let c be the
// number of edges of C oriented along the direction in which the inside faces walk C. C with
// everything inside is connected, with f + 1 faces, so Euler gives e = v + f − 1. Summing the
// along-traversals of the f inside faces counts every inside edge once and the c edges of C:
//     f ≡ Σ (odd numbers) = e + c = v + f − 1 + c   (mod 2),   so   c ≡ v + 1.
// If C is nice, the vertices inside C are matched among themselves (edges do not cross C), so v
// is even and c is odd; C is even, so it has an odd number of edges along its other direction
// too. Hence "odd along the walk" works whichever way Boost's walks turn.
//
// Construction (FKT; Lovász–Plummer §8.3): a spanning forest with its edges oriented arbitrarily,
// then the faces in reverse breadth-first order of the dual forest over the non-tree edges (see
// plane_embedding.hpp), each fixing its edge to its parent face so that its count is odd; the
// root face of each component stays unconstrained. O(V + E) after the embedding.
#pragma once

#include <complex>
#include <cstdint>
#include <optional>
#include <vector>

#include "exact/outcome.hpp"
#include "pmcount/graph.hpp"
#include "pmcount/matrix.hpp"
#include "run/chunked_run.hpp"

namespace pmcount::exact {

/// Boyer–Myrvold planarity test, O(V + E).
bool is_planar(const UndirectedGraph& graph);

/// A Pfaffian orientation of a planar graph, per edge in the order of graph.edges(): +1 when
/// {u, v} (u < v) is oriented u → v, −1 when v → u; nullopt when the graph is not planar. Any
/// planar graph (bridges, cut vertices, several components, no perfect matching). O(V + E) plus
/// Boost's face traversal (see plane_embedding.hpp).
std::optional<std::vector<std::int8_t>> pfaffian_orientation(const UndirectedGraph& graph);

/// Exact haf(A) of a symmetric integer matrix (entries (i, j) and (j, i) both stored, equal; the
/// diagonal is ignored) whose off-diagonal nonzero pattern is planar: Pf(K) modulo enough 62-bit
/// primes for the proven bound on |haf(A)| (numeric/permanent_bound.hpp) plus a spare, primes in
/// parallel on run.threads after the first fixes the pivot pairs, CRT checked against the spare.
/// Order 0 → 1, odd order or no perfect matching → 0, several components → the product (one
/// elimination covers them all). DimensionMismatch when not square; InvalidArgument when not
/// symmetric or the pattern is not planar.
ExactOutcome pfaffian_exact(const SparseMatrix<std::int64_t>& a, const run::EngineRun& run);

/// haf(A) in double (complex double) arithmetic: one elimination with threshold pivoting, the
/// product of pivots kept as mantissa·2^exponent. The error estimate n·u·ρ·|Pf| (ρ: growth of the
/// entries) mirrors the backward-error estimate of LU; it is an estimate, not a proven bound.
/// Same contract as pfaffian_exact otherwise.
FloatOutcome pfaffian_real(const SparseMatrix<double>& a, const run::EngineRun& run);
FloatOutcome pfaffian_complex(const SparseMatrix<std::complex<double>>& a,
                              const run::EngineRun& run);

/// log2 of the bound on |haf(A)| the Pfaffian engines size their primes by: the smaller of the
/// general hafnian bound and Hadamard's on any K oriented from A, ¼ Σ_v log2 Σ_u a_uv² (which
/// holds for each Pfaffian of a surface and so for their combination). 0 rows: −inf terms
/// make it −inf (no perfect matching).
double pfaffian_bound_log2(const SparseMatrix<std::int64_t>& a);

/// haf(A) for a symmetric matrix whose off-diagonal nonzero pattern is drawn by `embedding`
/// (vertex v is row v; rotations may name neighbours whose entry is 0), on a surface of genus g
/// with components of genus at most kMaxComponentGenus: 2^−g · Σ (−1)^Arf · ε · Pf over 4^g
/// Kasteleyn orientations (surface.hpp). Exact as pfaffian_exact (the same bound holds for each
/// Pfaffian, the primes shared by the orientations); in double as pfaffian_real, the terms' error
/// estimates added. Genus 0 is FKT with the given embedding. InvalidArgument when the embedding
/// does not fit the pattern (surface_genus) or a component's genus is too high.
ExactOutcome surface_pfaffian_exact(const SparseMatrix<std::int64_t>& a, const Embedding& embedding,
                                    const run::EngineRun& run);
FloatOutcome surface_pfaffian_real(const SparseMatrix<double>& a, const Embedding& embedding);
FloatOutcome surface_pfaffian_complex(const SparseMatrix<std::complex<double>>& a,
                                      const Embedding& embedding);

}  // namespace pmcount::exact
