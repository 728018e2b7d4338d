// The torus tiling's check (see torus_cells.hpp).
//
// Phases: (1) each vertex's grouped cell and site from TorusCells::place, checked to be a
// permutation; (2) each edge's class (from, to, di, dj) up to reversal, with di and dj the
// shortest offsets around the torus; every class must occur once per cell with one weight — in
// a simple graph at most one edge of a class leaves a cell, so rows·cols edges of each class
// means every cell has it. Workspaces: per vertex its row, column and site (3V), per edge its
// class and flags (E), a map of the classes.
#include "exact/torus_cells.hpp"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <tuple>

namespace pmcount::exact {

WeightedEdges weighted_edges(const SparseMatrix<std::int64_t>& a) {
    std::vector<UndirectedGraph::Edge> edges;
    std::vector<std::int64_t> values;
    for (vertex_t r = 0; r < a.rows(); ++r) {
        for (edge_t e = a.row_offsets()[static_cast<std::size_t>(r)];
             e < a.row_offsets()[static_cast<std::size_t>(r) + 1]; ++e) {
            const vertex_t c = a.col_indices()[static_cast<std::size_t>(e)];
            const std::int64_t v = a.values()[static_cast<std::size_t>(e)];
            if (c > r && v != 0) {
                if (a.at(c, r) != v) {
                    return {UndirectedGraph(0, {}), {}};  // not symmetric: no tiling holds
                }
                edges.emplace_back(r, c);
                values.push_back(v);
            }
        }
    }
    return {UndirectedGraph(a.rows(), edges), std::move(values)};
}

namespace {

/// d modulo n as the offset of least magnitude (ties to the positive side).
vertex_t centered(vertex_t d, vertex_t n) {
    d %= n;
    if (d < 0) {
        d += n;
    }
    return 2 * d > n ? d - n : d;
}

}  // namespace

std::optional<CellTiling> cell_tiling(const WeightedEdges& edges, const TorusCells& cells,
                                      vertex_t fa, vertex_t fb) {
    const vertex_t n = edges.graph.num_vertices();
    if (cells.rows <= 0 || cells.cols <= 0 || cells.sites <= 0 || n == 0 ||
        std::int64_t{cells.rows} * cells.cols * cells.sites != n ||
        (!cells.place.empty() && cells.place.size() != static_cast<std::size_t>(n)) ||
        cells.rows % fa != 0 || cells.cols % fb != 0) {
        return std::nullopt;
    }
    CellTiling t;
    t.rows = cells.rows / fa;
    t.cols = cells.cols / fb;
    t.sites = cells.sites * fa * fb;
    if (t.rows < 3 || t.cols < 3) {
        return std::nullopt;
    }
    // (1)
    const auto size = static_cast<std::size_t>(n);
    t.row.resize(size);
    t.col.resize(size);
    t.site.resize(size);
    std::vector<char> taken(size, 0);
    for (vertex_t v = 0; v < n; ++v) {
        const vertex_t q = cells.place.empty() ? v : cells.place[static_cast<std::size_t>(v)];
        if (q < 0 || q >= n || taken[static_cast<std::size_t>(q)] != 0) {
            return std::nullopt;
        }
        taken[static_cast<std::size_t>(q)] = 1;
        const vertex_t cell = q / cells.sites, i = cell / cells.cols, j = cell % cells.cols;
        const auto x = static_cast<std::size_t>(v);
        t.row[x] = i / fa;
        t.col[x] = j / fb;
        t.site[x] = q % cells.sites + cells.sites * ((i % fa) * fb + j % fb);
    }
    // (2)
    using Key = std::tuple<vertex_t, vertex_t, vertex_t, vertex_t>;
    std::map<Key, int> ids;
    std::vector<edge_t> count;
    const std::vector<UndirectedGraph::Edge> list = edges.graph.edges();
    for (std::size_t e = 0; e < list.size(); ++e) {
        const auto u = static_cast<std::size_t>(list[e].first);
        const auto v = static_cast<std::size_t>(list[e].second);
        const vertex_t di = centered(t.row[v] - t.row[u], t.rows);
        const vertex_t dj = centered(t.col[v] - t.col[u], t.cols);
        if (2 * std::abs(di) >= t.rows || 2 * std::abs(dj) >= t.cols) {
            return std::nullopt;
        }
        t.cross_rows.push_back(t.row[u] + di < 0 || t.row[u] + di >= t.rows ? 1 : 0);
        t.cross_cols.push_back(t.col[u] + dj < 0 || t.col[u] + dj >= t.cols ? 1 : 0);
        const Key forward{t.site[u], t.site[v], di, dj}, backward{t.site[v], t.site[u], -di, -dj};
        const Key key = std::min(forward, backward);
        const auto [it, fresh] = ids.emplace(key, static_cast<int>(ids.size()));
        const auto id = static_cast<std::size_t>(it->second);
        if (fresh) {
            const auto [from, to, ki, kj] = key;
            t.classes.push_back({from, to, ki, kj, edges.values[e]});
            count.push_back(0);
        } else if (t.classes[id].weight != edges.values[e]) {
            return std::nullopt;  // weights not invariant
        }
        ++count[id];
        t.edge_class.push_back(it->second);
        t.direction.push_back(forward == key ? 1 : -1);
    }
    const edge_t per_class = edge_t{t.rows} * t.cols;
    if (std::any_of(count.begin(), count.end(), [&](edge_t c) { return c != per_class; })) {
        return std::nullopt;
    }
    return t;
}

}  // namespace pmcount::exact
