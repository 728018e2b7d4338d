// split_at_cut_vertices: the blocks (biconnected components) of a graph by Hopcroft and Tarjan's
// depth-first search ("Efficient algorithms for graph manipulation", Comm. ACM 16(6), 1973),
// then the parity rule of general.hpp that assigns every vertex to the one block it is matched
// into by every perfect matching.
//
// Why the rule holds: for a child block B of c (in the DFS tree rooted at the component's smallest
// vertex), the vertices hanging below c through B form a component of G − c; they can only be
// matched among themselves or to c, through an edge of B. If their number is odd, c must be
// matched into B; if even, c must not be. So c goes to its unique odd child block, or with none to
// its parent block, and two or more odd child blocks leave no perfect matching. Every edge joining
// two vertices of one block belongs to that block, so G[piece_B] has only edges of B.
//
// Phases:
//   1. DFS, iterative: discovery times, low points, subtree sizes; when a child w of v finishes
//      with low(w) ≥ disc(v), the vertices above w on the vertex stack are a block with head v,
//      and the subtree of w (size(w) vertices) hangs below v through it;
//   2. parity: odd components of G (witness ∅), else the smallest vertex with two or more odd
//      child blocks (witness {c}); the odd components are read off the DFS order as ranges;
//   3. pieces: each vertex goes to its odd child block, else to its parent block; pieces are
//      gathered in vertex order, so each is ascending and they come ordered by smallest vertex.
//
// Complexity O(V + E). Workspaces (n = vertices): disc[n], low[n], size[n] (DFS subtree sizes),
// dfs_parent[n], next_slot[n] (each vertex's next adjacency slot: the iterative DFS's call
// stack state), call_stack[≤ n], vertex_stack[≤ n], order[n] (vertices by discovery time),
// parent_block[n] (the block through which a non-root vertex hangs below its head), odd_child[n]
// and odd_children[n] (the odd child block of each vertex and how many it has), block_head,
// block_child (the DFS child w that closed the block) and block_piece per block (≤ n − 1 blocks);
// for a witness c, below_child_block[n] marks the vertices hanging below c's child blocks.
#include <algorithm>

#include "core/stop.hpp"
#include "structure/general.hpp"

namespace pmcount::structure {

namespace {

/// Vertices whose discovery time lies in [first, last), ascending.
std::vector<vertex_t> vertices_in_order_range(const std::vector<vertex_t>& order, vertex_t first,
                                              vertex_t last) {
    std::vector<vertex_t> out(order.begin() + first, order.begin() + last);
    std::sort(out.begin(), out.end());
    return out;
}

bool by_smallest_vertex(const std::vector<vertex_t>& a, const std::vector<vertex_t>& b) {
    return a.front() < b.front();
}

}  // namespace

CutVertexSplit split_at_cut_vertices(const UndirectedGraph& graph) {
    const vertex_t n = graph.num_vertices();
    const auto un = static_cast<std::size_t>(n);
    const auto& offsets = graph.offsets();
    const auto& adjacency = graph.adjacency();
    std::vector<vertex_t> disc(un, -1), low(un, 0), size(un, 1), dfs_parent(un, -1);
    std::vector<edge_t> next_slot(offsets.begin(), offsets.end() - 1);
    std::vector<vertex_t> call_stack, vertex_stack, order, roots;
    std::vector<vertex_t> parent_block(un, -1), odd_child(un, -1), odd_children(un, 0);
    std::vector<vertex_t> block_head, block_child;
    order.reserve(un);

    // Phase 1: blocks.
    for (vertex_t root = 0; root < n; ++root) {
        if (disc[static_cast<std::size_t>(root)] >= 0) {
            continue;
        }
        roots.push_back(root);
        const auto discover = [&](vertex_t v) {
            if ((order.size() & 0xffff) == 0) {
                pmcount::detail::throw_if_stopped("splitting the graph at its cut vertices");
            }
            disc[static_cast<std::size_t>(v)] = low[static_cast<std::size_t>(v)] =
                static_cast<vertex_t>(order.size());
            order.push_back(v);
            call_stack.push_back(v);
            vertex_stack.push_back(v);
        };
        discover(root);
        while (!call_stack.empty()) {
            const vertex_t v = call_stack.back();
            const auto vs = static_cast<std::size_t>(v);
            if (next_slot[vs] < offsets[vs + 1]) {
                const vertex_t w = adjacency[static_cast<std::size_t>(next_slot[vs]++)];
                if (disc[static_cast<std::size_t>(w)] < 0) {
                    dfs_parent[static_cast<std::size_t>(w)] = v;
                    discover(w);
                } else {
                    // A back edge, or the tree edge to the parent: lowering low(v) to disc(parent)
                    // leaves the block test low(v) ≥ disc(parent) unchanged (only bridge finding
                    // must skip the parent edge).
                    low[vs] = std::min(low[vs], disc[static_cast<std::size_t>(w)]);
                }
                continue;
            }
            call_stack.pop_back();
            if (call_stack.empty()) {
                vertex_stack.pop_back();  // the root, alone on the stack, heads its blocks
                break;
            }
            const vertex_t p = call_stack.back();
            const auto ps = static_cast<std::size_t>(p);
            size[ps] += size[vs];
            low[ps] = std::min(low[ps], low[vs]);
            if (low[vs] >= disc[ps]) {
                const auto block = static_cast<vertex_t>(block_head.size());
                block_head.push_back(p);
                block_child.push_back(v);
                vertex_t u;
                do {
                    u = vertex_stack.back();
                    vertex_stack.pop_back();
                    parent_block[static_cast<std::size_t>(u)] = block;
                } while (u != v);
                if (size[vs] % 2 == 1) {
                    odd_child[ps] = block;
                    ++odd_children[ps];
                }
            }
        }
    }

    // Phase 2: parity.
    CutVertexSplit split;
    for (const vertex_t r : roots) {
        const auto rs = static_cast<std::size_t>(r);
        if (size[rs] % 2 == 1) {
            split.odd_components.push_back(
                vertices_in_order_range(order, disc[rs], disc[rs] + size[rs]));
        }
    }
    if (split.odd_components.empty()) {
        for (vertex_t c = 0; c < n && split.witness < 0; ++c) {
            if (odd_children[static_cast<std::size_t>(c)] >= 2) {
                split.witness = c;
            }
        }
        if (split.witness >= 0) {
            // G − c: one component per child block of c, and the rest of c's component (its
            // ancestors with everything else hanging from them) unless c is the root.
            std::vector<char> below_child_block(un, 0);
            for (std::size_t b = 0; b < block_head.size(); ++b) {
                if (block_head[b] != split.witness) {
                    continue;
                }
                const auto ws = static_cast<std::size_t>(block_child[b]);
                for (vertex_t t = disc[ws]; t < disc[ws] + size[ws]; ++t) {
                    below_child_block[static_cast<std::size_t>(
                        order[static_cast<std::size_t>(t)])] = 1;
                }
                if (size[ws] % 2 == 1) {
                    split.odd_components.push_back(
                        vertices_in_order_range(order, disc[ws], disc[ws] + size[ws]));
                }
            }
            vertex_t r = split.witness;
            while (dfs_parent[static_cast<std::size_t>(r)] >= 0) {
                r = dfs_parent[static_cast<std::size_t>(r)];
            }
            std::vector<vertex_t> rest;
            for (vertex_t t = disc[static_cast<std::size_t>(r)];
                 t < disc[static_cast<std::size_t>(r)] + size[static_cast<std::size_t>(r)]; ++t) {
                const vertex_t u = order[static_cast<std::size_t>(t)];
                if (u != split.witness && below_child_block[static_cast<std::size_t>(u)] == 0) {
                    rest.push_back(u);
                }
            }
            if (rest.size() % 2 == 1) {
                std::sort(rest.begin(), rest.end());
                split.odd_components.push_back(std::move(rest));
            }
        }
    }
    if (!split.odd_components.empty()) {
        split.feasible = false;
        std::sort(split.odd_components.begin(), split.odd_components.end(), by_smallest_vertex);
        return split;
    }

    // Phase 3: pieces.
    std::vector<vertex_t> block_piece(block_head.size(), -1);
    for (vertex_t v = 0; v < n; ++v) {
        const auto vs = static_cast<std::size_t>(v);
        const vertex_t block = odd_children[vs] == 1 ? odd_child[vs] : parent_block[vs];
        vertex_t& piece = block_piece[static_cast<std::size_t>(block)];
        if (piece < 0) {
            piece = static_cast<vertex_t>(split.pieces.size());
            split.pieces.emplace_back();
        }
        split.pieces[static_cast<std::size_t>(piece)].push_back(v);
    }
    return split;
}

}  // namespace pmcount::structure
