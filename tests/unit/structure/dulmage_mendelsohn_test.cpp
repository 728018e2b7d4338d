// Dulmage–Mendelsohn: triangular form, and the defining property of the fine blocks checked by
// brute force: an edge lies in some perfect matching exactly when it joins a block to itself.
#include <gtest/gtest.h>

#include <random>

#include "exact/brute_force.hpp"
#include "pmcount/structure.hpp"

namespace pmcount {
namespace {

BipartiteGraph random_graph(vertex_t left, vertex_t right, double density, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::bernoulli_distribution coin(density);
    std::vector<BipartiteGraph::Edge> edges;
    for (vertex_t u = 0; u < left; ++u) {
        for (vertex_t v = 0; v < right; ++v) {
            if (coin(rng)) {
                edges.emplace_back(u, v);
            }
        }
    }
    return {left, right, edges};
}

/// Position of every vertex in the permuted order.
std::vector<vertex_t> positions(const std::vector<vertex_t>& order) {
    std::vector<vertex_t> pos(order.size());
    for (std::size_t k = 0; k < order.size(); ++k) {
        pos[static_cast<std::size_t>(order[k])] = static_cast<vertex_t>(k);
    }
    return pos;
}

/// Coarse part (0 horizontal, 1 square, 2 vertical) of a permuted position.
int coarse(const vertex_t (&bounds)[4], vertex_t position) {
    return position < bounds[1] ? 0 : position < bounds[2] ? 1 : 2;
}

void expect_block_upper_triangular(const BipartiteGraph& g, const DMDecomposition& dm) {
    ASSERT_EQ(dm.row_order.size(), static_cast<std::size_t>(g.n_left()));
    ASSERT_EQ(dm.col_order.size(), static_cast<std::size_t>(g.n_right()));
    const auto row_pos = positions(dm.row_order), col_pos = positions(dm.col_order);
    for (const auto& [u, v] : g.edges()) {
        const int pr = coarse(dm.rr, row_pos[static_cast<std::size_t>(u)]);
        const int pc = coarse(dm.cc, col_pos[static_cast<std::size_t>(v)]);
        EXPECT_LE(pr, pc) << "edge (" << u << ", " << v << ") below the coarse diagonal";
        if (pr == 1 && pc == 1) {
            EXPECT_LE(dm.row_block[static_cast<std::size_t>(u)], dm.col_block[static_cast<std::size_t>(v)])
                << "edge (" << u << ", " << v << ") below the fine diagonal";
        }
    }
    // Square part: blocks are square, and the matching is their diagonal.
    for (int b = 0; b < dm.num_blocks(); ++b) {
        const auto k = static_cast<std::size_t>(b);
        ASSERT_EQ(dm.row_block_start[k + 1] - dm.row_block_start[k],
                  dm.col_block_start[k + 1] - dm.col_block_start[k]);
        for (vertex_t p = dm.row_block_start[k]; p < dm.row_block_start[k + 1]; ++p) {
            const vertex_t u = dm.row_order[static_cast<std::size_t>(p)];
            const vertex_t v = dm.col_order[static_cast<std::size_t>(dm.col_block_start[k] + p - dm.row_block_start[k])];
            EXPECT_EQ(dm.matching.row_match[static_cast<std::size_t>(u)], v);
        }
    }
}

TEST(DulmageMendelsohn, TriangularFormOnRandomGraphs) {
    for (std::uint64_t seed = 0; seed < 300; ++seed) {
        const vertex_t left = 1 + static_cast<vertex_t>(seed % 19);
        const vertex_t right = 1 + static_cast<vertex_t>((seed * 5) % 19);
        const BipartiteGraph g = random_graph(left, right, 0.05 + 0.01 * static_cast<double>(seed % 15), seed);
        const DMDecomposition dm = dulmage_mendelsohn(g);
        SCOPED_TRACE("seed " + std::to_string(seed));
        expect_block_upper_triangular(g, dm);
        EXPECT_EQ(dm.rr[3], left);
        EXPECT_EQ(dm.cc[3], right);
        EXPECT_EQ(dm.rr[2] - dm.rr[1], dm.cc[2] - dm.cc[1]);  // the square part is square
        // Horizontal part has more columns than rows, vertical more rows than columns (or is empty).
        EXPECT_TRUE(dm.rr[1] == 0 && dm.cc[1] == 0 ? true : dm.cc[1] > dm.rr[1]);
        EXPECT_TRUE(dm.rr[3] == dm.rr[2] && dm.cc[3] == dm.cc[2] ? true
                                                                 : dm.rr[3] - dm.rr[2] > dm.cc[3] - dm.cc[2]);
    }
}

TEST(DulmageMendelsohn, FineBlocksAreExactlyTheEdgesOfPerfectMatchings) {
    int checked = 0;
    for (std::uint64_t seed = 0; seed < 400 && checked < 120; ++seed) {
        const vertex_t n = 2 + static_cast<vertex_t>(seed % 7);
        BipartiteGraph g = random_graph(n, n, 0.35, 5000 + seed);
        const DMDecomposition dm = dulmage_mendelsohn(g);
        if (!dm.has_perfect_matching()) {
            continue;
        }
        ++checked;
        const auto a = biadjacency_matrix(g);
        edge_t outside = 0;
        for (const auto& [u, v] : g.edges()) {
            // (u, v) is in a perfect matching ⇔ perm of A without row u and column v is nonzero.
            DenseMatrix<std::int64_t> minor(n - 1, n - 1);
            for (vertex_t i = 0, r = 0; i < n; ++i) {
                if (i == u) {
                    continue;
                }
                for (vertex_t j = 0, c = 0; j < n; ++j) {
                    if (j != v) {
                        minor(r, c++) = a(i, j);
                    }
                }
                ++r;
            }
            const bool in_matching = !exact::brute_force_exact(minor).is_zero();
            const bool same_block =
                dm.row_block[static_cast<std::size_t>(u)] == dm.col_block[static_cast<std::size_t>(v)];
            EXPECT_EQ(in_matching, same_block) << "seed " << seed << " edge (" << u << ", " << v << ")";
            outside += same_block ? 0 : 1;
        }
        EXPECT_EQ(dm.dropped_edges, outside);
    }
    EXPECT_GE(checked, 100);
}

TEST(DulmageMendelsohn, LowerTriangularSplitsIntoSingletons) {
    const vertex_t n = 30;
    std::vector<BipartiteGraph::Edge> edges;
    for (vertex_t i = 0; i < n; ++i) {
        for (vertex_t j = 0; j <= i; ++j) {
            edges.emplace_back(i, j);
        }
    }
    const DMDecomposition dm = dulmage_mendelsohn(BipartiteGraph(n, n, edges));
    EXPECT_EQ(dm.num_blocks(), n);
    EXPECT_EQ(dm.dropped_edges, static_cast<edge_t>(edges.size()) - n);  // only the diagonal stays
}

TEST(DulmageMendelsohn, NoPerfectMatchingHasCoarseParts) {
    // Rows 0, 1 both reach only column 0; column 2 is reachable only from row 2.
    const BipartiteGraph g(3, 3, {{0, 0}, {1, 0}, {2, 1}, {2, 2}});
    const DMDecomposition dm = dulmage_mendelsohn(g);
    EXPECT_FALSE(dm.has_perfect_matching());
    EXPECT_EQ(dm.rr[1], 1);               // horizontal: row 2 with columns 1, 2
    EXPECT_EQ(dm.cc[1], 2);
    EXPECT_EQ(dm.rr[3] - dm.rr[2], 2);    // vertical: rows 0, 1 with column 0
    EXPECT_EQ(dm.cc[3] - dm.cc[2], 1);
    expect_block_upper_triangular(g, dm);
}

TEST(DulmageMendelsohn, LongCycleIsOneBlockWithoutRecursion) {
    // 300000 rows in one strongly connected component: Tarjan must be iterative.
    const vertex_t n = 300000;
    std::vector<BipartiteGraph::Edge> edges;
    for (vertex_t u = 0; u < n; ++u) {
        edges.emplace_back(u, u);
        edges.emplace_back(u, (u + 1) % n);
    }
    const DMDecomposition dm = dulmage_mendelsohn(BipartiteGraph(n, n, edges));
    EXPECT_EQ(dm.num_blocks(), 1);
    EXPECT_EQ(dm.dropped_edges, 0);
}

}  // namespace
}  // namespace pmcount
