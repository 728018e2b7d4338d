// What a plan, a node or a leaf computes. Library-internal.
#pragma once

namespace pmcount::plan {

/// perm of a square matrix (bipartite graphs, digraphs, matrices), or haf of a symmetric one
/// (general graphs).
enum class Problem { permanent, hafnian };

}  // namespace pmcount::plan
