// Perfect matchings of a graph embedded on an orientable surface: a signed sum of 4^g Pfaffians
// (library-internal; the Pfaffians themselves are computed in pfaffian.cpp).
//
// Kasteleyn (1963) for the torus; Galluccio & Loebl (1999) and Tesler (2000) for genus g; the
// form used here is Cimasoni & Reshetikhin's ("Dimers on surface graphs and spin structures I",
// Comm. Math. Phys. 275, 2007).
//
// An orientation is Kasteleyn when every face has an odd number of darts along it. On a surface
// of genus g the Kasteleyn orientations fall into 2^(2g) classes: they are built as FKT builds the
// planar one (tree edges fixed, faces fixed leaves first through a spanning tree of the dual),
// except that 2g non-tree edges lie in no dual tree (tree–cotree decomposition, Eppstein 2003);
// their 2^(2g) orientations give one orientation of each class. A Kasteleyn orientation K and
// a perfect matching M₀ define, for an oriented simple cycle C of the graph,
//     q(C) = #{edges of C oriented along C} + #{v ∈ C whose M₀-partner lies on the left of C} + 1
// modulo 2, "left" being the side whose faces walk C in C's direction: at v, reached from u and
// left towards w, the neighbours strictly after u and before w in v's rotation. q depends only
// on the homology class [C] ∈ H₁(Σ; Z₂) and is a quadratic form (q(a + b) = q(a) + q(b) + a·b).
// For a perfect matching M, the cycles of M ⊕ M₀ have no M₀ edge leaving them, so the sign of
// M's term in Pf(K), relative to M₀'s, is Π (−1)^(#along + 1) = (−1)^q([M ⊕ M₀]) (the classical
// cycle lemma). With ε_K the sign of M₀'s term, ε_K·Pf(K) = Σ_M (−1)^q_K([M ⊕ M₀]) w(M), and
// since the 2^(2g) classes give every quadratic form once, and Σ_q (−1)^(Arf(q) + q(c)) = 2^g for
// every class c,
//     haf(A) = 2^−g · Σ_K (−1)^Arf(q_K) · ε_K · Pf(K).
// In the planar case (g = 0) that is FKT's haf = ε·Pf(K), and q ≡ 0 is the face-sum argument of
// pfaffian.hpp. A component of genus g has the fundamental cycles x_1 … x_2g of its leftover
// edges as a basis of H₁; with their intersection numbers x_i·x_j (one cycle pushed off to its
// left crosses the other once per edge of it leaving the cycle on the left), q on every class
// follows from q(x_i), and Arf(q) is the value q takes on the majority of the 4^g classes. (On
// the torus, a·b = 1 and Arf(q) = q(a)·q(b).) A disconnected graph is the product of its
// components, and so the signs multiply.
//
// Cost: O(V + E) per orientation besides the Pfaffians (faces, forests and q along 2g cycles),
// and O(g²(V + E)) once for the intersection numbers.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "pmcount/graph.hpp"

namespace pmcount::exact {

/// The genus an embedding gives the graph, summed over its connected components (each by
/// Euler's formula over its faces), and the largest of a component. InvalidArgument, naming the
/// vertex, when the embedding does not fit the graph: another number of vertices, a neighbour out
/// of range, repeated or the vertex itself, or an edge of the graph missing from a rotation.
/// Neighbours in a rotation that are not adjacent in the graph are dropped (a zero entry of a
/// matrix drawn with its embedding); deleting edges keeps a rotation system, of the same or a
/// smaller genus. O(V + E).
struct SurfaceGenus {
    int total = 0;
    int largest = 0;  ///< of a component
};
SurfaceGenus surface_genus(const UndirectedGraph& graph, const Embedding& embedding);

/// The largest genus of a component that surface_orientations accepts.
inline constexpr int kMaxComponentGenus = 2;

/// haf(A) = 2^−genus · Σ_i signs[i] · ε_i · Pf(K_i) for every A with the pattern `graph`, where
/// K_uv = orientations[i][e]·a_uv for edge e = (u, v), u < v, of graph.edges() (+1: u → v) and ε_i
/// is the sign of M₀'s term in Pf(K_i); `mate` is M₀, a perfect matching of the graph. 4^genus
/// orientations. InvalidArgument as surface_genus, and when a component has a genus above
/// kMaxComponentGenus.
struct SurfaceOrientations {
    int genus = 0;
    std::vector<std::vector<std::int8_t>> orientations;
    std::vector<int> signs;  ///< (−1)^Arf of each orientation's quadratic form
};
SurfaceOrientations surface_orientations(const UndirectedGraph& graph, const Embedding& embedding,
                                         const std::vector<vertex_t>& mate);

/// The signs of haf(A) = 2^−genus · Σ_i signs[i] · ε_i · Pf(K_i) for orientations the caller
/// built (the torus's Fourier engine: translation-invariant ones), as surface_orientations gives
/// them for its own: (−1)^Arf of each one's quadratic form. nullopt unless every orientation is
/// Kasteleyn on the embedding (each face odd) and there are 4^genus of them, one per class (their
/// forms differ on the homology basis), which is what the identity needs. O(4^g (V + E)).
std::optional<std::vector<int>> surface_signs(
    const UndirectedGraph& graph, const Embedding& embedding, const std::vector<vertex_t>& mate,
    const std::vector<std::vector<std::int8_t>>& orientations);

/// A Kasteleyn orientation of the embedded graph that orients every edge of a class alike: edge e
/// (graph.edges() order, +1: u → v for u < v) gets direction[e]·o[edge_class[e]] for one choice
/// of o = ±1 per class, solved over GF(2) from the faces' parities (classes 0 … classes − 1, at
/// most 63). nullopt when no such choice exists (the lattice's cell is too small: the square
/// lattice needs two sites) or the arguments do not fit the graph. O(V + E + F·classes).
std::optional<std::vector<std::int8_t>> class_kasteleyn_orientation(
    const UndirectedGraph& graph, const Embedding& embedding, const std::vector<int>& edge_class,
    const std::vector<std::int8_t>& direction, int classes);

}  // namespace pmcount::exact
