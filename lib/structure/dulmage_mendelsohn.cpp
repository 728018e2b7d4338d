// dulmage_mendelsohn: coarse and fine Dulmage–Mendelsohn decomposition of a bipartite graph
// (Dulmage & Mendelsohn, "Coverings of bipartite graphs", Canad. J. Math. 10, 1958; the layout
// of the result follows Davis's cs_dmperm, "Direct Methods for Sparse Linear Systems", 2006).
//
// Phases:
//   1. maximum matching (Hopcroft–Karp);
//   2. coarse: horizontal part = alternating reach of unmatched right vertices (right → any left
//      neighbour → its matched right vertex), vertical part = alternating reach of unmatched left
//      vertices; the rest is the square part, perfectly matched within itself;
//   3. fine: strongly connected components of the square part's left vertices, with an arc
//      u → w whenever u is adjacent to the right vertex matched to w (matching edges oriented
//      row → column, the others column → row, with each matched pair contracted). Tarjan's
//      algorithm, iterative (no recursion depth limit), O(V + E);
//   4. orders: blocks in topological order (Tarjan emits sinks first, so reversed), each
//      block's columns in the order of its rows' matches, so the matching is the diagonal.
//
// Workspaces (n = left, m = right vertices): part_row[n], part_col[m] (coarse part of each
// vertex); index[n], lowlink[n], on_stack[n], tarjan_stack[n], call stack of (vertex, next
// adjacency slot) pairs [≤ n]; component[n].
#include <algorithm>

#include "pmcount/structure.hpp"
#include "core/stop.hpp"

namespace pmcount {

namespace {

enum Part : char { horizontal = 0, square = 1, vertical = 2 };

/// Alternating reach: from the start vertices on one side, along every edge to the other side
/// and back along matching edges. Marks reached vertices of both sides with `part`.
void alternating_reach(const BipartiteGraph& g, const Matching& m, bool from_left,
                       std::vector<char>& part_row, std::vector<char>& part_col, Part part) {
    std::vector<vertex_t> queue;
    const vertex_t starts = from_left ? g.n_left() : g.n_right();
    const auto& own_match = from_left ? m.row_match : m.col_match;
    auto& own_part = from_left ? part_row : part_col;
    auto& other_part = from_left ? part_col : part_row;
    for (vertex_t x = 0; x < starts; ++x) {
        if (own_match[static_cast<std::size_t>(x)] < 0) {
            own_part[static_cast<std::size_t>(x)] = part;
            queue.push_back(x);
        }
    }
    const auto& back_match = from_left ? m.col_match : m.row_match;
    for (std::size_t head = 0; head < queue.size(); ++head) {
        const vertex_t x = queue[head];
        const auto neighbours = from_left ? g.right_neighbours(x) : g.left_neighbours(x);
        for (const vertex_t y : neighbours) {
            if (other_part[static_cast<std::size_t>(y)] == part) {
                continue;
            }
            other_part[static_cast<std::size_t>(y)] = part;
            const vertex_t z = back_match[static_cast<std::size_t>(y)];
            if (z >= 0 && own_part[static_cast<std::size_t>(z)] != part) {
                own_part[static_cast<std::size_t>(z)] = part;
                queue.push_back(z);
            }
        }
    }
}

/// Tarjan's SCCs of the square part's left vertices (arcs as in the file comment). Returns the
/// component of each left vertex (−1 outside the square part) numbered in emission order, i.e.
/// reverse topological order, and the number of components.
int square_components(const BipartiteGraph& g, const Matching& m, const std::vector<char>& part_row,
                      const std::vector<char>& part_col, std::vector<int>& component) {
    const vertex_t n = g.n_left();
    const auto& offsets = g.left_offsets();
    const auto& adjacency = g.left_adjacency();
    constexpr vertex_t kUnvisited = -1;
    std::vector<vertex_t> index(static_cast<std::size_t>(n), kUnvisited),
        lowlink(static_cast<std::size_t>(n), 0);
    std::vector<char> on_stack(static_cast<std::size_t>(n), 0);
    std::vector<vertex_t> tarjan_stack;
    std::vector<std::pair<vertex_t, edge_t>> calls;  // (vertex, next adjacency slot)
    component.assign(static_cast<std::size_t>(n), -1);
    vertex_t counter = 0;
    int components = 0;

    for (vertex_t root = 0; root < n; ++root) {
        if (part_row[static_cast<std::size_t>(root)] != square ||
            index[static_cast<std::size_t>(root)] != kUnvisited) {
            continue;
        }
        calls.emplace_back(root, offsets[static_cast<std::size_t>(root)]);
        index[static_cast<std::size_t>(root)] = lowlink[static_cast<std::size_t>(root)] = counter++;
        tarjan_stack.push_back(root);
        on_stack[static_cast<std::size_t>(root)] = 1;
        while (!calls.empty()) {
            auto& [u, slot] = calls.back();
            const auto us = static_cast<std::size_t>(u);
            bool descended = false;
            while (slot < offsets[us + 1]) {
                const vertex_t v = adjacency[static_cast<std::size_t>(slot++)];
                if (part_col[static_cast<std::size_t>(v)] != square) {
                    continue;
                }
                const vertex_t w = m.col_match[static_cast<std::size_t>(v)];
                const auto ws = static_cast<std::size_t>(w);
                if (w == u) {
                    continue;
                }
                if (index[ws] == kUnvisited) {
                    if ((counter & 0xffff) == 0) {
                        pmcount::detail::throw_if_stopped("computing the Dulmage–Mendelsohn decomposition");
                    }
                    index[ws] = lowlink[ws] = counter++;
                    tarjan_stack.push_back(w);
                    on_stack[ws] = 1;
                    calls.emplace_back(w, offsets[ws]);
                    descended = true;
                    break;
                }
                if (on_stack[ws] != 0) {
                    lowlink[us] = std::min(lowlink[us], index[ws]);
                }
            }
            if (descended) {
                continue;
            }
            // u is finished: emit its component if it is a root, then return to the caller.
            if (lowlink[us] == index[us]) {
                vertex_t w;
                do {
                    w = tarjan_stack.back();
                    tarjan_stack.pop_back();
                    on_stack[static_cast<std::size_t>(w)] = 0;
                    component[static_cast<std::size_t>(w)] = components;
                } while (w != u);
                ++components;
            }
            const vertex_t finished_low = lowlink[us];
            calls.pop_back();
            if (!calls.empty()) {
                const auto parent = static_cast<std::size_t>(calls.back().first);
                lowlink[parent] = std::min(lowlink[parent], finished_low);
            }
        }
    }
    return components;
}

}  // namespace

DMDecomposition dulmage_mendelsohn(const BipartiteGraph& g) {
    DMDecomposition dm;
    dm.matching = maximum_matching(g);
    const Matching& m = dm.matching;
    const auto n = static_cast<std::size_t>(g.n_left());
    const auto nc = static_cast<std::size_t>(g.n_right());

    std::vector<char> part_row(n, square), part_col(nc, square);
    alternating_reach(g, m, false, part_row, part_col, horizontal);
    alternating_reach(g, m, true, part_row, part_col, vertical);

    std::vector<int> component;
    const int blocks = square_components(g, m, part_row, part_col, component);

    // Orders: horizontal, square blocks in topological order (reverse emission), vertical.
    auto block_of = [&](std::size_t u) { return blocks - 1 - component[u]; };
    std::vector<vertex_t> square_rows;
    for (std::size_t u = 0; u < n; ++u) {
        if (part_row[u] == horizontal) {
            dm.row_order.push_back(static_cast<vertex_t>(u));
        } else if (part_row[u] == square) {
            square_rows.push_back(static_cast<vertex_t>(u));
        }
    }
    for (std::size_t v = 0; v < nc; ++v) {
        if (part_col[v] == horizontal) {
            dm.col_order.push_back(static_cast<vertex_t>(v));
        }
    }
    dm.rr[1] = static_cast<vertex_t>(dm.row_order.size());
    dm.cc[1] = static_cast<vertex_t>(dm.col_order.size());
    std::stable_sort(square_rows.begin(), square_rows.end(), [&](vertex_t a, vertex_t b) {
        return block_of(static_cast<std::size_t>(a)) < block_of(static_cast<std::size_t>(b));
    });
    dm.row_block.assign(n, -1);
    dm.col_block.assign(nc, -1);
    for (std::size_t k = 0; k < square_rows.size(); ++k) {
        const vertex_t u = square_rows[k];
        const int b = block_of(static_cast<std::size_t>(u));
        if (static_cast<int>(dm.row_block_start.size()) == b) {
            dm.row_block_start.push_back(static_cast<vertex_t>(dm.row_order.size()));
            dm.col_block_start.push_back(static_cast<vertex_t>(dm.col_order.size()));
        }
        const vertex_t v = m.row_match[static_cast<std::size_t>(u)];
        dm.row_order.push_back(u);
        dm.col_order.push_back(v);
        dm.row_block[static_cast<std::size_t>(u)] = b;
        dm.col_block[static_cast<std::size_t>(v)] = b;
    }
    dm.row_block_start.push_back(static_cast<vertex_t>(dm.row_order.size()));
    dm.col_block_start.push_back(static_cast<vertex_t>(dm.col_order.size()));
    dm.rr[2] = static_cast<vertex_t>(dm.row_order.size());
    dm.cc[2] = static_cast<vertex_t>(dm.col_order.size());
    for (std::size_t u = 0; u < n; ++u) {
        if (part_row[u] == vertical) {
            dm.row_order.push_back(static_cast<vertex_t>(u));
        }
    }
    for (std::size_t v = 0; v < nc; ++v) {
        if (part_col[v] == vertical) {
            dm.col_order.push_back(static_cast<vertex_t>(v));
        }
    }
    dm.rr[3] = g.n_left();
    dm.cc[3] = g.n_right();

    for (const vertex_t u : square_rows) {
        for (const vertex_t v : g.right_neighbours(u)) {
            const int bv = dm.col_block[static_cast<std::size_t>(v)];
            if (bv >= 0 && bv != dm.row_block[static_cast<std::size_t>(u)]) {
                ++dm.dropped_edges;
            }
        }
    }
    return dm;
}

}  // namespace pmcount
