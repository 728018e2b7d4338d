// The general lattices and random regular general graphs (pmcount/generate.hpp): vertex and
// edge counts from each lattice's formula, degrees, the conventions' exact edges, short periodic
// sides merged, the torus drawings' genus (Euler's formula over their faces), seeded
// determinism, and specs (names, parameters, malformed and oversized ones). Their counts are in
// tests/oracle/lattices_test.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "exact/planar/surface.hpp"
#include "pmcount/error.hpp"
#include "pmcount/generate.hpp"

namespace pmcount {
namespace {

void expect_degree(const UndirectedGraph& g, vertex_t degree, const std::string& what) {
    for (vertex_t v = 0; v < g.num_vertices(); ++v) {
        ASSERT_EQ(g.degree(v), degree) << what << " vertex " << v;
    }
}

std::set<std::pair<vertex_t, vertex_t>> edge_set(const UndirectedGraph& g) {
    const auto edges = g.edges();
    return {edges.begin(), edges.end()};
}

TEST(GeneralLattices, TriangularCountsDegreesAndTheConventionsEdges) {
    for (const auto& [r, c] : std::vector<std::pair<int, int>>{{1, 1}, {1, 7}, {3, 4}, {6, 5}}) {
        const UndirectedGraph g = triangular_graph(r, c, false);
        EXPECT_EQ(g.num_vertices(), r * c);
        EXPECT_EQ(g.num_edges(), r * (c - 1) + (r - 1) * c + (r - 1) * (c - 1)) << r << "x" << c;
        EXPECT_EQ(g.duplicates_merged(), 0);
    }
    const UndirectedGraph t = triangular_graph(4, 5, true);
    EXPECT_EQ(t.num_edges(), 3 * 20);
    expect_degree(t, 6, "tri-torus:4x5");
    // (i, j) = i·cols + j joined to (i, j+1), (i+1, j), (i+1, j+1), indices mod the sides.
    const auto e = edge_set(t);
    EXPECT_TRUE(e.count({0, 1}) && e.count({0, 5}) && e.count({0, 6}));
    EXPECT_TRUE(e.count({0, 4}));                       // (0,4)–(0,0) wraps
    EXPECT_TRUE(e.count({4, 5}));                       // (0,4)–(1,0): the diagonal wraps
    EXPECT_TRUE(e.count({0, 15}) && e.count({0, 19}));  // (3,0) and (3,4) wrap
    EXPECT_FALSE(e.count({1, 5}));  // (0,1)–(1,0): the other diagonal is not an edge
    // A side of 2: the two wrap-around neighbours coincide and are merged.
    const UndirectedGraph short_side = triangular_graph(2, 5, true);
    EXPECT_GT(short_side.duplicates_merged(), 0);
    EXPECT_THROW(triangular_torus_embedding(2, 5), InvalidArgument);
}

TEST(GeneralLattices, BrickWallIsAThreeRegularBipartiteTorus) {
    const UndirectedGraph g = brick_wall_torus_graph(6, 8);
    EXPECT_EQ(g.num_vertices(), 48);
    EXPECT_EQ(g.num_edges(), 72);
    expect_degree(g, 3, "hex-torus:6x8");
    for (const auto& [u, v] : g.edges()) {
        EXPECT_NE((u / 8 + u % 8) % 2, (v / 8 + v % 8) % 2) << u << "–" << v;
    }
    const auto e = edge_set(g);
    EXPECT_TRUE(e.count({0, 8}));   // (0,0)–(1,0): 0 + 0 even
    EXPECT_FALSE(e.count({1, 9}));  // (0,1)–(1,1): odd, no rung
    EXPECT_TRUE(e.count({9, 17}));  // (1,1)–(2,1): even
    EXPECT_TRUE(e.count({1, 41}));  // (5,1)–(0,1) wraps: 5 + 1 even
    EXPECT_THROW(brick_wall_torus_graph(5, 8), InvalidArgument);
    EXPECT_THROW(brick_wall_torus_graph(6, 7), InvalidArgument);
}

TEST(GeneralLattices, KagomeHasThreeSitesACellAndDegreeFour) {
    for (const auto& [r, c] : std::vector<std::pair<int, int>>{{1, 1}, {2, 3}, {4, 4}}) {
        const UndirectedGraph g = kagome_graph(r, c, false);
        EXPECT_EQ(g.num_vertices(), 3 * r * c);
        EXPECT_EQ(g.num_edges(), 3 * r * c + r * (c - 1) + (r - 1) * c + (r - 1) * (c - 1));
        for (vertex_t v = 0; v < g.num_vertices(); ++v) {
            EXPECT_LE(g.degree(v), 4);
        }
    }
    const UndirectedGraph t = kagome_graph(3, 4, true);
    EXPECT_EQ(t.num_edges(), 6 * 12);
    expect_degree(t, 4, "kagome-torus:3x4");
    // Cell (i, j)'s A, B, C are 3(4i + j) + 0, 1, 2: the up-triangle of cell 0 and the
    // down-triangle B(0,0), A(0,1), C(2,1) (row −1 wraps to 2).
    const auto e = edge_set(t);
    EXPECT_TRUE(e.count({0, 1}) && e.count({0, 2}) && e.count({1, 2}));
    EXPECT_TRUE(e.count({1, 3}));                             // B(0,0)–A(0,1)
    EXPECT_TRUE(e.count({1, 3 * 9 + 2}));                     // B(0,0)–C(2,1)
    EXPECT_TRUE(e.count({3, 3 * 9 + 2}));                     // A(0,1)–C(2,1)
    EXPECT_FALSE(e.count({0, 3 * 1 + 1}));                    // A(0,0)–B(0,1): no
    EXPECT_THROW(kagome_graph(1, 3, true), InvalidArgument);  // periodic: sides of 2 or more
}

TEST(GeneralLattices, CubicAndFccCountsAndDegrees) {
    const UndirectedGraph open = cubic_graph(2, 3, 4, false);
    EXPECT_EQ(open.num_vertices(), 24);
    EXPECT_EQ(open.num_edges(), 1 * 3 * 4 + 2 * 2 * 4 + 2 * 3 * 3);
    const UndirectedGraph periodic = cubic_graph(3, 4, 5, true);
    EXPECT_EQ(periodic.num_edges(), 3 * 60);
    expect_degree(periodic, 6, "cubic-torus:3x4x5");
    EXPECT_EQ(cubic_graph(2, 2, 2, true).num_edges(), 12);  // the cube: wraps merge
    // fcc: 4 sites a cell, 12 neighbours each on the torus; K4 in one open cell.
    const UndirectedGraph fcc = fcc_graph(2, 3, 2, true);
    EXPECT_EQ(fcc.num_vertices(), 48);
    expect_degree(fcc, 12, "fcc-torus:2x3x2");
    EXPECT_EQ(fcc.num_edges(), 6 * 48);
    const UndirectedGraph cell = fcc_graph(1, 1, 1, false);
    EXPECT_EQ(cell.num_edges(), 6);
    expect_degree(cell, 3, "fcc:1x1x1");
    // Open 3×3×3: the sites of the cells only; a site inside has all 12.
    const UndirectedGraph block = fcc_graph(3, 3, 3, false);
    vertex_t full = 0;
    for (vertex_t v = 0; v < block.num_vertices(); ++v) {
        EXPECT_LE(block.degree(v), 12);
        full += block.degree(v) == 12 ? 1 : 0;
    }
    EXPECT_GT(full, 0);
    // Site b of cell (x, y, z) is 4((x·m + y)·n + z) + b: (0,0,0) sees (½,½,0) of its own cell
    // and (½,½,0) of cell (−1, −1, 0) (wrapped), not (1,0,0) of the next cell (distance 1).
    const auto e = edge_set(fcc);
    EXPECT_TRUE(e.count({0, 1}));
    const vertex_t wrapped = 4 * ((1 * 3 + 2) * 2 + 0) + 1;
    EXPECT_TRUE(e.count({0, wrapped}));
    EXPECT_FALSE(e.count({0, 4 * ((1 * 3 + 0) * 2 + 0)}));
    EXPECT_THROW(cubic_graph(1, 4, 4, true), InvalidArgument);
}

TEST(GeneralLattices, TorusDrawingsHaveGenusOne) {
    const auto genus = [](const UndirectedGraph& g, const Embedding& e) {
        return exact::surface_genus(g, e).total;
    };
    EXPECT_EQ(genus(triangular_graph(3, 3, true), triangular_torus_embedding(3, 3)), 1);
    EXPECT_EQ(genus(triangular_graph(5, 8, true), triangular_torus_embedding(5, 8)), 1);
    EXPECT_EQ(genus(brick_wall_torus_graph(4, 4), brick_wall_torus_embedding(4, 4)), 1);
    EXPECT_EQ(genus(brick_wall_torus_graph(2, 6), brick_wall_torus_embedding(2, 6)), 1);
    EXPECT_EQ(genus(kagome_graph(2, 2, true), kagome_torus_embedding(2, 2)), 1);
    EXPECT_EQ(genus(kagome_graph(4, 7, true), kagome_torus_embedding(4, 7)), 1);
    // One rotation reversed: the faces no longer close as on the torus.
    Embedding reversed = triangular_torus_embedding(4, 4);
    std::reverse(reversed.rotation[5].begin(), reversed.rotation[5].end());
    EXPECT_NE(genus(triangular_graph(4, 4, true), reversed), 1);
}

TEST(GeneralLattices, RandomRegularGraphsAreSimpleRegularAndSeeded) {
    for (const auto& [n, d] : std::vector<std::pair<int, int>>{
             {0, 0}, {2, 1}, {3, 2}, {4, 3}, {10, 3}, {40, 3}, {41, 4}, {50, 7}, {30, 20}}) {
        const UndirectedGraph g = random_regular_graph(n, d, 5);
        EXPECT_EQ(g.num_vertices(), n);
        EXPECT_EQ(g.duplicates_merged(), 0) << n << "," << d;
        expect_degree(g, d, std::to_string(n) + "," + std::to_string(d));
        for (const auto& [u, v] : g.edges()) {
            EXPECT_NE(u, v);
        }
    }
    EXPECT_EQ(random_regular_graph(40, 3, 9).edges(), random_regular_graph(40, 3, 9).edges());
    EXPECT_NE(random_regular_graph(40, 3, 9).edges(), random_regular_graph(40, 3, 10).edges());
    // Not forced bipartite: some of these graphs have odd cycles (a triangle here).
    bool odd = false;
    for (std::uint64_t seed = 1; seed <= 20 && !odd; ++seed) {
        const UndirectedGraph g = random_regular_graph(12, 4, seed);
        for (const auto& [u, v] : g.edges()) {
            for (const vertex_t w : g.neighbours(u)) {
                odd = odd || (w != v && g.has_edge(v, w));
            }
        }
    }
    EXPECT_TRUE(odd);
    EXPECT_THROW(random_regular_graph(5, 3, 1), InvalidArgument);  // n·d odd
    EXPECT_THROW(random_regular_graph(4, 4, 1), InvalidArgument);  // d ≥ n
}

TEST(GeneralLattices, SpecsMatchTheFunctions) {
    EXPECT_EQ(generate_undirected_graph("tri:3x4").edges(), triangular_graph(3, 4, false).edges());
    EXPECT_EQ(generate_undirected_graph("tri-torus:3x4").edges(),
              triangular_graph(3, 4, true).edges());
    EXPECT_EQ(generate_undirected_graph("hex-torus:4x6").edges(),
              brick_wall_torus_graph(4, 6).edges());
    EXPECT_EQ(generate_undirected_graph("kagome:2x3").edges(), kagome_graph(2, 3, false).edges());
    EXPECT_EQ(generate_undirected_graph("kagome-torus:2x3").edges(),
              kagome_graph(2, 3, true).edges());
    EXPECT_EQ(generate_undirected_graph("cubic:2x3x4").edges(),
              cubic_graph(2, 3, 4, false).edges());
    EXPECT_EQ(generate_undirected_graph("cubic-torus:4x4x4").edges(),
              cubic_graph(4, 4, 4, true).edges());
    EXPECT_EQ(generate_undirected_graph("fcc:2x2x2").edges(), fcc_graph(2, 2, 2, false).edges());
    EXPECT_EQ(generate_undirected_graph("fcc-torus:2x2x3").edges(),
              fcc_graph(2, 2, 3, true).edges());
    EXPECT_EQ(generate_undirected_graph("regular-general:40,3,7").edges(),
              random_regular_graph(40, 3, 7).edges());
    EXPECT_EQ(generate_undirected_graph("regular-general:40,3").edges(),
              random_regular_graph(40, 3, 1).edges());
    // A bipartite spec as a general graph: right vertex j is num_left + j.
    const BipartiteGraph grid = grid_graph(2, 3);
    const UndirectedGraph as_general = generate_undirected_graph("grid:2x3");
    EXPECT_EQ(as_general.num_vertices(), 6);
    for (const auto& [u, v] : grid.edges()) {
        EXPECT_TRUE(as_general.has_edge(u, grid.n_left() + v));
    }
    EXPECT_EQ(as_general.num_edges(), grid.num_edges());
    // Inputs: general data, and the drawing where the sides allow one.
    for (const char* drawn : {"tri-torus:3x3", "hex-torus:2x4", "kagome-torus:2x2"}) {
        const Input input = generated_input(drawn);
        EXPECT_TRUE(std::holds_alternative<UndirectedGraph>(input.data)) << drawn;
        EXPECT_TRUE(input.embedding.has_value()) << drawn;
        EXPECT_TRUE(input.is_general()) << drawn;
        EXPECT_EQ(input.source, drawn);
    }
    for (const char* undrawn : {"tri:5x5", "tri-torus:2x6", "hex-torus:4x2", "kagome:3x3",
                                "cubic-torus:4x4x4", "fcc-torus:2x2x2", "regular-general:8,3"}) {
        EXPECT_FALSE(generated_input(undrawn).embedding.has_value()) << undrawn;
    }
    EXPECT_TRUE(is_general_generator_spec("fcc-torus:2x2x2"));
    EXPECT_FALSE(is_general_generator_spec("torus:4x4"));
    EXPECT_TRUE(is_generator_spec("kagome:1x1"));
}

TEST(GeneralLattices, MalformedAndOversizedSpecsAreInputErrors) {
    for (const char* bad :
         {"tri:3", "tri:3x3x3", "tri-torus:1x4", "hex-torus:3x4", "hex-torus:4x5", "kagome:x2",
          "kagome-torus:1x-1", "cubic:2x2", "cubic-torus:1x4x4", "fcc:2x2x2x2", "fcc-torus:1x2x2",
          "regular-general:5,3", "regular-general:4,4", "regular-general:10",
          "regular-general:8,3,x", "tri:5000x5000", "fcc:200x200x200", "kagome-torus:3000x3000"}) {
        try {
            generate_undirected_graph(bad);
            ADD_FAILURE() << bad << " was generated";
        } catch (const InvalidInput& e) {
            EXPECT_EQ(e.file(), bad);
            EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << e.what();
        }
    }
    // A general spec is not a bipartite graph.
    EXPECT_THROW(generate_graph("tri:3x3"), InvalidInput);
}

}  // namespace
}  // namespace pmcount
