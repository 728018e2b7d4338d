#include <algorithm>
#include <string>

#include "pmcount/error.hpp"
#include "pmcount/graph.hpp"

namespace pmcount {

namespace {

/// Counting-sort CSR of `edges` keyed by the first component; targets ascending within a row.
void build_csr(vertex_t rows, const std::vector<std::pair<vertex_t, vertex_t>>& edges,
               bool by_first, std::vector<edge_t>& offsets, std::vector<vertex_t>& targets) {
    offsets.assign(static_cast<std::size_t>(rows) + 1, 0);
    for (const auto& [u, v] : edges) {
        ++offsets[static_cast<std::size_t>(by_first ? u : v) + 1];
    }
    for (std::size_t r = 0; r < static_cast<std::size_t>(rows); ++r) {
        offsets[r + 1] += offsets[r];
    }
    targets.resize(edges.size());
    std::vector<edge_t> next(offsets.begin(), offsets.end() - 1);
    // edges are sorted by (u, v): a stable pass leaves each list ascending in both directions.
    for (const auto& [u, v] : edges) {
        const vertex_t key = by_first ? u : v;
        targets[static_cast<std::size_t>(next[static_cast<std::size_t>(key)]++)] = by_first ? v : u;
    }
}

}  // namespace

BipartiteGraph::BipartiteGraph(vertex_t n_left, vertex_t n_right, std::vector<Edge> edges)
    : n_left_(n_left), n_right_(n_right) {
    if (n_left < 0 || n_right < 0) {
        throw InvalidArgument("BipartiteGraph: negative side size");
    }
    for (const auto& [u, v] : edges) {
        if (u < 0 || u >= n_left || v < 0 || v >= n_right) {
            throw InvalidArgument("BipartiteGraph: edge (" + std::to_string(u) + ", " +
                                  std::to_string(v) + ") outside sides of size " +
                                  std::to_string(n_left) + " and " + std::to_string(n_right));
        }
    }
    if (!std::is_sorted(edges.begin(), edges.end())) {  // most callers pass them in order
        std::sort(edges.begin(), edges.end());
    }
    const auto last = std::unique(edges.begin(), edges.end());
    duplicates_merged_ = static_cast<edge_t>(edges.end() - last);
    edges.erase(last, edges.end());
    build_csr(n_left, edges, true, left_offsets_, left_adjacency_);
    build_csr(n_right, edges, false, right_offsets_, right_adjacency_);
}

ArrayView<vertex_t> BipartiteGraph::right_neighbours(vertex_t u) const noexcept {
    const auto b = left_offsets_[static_cast<std::size_t>(u)];
    const auto e = left_offsets_[static_cast<std::size_t>(u) + 1];
    return {left_adjacency_.data() + b, static_cast<std::size_t>(e - b)};
}

ArrayView<vertex_t> BipartiteGraph::left_neighbours(vertex_t v) const noexcept {
    const auto b = right_offsets_[static_cast<std::size_t>(v)];
    const auto e = right_offsets_[static_cast<std::size_t>(v) + 1];
    return {right_adjacency_.data() + b, static_cast<std::size_t>(e - b)};
}

bool BipartiteGraph::has_edge(vertex_t u, vertex_t v) const noexcept {
    if (u < 0 || u >= n_left_ || v < 0 || v >= n_right_) {
        return false;
    }
    const auto row = right_neighbours(u);
    return std::binary_search(row.begin(), row.end(), v);
}

std::vector<BipartiteGraph::Edge> BipartiteGraph::edges() const {
    std::vector<Edge> out;
    out.reserve(left_adjacency_.size());
    for (vertex_t u = 0; u < n_left_; ++u) {
        for (const vertex_t v : right_neighbours(u)) {
            out.emplace_back(u, v);
        }
    }
    return out;
}

Digraph::Digraph(vertex_t n, std::vector<Arc> arcs) : adjacency_(n, n, std::move(arcs)) {}

UndirectedGraph::UndirectedGraph(vertex_t n, std::vector<Edge> edges) : n_(n) {
    if (n < 0) {
        throw InvalidArgument("UndirectedGraph: negative number of vertices");
    }
    for (auto& [u, v] : edges) {
        if (u < 0 || u >= n || v < 0 || v >= n) {
            throw InvalidArgument("UndirectedGraph: edge {" + std::to_string(u) + ", " +
                                  std::to_string(v) + "} outside [0, " + std::to_string(n) + ")");
        }
        if (u == v) {
            throw InvalidArgument("UndirectedGraph: self-loop at vertex " + std::to_string(u) +
                                  " (no perfect matching can use it)");
        }
        if (u > v) {
            std::swap(u, v);
        }
    }
    if (!std::is_sorted(edges.begin(), edges.end())) {  // most callers pass them in order
        std::sort(edges.begin(), edges.end());
    }
    const auto last = std::unique(edges.begin(), edges.end());
    duplicates_merged_ = static_cast<edge_t>(edges.end() - last);
    edges.erase(last, edges.end());
    // Both directions, sorted by (tail, head): one CSR holds every adjacency list ascending.
    std::vector<Edge> both;
    both.reserve(2 * edges.size());
    for (const auto& [u, v] : edges) {
        both.emplace_back(u, v);
        both.emplace_back(v, u);
    }
    std::sort(both.begin(), both.end());
    build_csr(n, both, true, offsets_, adjacency_);
}

ArrayView<vertex_t> UndirectedGraph::neighbours(vertex_t v) const noexcept {
    const auto b = offsets_[static_cast<std::size_t>(v)];
    const auto e = offsets_[static_cast<std::size_t>(v) + 1];
    return {adjacency_.data() + b, static_cast<std::size_t>(e - b)};
}

bool UndirectedGraph::has_edge(vertex_t u, vertex_t v) const noexcept {
    if (u < 0 || u >= n_ || v < 0 || v >= n_) {
        return false;
    }
    const auto list = neighbours(u);
    return std::binary_search(list.begin(), list.end(), v);
}

std::vector<UndirectedGraph::Edge> UndirectedGraph::edges() const {
    std::vector<Edge> out;
    out.reserve(adjacency_.size() / 2);
    for (vertex_t u = 0; u < n_; ++u) {
        for (const vertex_t v : neighbours(u)) {
            if (u < v) {
                out.emplace_back(u, v);
            }
        }
    }
    return out;
}

}  // namespace pmcount
