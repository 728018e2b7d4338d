// Multiple minimum degree ordering of a symmetric sparsity pattern (library-internal): the
// fill-reducing order shared by the sparse determinant and the sparse Pfaffian.
//
// Liu's multiple minimum degree (ACM TOMS 11, 1985) as Boost.Graph's minimum_degree_ordering,
// with delta = 0 (several nodes of exactly the minimum degree eliminated per round). On planar
// graphs it fills like nested dissection in practice: O(n log n) entries, O(n^1.5) operations
// (George & Liu, "Computer Solution of Large Sparse Positive Definite Systems", 1981, ch. 8).
// Cost: O(fill) time in practice; workspaces: the arc list (2 per edge) and five arrays of n.
#pragma once

#include <utility>
#include <vector>

#include "pmcount/types.hpp"

namespace pmcount::numeric {

/// The elimination order (position k → node) of the graph on [0, n) with the given edges (any
/// orientation; loops and repeats are ignored).
std::vector<vertex_t> minimum_degree_ordering(vertex_t n,
                                              std::vector<std::pair<vertex_t, vertex_t>> edges);

}  // namespace pmcount::numeric
