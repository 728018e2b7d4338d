// Lattices through the whole pipeline (front end, planner, polynomial engines) against their
// closed forms: OEIS A004003 (2k×2k grids, k ≤ 16, by Kasteleyn's product formula), MacMahon's
// hexagon formula, the Aztec diamond theorem, the 100×100 grid's log count; the planner's choice
// of the planar and frontier engines; K_{3,3} refused by planar and counted by the others.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <string>

#include "pmcount/count.hpp"
#include "pmcount/error.hpp"
#include "pmcount/generate.hpp"
#include "support/lattice_counts.hpp"

namespace pmcount {
namespace {

bool every_leaf_uses(const CountResult& r, const std::string& engine,
                     const std::string& or_engine = "") {
    for (const BlockReport& leaf : r.structure.leaves) {
        if (leaf.engine != engine && leaf.engine != or_engine) {
            return false;
        }
    }
    return !r.structure.leaves.empty();
}

CountOptions with_method(Method method) {
    CountOptions options;
    options.method = method;
    return options;
}

TEST(Lattices, SquareGridsMatchOeisA004003UpToTheThirtyTwoGrid) {
    for (int k = 1; k <= 16; ++k) {
        const auto start = std::chrono::steady_clock::now();
        const CountResult r = count_perfect_matchings(grid_graph(2 * k, 2 * k));
        const double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        EXPECT_EQ(r.exact.to_string(), test::kasteleyn_grid_exact(2 * k, 2 * k).str())
            << "k = " << k;
        EXPECT_LT(seconds, 5.0) << "k = " << k;
        if (k >=
            6) {  // beyond Ryser's reach in practice: a polynomial engine, whichever is cheaper
            EXPECT_TRUE(every_leaf_uses(r, "planar", "frontier")) << "k = " << k << "\n"
                                                                  << r.structure.plan_text;
        }
    }
}

TEST(Lattices, RectanglesMatchKasteleyn) {
    for (const auto& [m, n] : {std::pair{7, 12}, std::pair{9, 30}, std::pair{20, 21}}) {
        EXPECT_EQ(count_perfect_matchings(grid_graph(m, n)).exact.to_string(),
                  test::kasteleyn_grid_exact(m, n).str())
            << m << "x" << n;
    }
}

TEST(Lattices, HexagonsMatchMacMahon) {
    for (const auto& [a, b, c] :
         {std::array{4, 5, 6}, std::array{10, 10, 10}, std::array{3, 12, 7}}) {
        EXPECT_EQ(count_perfect_matchings(hexagon_graph(a, b, c)).exact.to_string(),
                  test::macmahon(a, b, c).str())
            << a << "," << b << "," << c;
    }
}

TEST(Lattices, AztecDiamondsArePowersOfTwo) {
    for (const int k : {5, 12, 20}) {
        EXPECT_EQ(count_perfect_matchings(aztec_diamond_graph(k)).exact.to_string(),
                  test::aztec_diamond_count(k).str())
            << k;
    }
}

TEST(Lattices, HundredGridLogCountMatchesKasteleynToOnePartInABillion) {
    CountOptions options;
    options.precision = Precision::double_precision;
    const CountResult r = count_perfect_matchings(grid_graph(100, 100), options);
    const double expected = static_cast<double>(log_grid_tilings(100, 100) / std::log(10.0L));
    EXPECT_NEAR(r.log10_abs, expected, 1e-9 * expected);
    EXPECT_LT(r.rel_error, 1e-6);
    EXPECT_TRUE(every_leaf_uses(r, "planar")) << r.structure.plan_text;
}

TEST(Lattices, PlannerPicksFrontierForNarrowNonPlanarGraphs) {
    // The 4×50 torus is not planar and its order (100) is beyond Ryser: only frontier applies.
    CountOptions explain;
    explain.explain_only = true;
    const CountResult plan = count_perfect_matchings(torus_graph(4, 50), explain);
    EXPECT_TRUE(every_leaf_uses(plan, "frontier")) << plan.structure.plan_text;
    EXPECT_NE(plan.structure.plan_text.find("frontier (width "), std::string::npos)
        << plan.structure.plan_text;
    // A small torus: frontier against Ryser.
    EXPECT_EQ(count_perfect_matchings(torus_graph(4, 10), with_method(Method::frontier)).exact,
              count_perfect_matchings(torus_graph(4, 10), with_method(Method::ryser)).exact);
    EXPECT_THROW(count_perfect_matchings(torus_graph(4, 10), with_method(Method::planar)), Error);
}

TEST(Lattices, EmbeddedToriAreCountedAsFourPfaffiansAndMatchKasteleyn) {
    // Generated tori carry their embedding: the planner counts them on the torus, in
    // polynomial time, exactly; the closed form (long double) checks every digit it has.
    for (const auto& [rows, cols] : std::vector<std::pair<int, int>>{
             {4, 6}, {8, 16}, {10, 10}, {12, 12}, {16, 16}, {14, 20}, {32, 32}, {4, 50}}) {
        const std::string spec = "torus:" + std::to_string(rows) + "x" + std::to_string(cols);
        const CountResult r = count(generated_input(spec));
        const double expected =
            static_cast<double>(log_torus_tilings(rows, cols) / std::log(10.0L));
        EXPECT_NEAR(r.log10_abs, expected, 1e-13 * expected) << spec;
        if (std::min(rows, cols) >= 10) {  // narrower: Ryser or the frontier is as fast
            EXPECT_TRUE(every_leaf_uses(r, "pfaffian-surface")) << spec << r.structure.plan_text;
        }
    }
    // Every digit, against engines that know nothing of the embedding.
    const Input torus = generated_input("torus:8x16");
    ASSERT_TRUE(torus.embedding.has_value());
    const CountResult frontier =
        count_perfect_matchings(torus_graph(8, 16), with_method(Method::frontier));
    EXPECT_EQ(count(torus).exact, frontier.exact);
    EXPECT_EQ(count(torus, with_method(Method::planar)).exact, frontier.exact);
    EXPECT_EQ(count_perfect_matchings(torus_graph(10, 12), torus_embedding(10, 12)).exact,
              count_perfect_matchings(torus_graph(10, 12), with_method(Method::frontier)).exact);
    // The general path reaches the same leaf (its vertices: rows, then columns).
    CountOptions general;
    general.general = true;
    EXPECT_EQ(count(torus, general).exact, frontier.exact);
    EXPECT_TRUE(every_leaf_uses(count(torus, general), "pfaffian-surface"));
    // In double, within its estimate.
    CountOptions in_double;
    in_double.precision = Precision::double_precision;
    const CountResult d = count(generated_input("torus:16x16"), in_double);
    const double exact16 = count(generated_input("torus:16x16")).value;
    EXPECT_LE(std::fabs(d.value - exact16), d.abs_error);
    EXPECT_LT(d.rel_error, 1e-10);
    // A side of 2 merges wrap-around edges: no embedding, the planar engines count it.
    EXPECT_FALSE(generated_input("torus:2x8").embedding.has_value());
    EXPECT_FALSE(generated_input("grid:8x8").embedding.has_value());
}

TEST(Lattices, GeneralLatticesAgreeWithTheHafnianAndThePairings) {
    // Every general spec at small sizes: the planner's count (on the torus where the spec draws
    // one) against the hafnian engine and, to 16 vertices, the sum over all pairings.
    int pfaffians = 0;
    for (const char* spec : {"tri:3x4",
                             "tri:4x4",
                             "tri:5x6",
                             "tri-torus:3x4",
                             "tri-torus:4x4",
                             "tri-torus:4x6",
                             "tri-torus:6x6",
                             "hex-torus:4x4",
                             "hex-torus:4x6",
                             "hex-torus:6x6",
                             "hex-torus:2x8",
                             "kagome:2x2",
                             "kagome:2x4",
                             "kagome:3x4",
                             "kagome-torus:2x2",
                             "kagome-torus:2x4",
                             "cubic:2x2x2",
                             "cubic:2x2x4",
                             "cubic:2x3x4",
                             "cubic-torus:2x2x4",
                             "fcc:1x1x1",
                             "fcc:1x1x2",
                             "fcc:2x2x1",
                             "fcc-torus:2x2x2",
                             "regular-general:12,3,1",
                             "regular-general:16,5,2",
                             "regular-general:30,3,3"}) {
        const Input input = generated_input(spec);
        const CountResult r = count(input);
        const CountResult h = count(input, with_method(Method::hafnian));
        EXPECT_EQ(r.exact, h.exact) << spec << r.structure.plan_text;
        if (input.rows() <= 16) {
            EXPECT_EQ(r.exact, count(input, with_method(Method::brute_force)).exact) << spec;
        }
        pfaffians += every_leaf_uses(r, "pfaffian-surface") ? 1 : 0;
    }
    EXPECT_GE(pfaffians, 4);
}

TEST(Lattices, NarrowGeneralGraphsWithoutTheirDrawingGoToTheFrontierDp) {
    // A triangular torus of 4×30 given as a plain graph: not planar, 120 vertices (no hafnian),
    // width 9: the planner takes the general frontier DP, and agrees with the Pfaffians on the
    // torus that its drawing allows.
    const UndirectedGraph torus = triangular_graph(4, 30, true);
    const CountResult plain = count_perfect_matchings(torus);
    EXPECT_TRUE(every_leaf_uses(plain, "frontier")) << plain.structure.plan_text;
    EXPECT_EQ(plain.exact,
              count_perfect_matchings(torus, triangular_torus_embedding(4, 30)).exact);
    // A kagome torus two cells around (a nanotube-like ring of 96 sites): --method frontier
    // against its Pfaffians; random 3-regular graphs against the hafnian engine.
    const UndirectedGraph ring = kagome_graph(2, 16, true);
    EXPECT_EQ(count_perfect_matchings(ring, with_method(Method::frontier)).exact,
              count_perfect_matchings(ring, kagome_torus_embedding(2, 16)).exact);
    for (const UndirectedGraph& g :
         {random_regular_graph(40, 3, 5), random_regular_graph(36, 3, 6)}) {
        EXPECT_EQ(count_perfect_matchings(g, with_method(Method::frontier)).exact,
                  count_perfect_matchings(g, with_method(Method::hafnian)).exact);
    }
}

TEST(Lattices, KagomeToriHaveTwoToTheThirdOfTheirSitesPlusOne) {
    // The dimer coverings of the kagome lattice on a torus of N sites number 2^(N/3 + 1)
    // (Elser 1993; Misguich, Serban, Pasquier 2002): N = 3·rows·cols, so 2^(rows·cols + 1), for
    // an even number of cells.
    for (const auto& [rows, cols] : std::vector<std::pair<int, int>>{
             {2, 2}, {2, 3}, {3, 4}, {4, 4}, {4, 6}, {6, 6}, {8, 10}, {16, 16}}) {
        const std::string spec =
            "kagome-torus:" + std::to_string(rows) + "x" + std::to_string(cols);
        BigInt power(1);
        for (int k = 0; k < rows * cols + 1; ++k) {
            power *= BigInt(2);
        }
        EXPECT_EQ(count(generated_input(spec)).exact, power) << spec;
    }
}

TEST(Lattices, EmbeddingsThatDoNotFitTheGraphAreRefused) {
    Embedding wrong = torus_embedding(6, 6);
    std::swap(wrong.rotation[0], wrong.rotation[1]);  // vertex 0 lists vertex 1's neighbours
    EXPECT_THROW(count_perfect_matchings(torus_graph(6, 6), wrong), InvalidArgument);
    EXPECT_THROW(count_perfect_matchings(torus_graph(6, 8), torus_embedding(6, 6)),
                 InvalidArgument);
    EXPECT_THROW(torus_embedding(2, 6), InvalidArgument);
}

TEST(Lattices, FrontierAgreesWithPlanarOnStrips) {
    const CountResult f =
        count_perfect_matchings(grid_graph(8, 200), with_method(Method::frontier));
    const CountResult p = count_perfect_matchings(grid_graph(8, 200), with_method(Method::planar));
    EXPECT_EQ(f.exact, p.exact);
    EXPECT_EQ(f.exact.to_string(), test::kasteleyn_grid_exact<400>(8, 200).str());
    EXPECT_TRUE(every_leaf_uses(f, "frontier"));
}

TEST(Lattices, K33IsRejectedByPlanarAndCountedByTheOthers) {
    const BipartiteGraph k33 = complete_bipartite_graph(3);
    CountOptions no_structure = with_method(Method::planar);
    no_structure.reductions = false;
    EXPECT_THROW(count_perfect_matchings(k33, no_structure), Error);
    EXPECT_EQ(count_perfect_matchings(k33).exact, BigInt(6));
    CountOptions frontier = with_method(Method::frontier);
    frontier.reductions = false;
    EXPECT_EQ(count_perfect_matchings(k33, frontier).exact, BigInt(6));
}

}  // namespace
}  // namespace pmcount
