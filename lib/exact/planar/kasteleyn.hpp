// Kasteleyn signings of planar bipartite graphs (library-internal).
//
// Kasteleyn (1967) and Percus (1969): if every inner face of a plane bipartite graph with
// boundary length 2ℓ carries a number of negative edges ≡ ℓ + 1 (mod 2), then all perfect
// matchings σ have the same sign sgn(σ)·Π s(u, σ(u)), so for the signed biadjacency matrix
// K = S ∘ A (any entries a_uv, not only 0-1)
//     perm(A) = c · det(K),   c = sgn(σ₀) · Π_u s(u, σ₀(u))  for any one perfect matching σ₀.
// The signs come from a spanning forest (all +1) and its complement, which is a spanning tree of
// the dual: faces are fixed leaves first, each by its one edge to the parent face (Lovász &
// Plummer, "Matching Theory", §8.3). Faces are simple cycles because the signing is built on the
// edges that lie in some perfect matching: the elementary components (fine Dulmage–Mendelsohn
// blocks), which are 2-connected (Lovász–Plummer Thm 4.1.1). Edges in no perfect matching are
// dropped (sign 0): they do not change the permanent.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "pmcount/graph.hpp"

namespace pmcount::exact {

/// Boyer–Myrvold planarity test of the graph on left + right vertices, O(V + E).
bool is_planar(const BipartiteGraph& graph);

struct KasteleynSigning {
    /// Per edge, in the order of graph.left_adjacency(): +1, −1, or 0 for an edge in no perfect
    /// matching.
    std::vector<std::int8_t> sign;
    /// perm(A) = constant · det(S ∘ A); 0 when the graph has no perfect matching.
    int constant = 0;
    /// The perfect matching σ₀ behind `constant`, by column: col_match[v] = σ₀⁻¹(v) (empty when
    /// there is none).
    std::vector<vertex_t> col_match;
};

/// The signing of a balanced bipartite graph, or nullopt when it is not planar. O(E·√V) for
/// the matching and the decomposition, O(V + E) for embedding, faces and signs.
std::optional<KasteleynSigning> kasteleyn_signing(const BipartiteGraph& graph);

}  // namespace pmcount::exact
