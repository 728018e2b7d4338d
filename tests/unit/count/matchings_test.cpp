// Matchings of every size (pmcount/matchings.hpp) against independent oracles: closed forms
// (paths: Fibonacci, cycles: Lucas, complete graphs: the telephone numbers), OEIS A028420 (the
// n×n grid's matchings) for n ≤ 12, C60's Hosoya index and Kekulé count, and an enumeration of
// every matching on 240 seeded graphs (sparse and dense, 0-1 and signed weights), through both
// engines (the frontier DP and the loop hafnian); the identities Σ m_k = Hosoya, Z(1) = Hosoya,
// m_K = coefficient K, Z(p/q) against the coefficients in exact rationals; components; inputs
// of every kind; prime sets; bad arguments.
#include "pmcount/matchings.hpp"

#include <gtest/gtest.h>

#include <boost/multiprecision/cpp_int.hpp>
#include <random>
#include <string>
#include <vector>

#include "pmcount/error.hpp"
#include "pmcount/generate.hpp"
#include "pmcount/io.hpp"

namespace pmcount {
namespace {

using Wide = boost::multiprecision::cpp_int;
using Fraction = boost::multiprecision::cpp_rational;

struct Weighted {
    vertex_t n = 0;
    std::vector<std::tuple<vertex_t, vertex_t, std::int64_t>> edges;

    SparseMatrix<std::int64_t> matrix() const {
        std::vector<Triplet<std::int64_t>> t;
        for (const auto& [u, v, w] : edges) {
            t.push_back({u, v, w});
            t.push_back({v, u, w});
        }
        return {n, n, std::move(t)};
    }
};

/// m_0 … m_⌊n/2⌋ by enumerating every matching: the lowest undecided vertex stays unmatched or
/// takes an undecided neighbour.
std::vector<Wide> enumerate(const Weighted& g) {
    std::vector<std::vector<std::pair<vertex_t, std::int64_t>>> adj(static_cast<std::size_t>(g.n));
    for (const auto& [u, v, w] : g.edges) {
        adj[static_cast<std::size_t>(u)].push_back({v, w});
        adj[static_cast<std::size_t>(v)].push_back({u, w});
    }
    std::vector<Wide> m(static_cast<std::size_t>(g.n / 2 + 1), 0);
    std::vector<char> used(static_cast<std::size_t>(g.n), 0);
    std::function<void(vertex_t, int, const Wide&)> go = [&](vertex_t v, int k, const Wide& w) {
        while (v < g.n && used[static_cast<std::size_t>(v)] != 0) {
            ++v;
        }
        if (v == g.n) {
            m[static_cast<std::size_t>(k)] += w;
            return;
        }
        used[static_cast<std::size_t>(v)] = 1;
        go(v + 1, k, w);
        for (const auto& [u, weight] : adj[static_cast<std::size_t>(v)]) {
            if (used[static_cast<std::size_t>(u)] == 0) {
                used[static_cast<std::size_t>(u)] = 1;
                go(v + 1, k + 1, w * weight);
                used[static_cast<std::size_t>(u)] = 0;
            }
        }
        used[static_cast<std::size_t>(v)] = 0;
    };
    go(0, 0, 1);
    return m;
}

std::string str(const Wide& x) {
    return x.str();
}

UndirectedGraph path(vertex_t n) {
    std::vector<UndirectedGraph::Edge> e;
    for (vertex_t i = 0; i + 1 < n; ++i) {
        e.emplace_back(i, i + 1);
    }
    return {n, e};
}

UndirectedGraph cycle(vertex_t n) {
    std::vector<UndirectedGraph::Edge> e;
    for (vertex_t i = 0; i < n; ++i) {
        e.emplace_back(i, (i + 1) % n);
    }
    return {n, e};
}

UndirectedGraph complete(vertex_t n) {
    std::vector<UndirectedGraph::Edge> e;
    for (vertex_t i = 0; i < n; ++i) {
        for (vertex_t j = i + 1; j < n; ++j) {
            e.emplace_back(i, j);
        }
    }
    return {n, e};
}

CountOptions with_method(Method method) {
    CountOptions o;
    o.method = method;
    o.threads = 2;
    return o;
}

TEST(Matchings, ClosedFormsPathsCyclesAndCompleteGraphs) {
    Wide f0 = 1, f1 = 1;  // F(n+1) for the path of n vertices: 1, 1, 2, 3, 5 …
    for (vertex_t n = 1; n <= 60; ++n) {
        EXPECT_EQ(count_all_matchings(path(n)).numerator.to_string(), str(f1)) << "path " << n;
        const Wide next = f0 + f1;
        f0 = f1;
        f1 = next;
    }
    Wide l0 = 2, l1 = 1;  // Lucas L(n) for the cycle of n vertices
    for (vertex_t n = 1; n <= 60; ++n) {
        const Wide next = l0 + l1;
        l0 = l1;
        l1 = next;
        if (n >= 2) {
            EXPECT_EQ(count_all_matchings(cycle(n + 1)).numerator.to_string(), str(l1))
                << "cycle " << n + 1;
        }
    }
    // Telephone numbers T(n) = T(n−1) + (n−1)T(n−2), through both engines where each fits.
    Wide t0 = 1, t1 = 1;
    for (vertex_t n = 2; n <= 26; ++n) {
        const Wide tn = t1 + Wide(n - 1) * t0;
        t0 = t1;
        t1 = tn;
        EXPECT_EQ(count_all_matchings(complete(n)).numerator.to_string(), str(tn)) << "K" << n;
        if (n <= 16) {
            EXPECT_EQ(count_all_matchings(complete(n), with_method(Method::frontier))
                          .numerator.to_string(),
                      str(tn))
                << "K" << n;
        }
        EXPECT_EQ(
            count_all_matchings(complete(n), with_method(Method::hafnian)).numerator.to_string(),
            str(tn))
            << "K" << n;
    }
}

TEST(Matchings, GridsReproduceOeisA028420) {
    // The n×n grid's matchings, OEIS A028420, n = 1 … 12.
    const std::vector<std::string> oeis{"1",
                                        "7",
                                        "131",
                                        "10012",
                                        "2810694",
                                        "2989126727",
                                        "11945257052321",
                                        "179788343101980135",
                                        "10185111919160666118608",
                                        "2172138783673094193937750015",
                                        "1743829823240164494694386437970640",
                                        "5270137993816086266962874395450234534887"};
    for (std::size_t n = 1; n <= oeis.size(); ++n) {
        const Input grid = generated_input("grid:" + std::to_string(n) + "x" + std::to_string(n));
        EXPECT_EQ(count_matchings(grid, MatchingQuery::all).numerator.to_string(), oeis[n - 1])
            << n;
    }
    // The 4×7 grid's polynomial: 28 vertices, m_14 its 781 domino tilings (Kasteleyn), the sum
    // its A210662 entry.
    const MatchingsResult p =
        count_matchings(generated_input("grid:4x7"), MatchingQuery::polynomial);
    ASSERT_EQ(p.coefficients.size(), 15u);
    EXPECT_EQ(p.coefficients[1], BigInt(45));
    EXPECT_EQ(p.coefficients[14], BigInt(781));
    EXPECT_EQ(p.numerator, BigInt(17525619));
}

TEST(Matchings, C60) {
    const Input c60 = read_input(std::string(PMCOUNT_SOURCE_DIR) + "/datasets/c60.edgelist");
    const MatchingsResult all = count_matchings(c60, MatchingQuery::all);
    EXPECT_EQ(all.numerator.to_string(), "1417036634543488");
    const MatchingsResult p = count_matchings(c60, MatchingQuery::polynomial);
    ASSERT_EQ(p.coefficients.size(), 31u);
    EXPECT_EQ(p.coefficients[0], BigInt(1));
    EXPECT_EQ(p.coefficients[1], BigInt(90));
    EXPECT_EQ(p.coefficients[30], BigInt(12500));  // its Kekulé structures
    BigInt sum = 0;
    for (const BigInt& c : p.coefficients) {
        sum += c;
    }
    EXPECT_EQ(sum, all.numerator);
    EXPECT_EQ(count_matchings(c60, MatchingQuery::monomer_dimer, {}, 0, "1").numerator,
              all.numerator);
}

TEST(Matchings, EveryEngineMatchesTheEnumerationOn240SeededGraphs) {
    std::mt19937_64 rng(37);
    for (int trial = 0; trial < 240; ++trial) {
        Weighted g;
        g.n = 1 + static_cast<vertex_t>(rng() % 13);
        const double density = trial % 3 == 0 ? 0.8 : 0.3;
        const bool weighted = trial % 2 == 1;
        for (vertex_t u = 0; u < g.n; ++u) {
            for (vertex_t v = u + 1; v < g.n; ++v) {
                if (static_cast<double>(rng() % 1000) < 1000 * density) {
                    const std::int64_t w =
                        weighted ? static_cast<std::int64_t>(rng() % 7) - 3 : std::int64_t{1};
                    if (w != 0) {
                        g.edges.emplace_back(u, v, w);
                    }
                }
            }
        }
        const std::vector<Wide> m = enumerate(g);
        Wide hosoya = 0;
        for (const Wide& x : m) {
            hosoya += x;
        }
        const auto a = g.matrix();
        for (const Method method : {Method::automatic, Method::frontier, Method::hafnian}) {
            const std::string where = "trial " + std::to_string(trial) + " method " +
                                      to_string(method) + " n " + std::to_string(g.n);
            const MatchingsResult p = matching_polynomial(a, with_method(method));
            ASSERT_EQ(p.coefficients.size(), m.size()) << where;
            for (std::size_t k = 0; k < m.size(); ++k) {
                EXPECT_EQ(p.coefficients[k].to_string(), str(m[k])) << where << " k " << k;
            }
            EXPECT_EQ(p.numerator.to_string(), str(hosoya)) << where;
            EXPECT_EQ(count_all_matchings(a, with_method(method)).numerator.to_string(),
                      str(hosoya))
                << where;
            const int k = static_cast<int>(rng() % (m.size() + 1));
            EXPECT_EQ(count_matchings_of_size(a, k, with_method(method)).numerator.to_string(),
                      k < static_cast<int>(m.size()) ? str(m[static_cast<std::size_t>(k)]) : "0")
                << where;
            // Z(p/q) = Σ m_k x^(n−2k), in exact rationals.
            const std::int64_t num = static_cast<std::int64_t>(rng() % 11) - 5;
            const std::int64_t den = 1 + static_cast<std::int64_t>(rng() % 6);
            const std::string x = std::to_string(num) + "/" + std::to_string(den);
            Fraction z = 0;
            for (std::size_t j = 0; j < m.size(); ++j) {
                Fraction term(m[j]);
                for (vertex_t e = 0; e < g.n - 2 * static_cast<vertex_t>(j); ++e) {
                    term *= Fraction(num, den);
                }
                z += term;
            }
            const MatchingsResult got = monomer_dimer(a, x, with_method(method));
            EXPECT_EQ(got.numerator.to_string(), str(boost::multiprecision::numerator(z)))
                << where << " x " << x;
            EXPECT_EQ(got.denominator.to_string(), str(boost::multiprecision::denominator(z)))
                << where << " x " << x;
        }
    }
}

TEST(Matchings, ComponentsConvolveAndIsolatedVerticesAreMonomers) {
    // K4 ∪ P5 ∪ one isolated vertex: polynomials 1 + 6y + 3y² and 1 + 4y + 3y², times 1.
    std::vector<UndirectedGraph::Edge> e{{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3},
                                         {2, 3}, {4, 5}, {5, 6}, {6, 7}, {7, 8}};
    const UndirectedGraph g(10, e);
    const MatchingsResult p = matching_polynomial(g);
    EXPECT_EQ(p.components, 3);
    const std::vector<std::int64_t> expected{1, 10, 30, 30, 9, 0};
    ASSERT_EQ(p.coefficients.size(), expected.size());
    for (std::size_t k = 0; k < expected.size(); ++k) {
        EXPECT_EQ(p.coefficients[k], BigInt(expected[k])) << k;
    }
    // Z(2) = Σ m_k 2^(10−2k): the isolated vertex is a factor 2.
    EXPECT_EQ(monomer_dimer(g, "2").numerator, BigInt(1024 + 10 * 256 + 30 * 64 + 30 * 16 + 9 * 4));
    EXPECT_EQ(monomer_dimer(g, "0").numerator, BigInt(0));  // no perfect matching
    EXPECT_EQ(monomer_dimer(path(4), "0").numerator, BigInt(1));
    EXPECT_EQ(monomer_dimer(path(3), "0.5").value_string(), "9/8");  // 1/8 + 2·1/2
    EXPECT_EQ(monomer_dimer(path(3), "-2.5e-1").value_string(), "-33/64");
}

TEST(Matchings, EveryInputKind) {
    // A bipartite edge list (both sides as one graph), a weighted matrix as its rows and columns,
    // a symmetric matrix read as a general graph.
    const Input bip = read_input(std::string(PMCOUNT_SOURCE_DIR) + "/datasets/k_10_10.edgelist");
    Wide t = 0;  // Σ_k C(10,k)² k!
    Wide c = 1;
    for (int k = 0; k <= 10; ++k) {
        Wide fact = 1;
        for (int i = 2; i <= k; ++i) {
            fact *= i;
        }
        t += c * c * fact;
        c = c * (10 - k) / (k + 1);
    }
    EXPECT_EQ(count_matchings(bip, MatchingQuery::all).numerator.to_string(), str(t));
    Input matrix;
    matrix.source = "m";
    matrix.data = SparseMatrix<std::int64_t>(2, 2, {{0, 0, 2}, {0, 1, 3}, {1, 1, -1}});
    // Rows r0, r1, columns c0, c1: edges r0c0 (2), r0c1 (3), r1c1 (−1); matchings: ∅, three
    // single edges, r0c0 + r1c1.
    EXPECT_EQ(count_matchings(matrix, MatchingQuery::all).numerator, BigInt(1 + 2 + 3 - 1 - 2));
    matrix.hafnian = true;
    matrix.data = SparseMatrix<std::int64_t>(3, 3, {{0, 1, 5}, {1, 0, 5}, {1, 2, 7}, {2, 1, 7}});
    EXPECT_EQ(count_matchings(matrix, MatchingQuery::all).numerator, BigInt(13));
    Input digraph;
    digraph.source = "d.txt";
    digraph.data = Digraph(2, {{0, 1}});
    EXPECT_THROW(count_matchings(digraph, MatchingQuery::all), InvalidArgument);
    Input real;
    real.source = "r.mtx";
    real.data = SparseMatrix<double>(2, 2, {{0, 1, 0.5}});
    EXPECT_THROW(count_matchings(real, MatchingQuery::all), InvalidArgument);
}

TEST(Matchings, TwoPrimeSetsGiveTheSameCount) {
    const Input grid = generated_input("grid:10x10");
    CountOptions second;
    second.prime_set = 2;
    const MatchingsResult a = count_matchings(grid, MatchingQuery::polynomial);
    const MatchingsResult b = count_matchings(grid, MatchingQuery::polynomial, second);
    EXPECT_EQ(a.coefficients, b.coefficients);
    EXPECT_NE(b.arithmetic.find("set 2"), std::string::npos) << b.arithmetic;
    EXPECT_EQ(a.numerator.to_string(), "2172138783673094193937750015");
}

TEST(Matchings, BadArgumentsAreOneLineErrors) {
    const UndirectedGraph g = path(4);
    for (const std::string x : {"", "abc", "1/0", "1/", "/2", "1.2.3", "1e", "1e400", "0x10",
                                "99999999999999999999", "1/99999999999999999999"}) {
        try {
            monomer_dimer(g, x);
            ADD_FAILURE() << "accepted '" << x << "'";
        } catch (const InvalidArgument& e) {
            EXPECT_NE(std::string(e.what()).find("monomer weight '" + x + "'"), std::string::npos)
                << e.what();
            EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos);
        }
    }
    EXPECT_THROW(count_matchings_of_size(g, -1), InvalidArgument);
    EXPECT_THROW(matching_polynomial(SparseMatrix<std::int64_t>(2, 3, {})), DimensionMismatch);
    EXPECT_THROW(matching_polynomial(SparseMatrix<std::int64_t>(2, 2, {{0, 1, 1}, {1, 0, 2}})),
                 InvalidArgument);
    EXPECT_THROW(matching_polynomial(g, with_method(Method::ryser)), InvalidArgument);
    // Sizes beyond the largest matching are 0; the empty matching is 1.
    EXPECT_EQ(count_matchings_of_size(g, 3).numerator, BigInt(0));
    EXPECT_EQ(count_matchings_of_size(g, 0).numerator, BigInt(1));
}

}  // namespace
}  // namespace pmcount
