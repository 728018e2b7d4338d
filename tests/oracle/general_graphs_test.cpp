// Perfect matchings of general graphs and hafnians, through the public API and every engine that
// takes them, against closed forms (K_2m, cycles, ladders, prisms, Möbius ladders, Petersen),
// a transfer matrix (triangular-lattice strips), a brute force over pairings written here, and
// the permanent (haf of the bipartite embedding).
#include "support/general_graphs.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <set>
#include <string>
#include <vector>

#include "pmcount/count.hpp"
#include "pmcount/error.hpp"
#include "pmcount/graph.hpp"
#include "support/closed_forms.hpp"
#include "support/random_matrices.hpp"

namespace pmcount {
namespace {

using test::cpp_int;
using test::Edges;

CountOptions with(Method method, bool reductions = true) {
    CountOptions options;
    options.method = method;
    options.reductions = reductions;
    return options;
}

std::string count_of(int n, const Edges& edges, const CountOptions& options = {}) {
    return count_perfect_matchings(UndirectedGraph(n, edges), options).exact.to_string();
}

/// Every way to count a graph: the default plan, the hafnian engine, the general path for
/// bipartite pieces, and (small graphs) brute force over pairings; the planar engine when asked.
void expect_every_engine(int n, const Edges& edges, const cpp_int& expected, bool planar,
                         const std::string& name) {
    SCOPED_TRACE(name);
    EXPECT_EQ(count_of(n, edges), expected.str());
    CountOptions general;
    general.general = true;
    EXPECT_EQ(count_of(n, edges, general), expected.str());
    if (n <= 28) {  // the hafnian engine's time doubles every two vertices
        EXPECT_EQ(count_of(n, edges, with(Method::hafnian, false)), expected.str());
    }
    if (n <= 16) {
        EXPECT_EQ(count_of(n, edges, with(Method::brute_force, false)), expected.str());
    }
    if (planar) {
        CountOptions pfaffian = with(Method::planar, false);
        pfaffian.general = true;  // a bipartite planar graph too, through the Pfaffian
        EXPECT_EQ(count_of(n, edges, pfaffian), expected.str());
    }
    if (n <= 40) {  // the general frontier DP: widths of these graphs stay far below its limit
        CountOptions frontier = with(Method::frontier, false);
        frontier.general = true;
        EXPECT_EQ(count_of(n, edges, frontier), expected.str());
    }
}

TEST(GeneralGraphs, CompleteGraphsAreOddDoubleFactorials) {
    for (int m = 1; m <= 10; ++m) {
        expect_every_engine(2 * m, test::complete_edges(2 * m), test::double_factorial_odd(m),
                            m <= 2, "K_" + std::to_string(2 * m));
    }
    // 39!! ≈ 2^97.6 is beyond 64 bits: exact all the same.
    EXPECT_EQ(count_of(40, test::complete_edges(40), with(Method::hafnian)),
              test::double_factorial_odd(20).str());
    EXPECT_EQ(count_of(7, test::complete_edges(7)), "0");  // an odd number of vertices
}

TEST(GeneralGraphs, CyclesLaddersPrismsAndMoebiusLadders) {
    for (int m = 2; m <= 20; ++m) {
        expect_every_engine(2 * m, test::cycle_edges(2 * m), 2, true, "C_" + std::to_string(2 * m));
    }
    for (int n = 1; n <= 25; ++n) {
        expect_every_engine(2 * n, test::ladder_edges(n), test::fibonacci(n + 1), true,
                            "ladder " + std::to_string(n));
    }
    for (int n = 3; n <= 25; ++n) {
        const cpp_int expected = test::lucas(n) + (n % 2 == 0 ? 2 : 0);
        expect_every_engine(2 * n, test::prism_edges(n), expected, true,
                            "prism " + std::to_string(n));
    }
    for (int n = 2; n <= 25; ++n) {
        const cpp_int expected = test::lucas(n) + (n % 2 == 1 ? 2 : 0);
        // M_2 = K_4 is planar; M_n for n ≥ 3 contains K_{3,3}.
        expect_every_engine(2 * n, test::moebius_edges(n), expected, n == 2,
                            "Möbius ladder " + std::to_string(n));
    }
}

TEST(GeneralGraphs, PetersenHasSixAndIsNotPlanar) {
    expect_every_engine(10, test::petersen_edges(), 6, false, "Petersen");
    EXPECT_THROW(count_perfect_matchings(UndirectedGraph(10, test::petersen_edges()),
                                         with(Method::planar, false)),
                 ProblemTooLarge);
}

TEST(GeneralGraphs, TriangularStripsAgreeWithATransferMatrix) {
    EXPECT_EQ(test::triangular_matchings(4, 5), 203);  // datasets/triangular_4x5.edgelist
    for (int rows = 2; rows <= 5; ++rows) {
        for (int cols = 2; cols <= 12; ++cols) {
            if (rows * cols % 2 != 0) {
                continue;
            }
            expect_every_engine(rows * cols, test::triangular_edges(rows, cols),
                                test::triangular_matchings(rows, cols), true,
                                "triangular " + std::to_string(rows) + "x" + std::to_string(cols));
        }
    }
    // A long strip: the polynomial engines, far beyond the hafnian's reach — the planner's pick
    // (the frontier DP at width 5 is predicted faster than the Pfaffian), and the Pfaffian.
    const UndirectedGraph strip(300 * 4, test::triangular_edges(300, 4));
    const CountResult r = count_perfect_matchings(strip);
    EXPECT_EQ(r.exact.to_string(), test::triangular_matchings(300, 4).str());
    EXPECT_TRUE(r.method.find("pfaffian") != std::string::npos || r.method == "frontier")
        << r.method;
    const CountResult pfaffian = count_perfect_matchings(strip, with(Method::planar, false));
    EXPECT_EQ(pfaffian.exact, r.exact);
    EXPECT_NE(pfaffian.method.find("pfaffian"), std::string::npos) << pfaffian.method;
}

TEST(GeneralGraphs, HafnianOfTheBipartiteEmbeddingIsThePermanent) {
    for (std::uint64_t seed = 1; seed <= 40; ++seed) {
        const int n = 2 + static_cast<int>(seed % 9);
        const DenseMatrix<std::int64_t> b = seed % 2 == 0
                                                ? test::random_binary(n, 0.6, seed)
                                                : test::random_integer(n, -4, 4, 0.7, seed);
        DenseMatrix<std::int64_t> embedded(2 * n, 2 * n, 0);
        for (int i = 0; i < n; ++i) {
            for (int j = 0; j < n; ++j) {
                embedded(i, n + j) = embedded(n + j, i) = b(i, j);
            }
        }
        const std::string expected = permanent(b).exact.to_string();
        EXPECT_EQ(hafnian(embedded, with(Method::hafnian, false)).exact.to_string(), expected)
            << "seed " << seed;
        EXPECT_EQ(hafnian(embedded).exact.to_string(), expected) << "seed " << seed;
        CountOptions general;
        general.general = true;
        EXPECT_EQ(permanent(b, general).exact.to_string(), expected) << "seed " << seed;
    }
    // Real: within the two results' error bounds.
    for (std::uint64_t seed = 1; seed <= 20; ++seed) {
        const int n = 3 + static_cast<int>(seed % 8);
        const DenseMatrix<double> b = test::random_real(n, -1, 1, 0.8, seed);
        DenseMatrix<double> embedded(2 * n, 2 * n, 0.0);
        for (int i = 0; i < n; ++i) {
            for (int j = 0; j < n; ++j) {
                embedded(i, n + j) = embedded(n + j, i) = b(i, j);
            }
        }
        const CountResult p = permanent(b);
        const CountResult h = hafnian(embedded, with(Method::hafnian, false));
        EXPECT_LE(std::abs(p.value - h.value), p.abs_error + h.abs_error + 1e-300)
            << "seed " << seed << ": " << p.value << " vs " << h.value;
    }
}

TEST(GeneralGraphs, EveryEngineAgreesWithPairingsOnRandomGraphs) {
    int nonzero = 0;
    for (std::uint64_t seed = 1; seed <= 240; ++seed) {
        const int n = 2 * (1 + static_cast<int>(seed % 8));
        const double density = 0.2 + 0.1 * static_cast<double>(seed % 7);
        const bool weighted = seed % 3 == 0;
        const DenseMatrix<std::int64_t> a =
            weighted ? test::random_symmetric_integer(n, density, -5, 5, seed)
                     : test::random_symmetric_integer(n, density, 1, 1, seed);
        const std::string expected = test::pairings_count(a).str();
        nonzero += expected != "0";
        SCOPED_TRACE("seed " + std::to_string(seed) + ", n " + std::to_string(n));
        EXPECT_EQ(hafnian(a).exact.to_string(), expected);
        EXPECT_EQ(hafnian(a, with(Method::hafnian, false)).exact.to_string(), expected);
        EXPECT_EQ(hafnian(a, with(Method::brute_force, false)).exact.to_string(), expected);
        CountOptions general;
        general.general = true;
        EXPECT_EQ(hafnian(a, general).exact.to_string(), expected);
        CountOptions bare;
        bare.dulmage_mendelsohn = false;
        bare.reductions = false;
        EXPECT_EQ(hafnian(a, bare).exact.to_string(), expected);
    }
    EXPECT_GT(nonzero, 120);  // the comparison is not mostly zeros
}

TEST(GeneralGraphs, FloatingHafniansWithinTheirErrorBound) {
    for (std::uint64_t seed = 1; seed <= 60; ++seed) {
        const int n = 2 * (2 + static_cast<int>(seed % 7));
        SCOPED_TRACE("seed " + std::to_string(seed) + ", n " + std::to_string(n));
        const auto real = test::random_symmetric_float<double>(n, seed % 2 ? 0.0 : -1.0, 1.0, seed);
        const CountResult oracle = hafnian(real, with(Method::brute_force, false));
        for (const Precision p : {Precision::double_precision, Precision::double_double}) {
            CountOptions o = with(Method::hafnian, false);
            o.precision = p;
            const CountResult r = hafnian(real, o);
            EXPECT_LE(std::abs(r.value - oracle.value), r.abs_error + oracle.abs_error)
                << r.value << " vs " << oracle.value << " (" << to_string(p) << ")";
        }
        const auto complex = test::random_symmetric_float<std::complex<double>>(n, -1.0, 1.0, seed);
        const CountResult c_oracle = hafnian(complex, with(Method::brute_force, false));
        const CountResult c = hafnian(complex, with(Method::hafnian, false));
        EXPECT_LE(std::abs(c.complex_value - c_oracle.complex_value),
                  c.abs_error + c_oracle.abs_error);
    }
}

TEST(GeneralGraphs, NoPerfectMatchingGivesAVerifiedTutteSet) {
    int witnessed = 0;
    for (std::uint64_t seed = 1; seed <= 200; ++seed) {
        const int n = 2 * (2 + static_cast<int>(seed % 9));
        const DenseMatrix<std::int64_t> a = test::random_symmetric_integer(
            n, 0.12 + 0.02 * static_cast<double>(seed % 5), 1, 1, seed);
        Edges edges;
        for (int u = 0; u < n; ++u) {
            for (int v = u + 1; v < n; ++v) {
                if (a(u, v) != 0) {
                    edges.emplace_back(u, v);
                }
            }
        }
        const CountResult r = count_perfect_matchings(UndirectedGraph(n, edges));
        if (!r.exact.is_zero() || r.structure.tutte_odd_components == 0) {
            continue;
        }
        ++witnessed;
        // Recount the odd components of G − A here, by depth-first search.
        const std::set<int> removed(r.structure.tutte_set.begin(), r.structure.tutte_set.end());
        std::vector<int> component(static_cast<std::size_t>(n), -1);
        int odd = 0;
        for (int root = 0; root < n; ++root) {
            if (removed.count(root) != 0 || component[static_cast<std::size_t>(root)] >= 0) {
                continue;
            }
            std::vector<int> stack{root};
            component[static_cast<std::size_t>(root)] = root;
            int size = 0;
            while (!stack.empty()) {
                const int u = stack.back();
                stack.pop_back();
                ++size;
                for (int v = 0; v < n; ++v) {
                    if (a(u, v) != 0 && removed.count(v) == 0 &&
                        component[static_cast<std::size_t>(v)] < 0) {
                        component[static_cast<std::size_t>(v)] = root;
                        stack.push_back(v);
                    }
                }
            }
            odd += size % 2;
        }
        EXPECT_EQ(odd, r.structure.tutte_odd_components) << "seed " << seed;
        EXPECT_GT(odd, static_cast<int>(removed.size())) << "seed " << seed;
    }
    EXPECT_GT(witnessed, 40);
}

}  // namespace
}  // namespace pmcount
