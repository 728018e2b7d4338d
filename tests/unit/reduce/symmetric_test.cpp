// WorkSymmetric: reducing a symmetric matrix and counting what is left gives the hafnian of the
// original, checked against a sum over all pairings on seeded random matrices (exactly for
// integers, to 1e-12 of haf(|A|) for reals and complex numbers).
#include "reduce/symmetric.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>

#include "pmcount/big_int.hpp"
#include "pmcount/error.hpp"
#include "support/general_graphs.hpp"

namespace pmcount::reduce {
namespace {

using test::Rng;

/// Exact accumulator for integers, long double (complex) for the floating kinds.
template <class T>
struct Acc;
template <>
struct Acc<std::int64_t> {
    using type = BigInt;
};
template <>
struct Acc<double> {
    using type = long double;
};
template <>
struct Acc<std::complex<double>> {
    using type = std::complex<long double>;
};
template <class T>
using acc_t = typename Acc<T>::type;

template <class T>
acc_t<T> widen(const T& x) {
    if constexpr (std::is_same_v<T, std::int64_t>) {
        return BigInt(x);
    } else if constexpr (std::is_same_v<T, double>) {
        return static_cast<long double>(x);
    } else {
        return {static_cast<long double>(x.real()), static_cast<long double>(x.imag())};
    }
}

/// haf of the dense symmetric matrix a restricted to `set`: the lowest vertex of the set is paired
/// with each other member in turn. (n − 1)!! terms; n ≤ 12.
template <class T>
acc_t<T> brute_hafnian(const DenseMatrix<T>& a, std::uint32_t set) {
    if (set == 0) {
        return acc_t<T>(1);
    }
    const int v = __builtin_ctz(set);
    const std::uint32_t rest = set & ~(1u << v);
    acc_t<T> total(0);
    for (std::uint32_t others = rest; others != 0; others &= others - 1) {
        const int u = __builtin_ctz(others);
        if (a(v, u) != T{}) {
            total += widen(a(v, u)) * brute_hafnian(a, rest & ~(1u << u));
        }
    }
    return total;
}

template <class T>
acc_t<T> brute_hafnian(const SparseMatrix<T>& a) {
    return brute_hafnian(a.to_dense(), (1u << a.rows()) - 1);
}

struct Stats {
    ReductionCounts applied;
    int refused = 0;  ///< contract() returned false
};

/// Applies the rules until none applies (splitting vertices of degree 3 or 4 when `split`), then
/// counts the rest by brute force: haf of the original matrix.
template <class T>
acc_t<T> reduce_and_count(WorkSymmetric<T> w, bool split, Stats& stats) {
    acc_t<T> factor(1);
    while (true) {
        const auto [degree, v] = w.min_vertex();
        if (degree < 0) {
            stats.applied += w.counts();
            return factor;  // all vertices paired off: haf of the empty matrix is 1
        }
        if (degree == 0) {
            stats.applied += w.counts();
            return acc_t<T>(0);
        }
        if (degree == 1) {
            factor *= widen(w.eliminate(v));
            continue;
        }
        if (degree == 2) {
            if (w.contract(v)) {
                continue;
            }
            ++stats.refused;
        }
        if (split && degree >= 3 && degree <= 4 && w.can_contract()) {
            auto [first, second] = w.split(v);
            stats.applied += w.counts();
            return factor * (reduce_and_count(std::move(first), split, stats) +
                             reduce_and_count(std::move(second), split, stats));
        }
        stats.applied += w.counts();
        std::vector<vertex_t> original;
        return factor * brute_hafnian(w.extract(original));
    }
}

/// A random symmetric matrix of order n: each pair present with probability per_mille / 1000,
/// its value drawn by draw(rng) (zeros dropped); diagonal entries added at random (ignored by
/// the hafnian).
template <class T, class Draw>
SparseMatrix<T> random_symmetric(vertex_t n, std::uint64_t per_mille, Rng& rng, Draw draw) {
    std::vector<Triplet<T>> entries;
    for (vertex_t i = 0; i < n; ++i) {
        if (rng.chance(200)) {
            entries.push_back({i, i, draw(rng)});
        }
        for (vertex_t j = i + 1; j < n; ++j) {
            if (rng.chance(per_mille)) {
                const T value = draw(rng);
                entries.push_back({i, j, value});
                entries.push_back({j, i, value});
            }
        }
    }
    return {n, n, entries};
}

template <class T>
double magnitude(const acc_t<T>& x) {
    return static_cast<double>(std::abs(x));
}

template <class T, class Draw>
Stats check_random(std::uint64_t first_seed, int count, Draw draw) {
    Stats stats;
    for (std::uint64_t seed = first_seed; seed < first_seed + static_cast<std::uint64_t>(count);
         ++seed) {
        Rng rng(seed);
        const auto n = static_cast<vertex_t>(seed % 7 == 0 ? rng.below(13) : 2 * rng.below(7));
        const SparseMatrix<T> a = random_symmetric<T>(n, 150 + seed % 400, rng, draw);
        const acc_t<T> expected = brute_hafnian(a);
        for (const bool split : {false, true}) {
            const acc_t<T> got = reduce_and_count(WorkSymmetric<T>(a), split, stats);
            if constexpr (std::is_same_v<T, std::int64_t>) {
                EXPECT_EQ(got.to_string(), expected.to_string()) << "seed " << seed;
            } else {
                // The scale: haf(|A|) bounds every partial sum.
                std::vector<Triplet<double>> abs_entries;
                for (const auto& t : a.triplets()) {
                    abs_entries.push_back({t.row, t.col, std::abs(t.value)});
                }
                const long double scale = brute_hafnian(SparseMatrix<double>(n, n, abs_entries));
                EXPECT_LE(magnitude<T>(got - expected), 1e-12 * static_cast<double>(scale) + 1e-300)
                    << "seed " << seed;
            }
        }
    }
    return stats;
}

TEST(WorkSymmetric, ZeroOneMatricesCountPerfectMatchings) {
    const Stats s = check_random<std::int64_t>(0, 400, [](Rng&) { return std::int64_t{1}; });
    EXPECT_GT(s.applied.eliminated, 200);
    EXPECT_GT(s.applied.merged, 200);
    EXPECT_GT(s.applied.split, 100);
    EXPECT_EQ(s.refused, 0);
}

TEST(WorkSymmetric, SignedIntegersExactly) {
    const Stats s =
        check_random<std::int64_t>(1000, 400, [](Rng& rng) { return rng.between(-3, 3); });
    EXPECT_GT(s.applied.eliminated, 200);
    EXPECT_GT(s.applied.merged, 200);
    EXPECT_GT(s.applied.split, 100);
}

TEST(WorkSymmetric, LargeIntegersRefuseOverflowingContractions) {
    // Entries up to 2^40: contractions form products up to 2^80 and are mostly refused (they go
    // through when a and b have no other neighbours); the rest is counted exactly by brute force
    // over big integers.
    const Stats s = check_random<std::int64_t>(2000, 200, [](Rng& rng) {
        return rng.between(-(std::int64_t{1} << 40), std::int64_t{1} << 40);
    });
    EXPECT_GT(s.applied.eliminated, 100);
    EXPECT_GT(s.refused, 30);
}

TEST(WorkSymmetric, NonnegativeRealsToRoundingError) {
    const Stats s = check_random<double>(3000, 400, [](Rng& rng) { return 2.0 * rng.unit(); });
    EXPECT_GT(s.applied.merged, 200);
    EXPECT_GT(s.applied.split, 100);
    EXPECT_EQ(s.refused, 0);
}

TEST(WorkSymmetric, SignedRealsAndComplexOnlyEliminate) {
    const Stats r =
        check_random<double>(4000, 300, [](Rng& rng) { return 2.0 * rng.unit() - 1.0; });
    EXPECT_GT(r.applied.eliminated, 100);
    EXPECT_GT(r.refused, 50);
    EXPECT_EQ(r.applied.merged, 0);
    EXPECT_EQ(r.applied.split, 0);
    const Stats z = check_random<std::complex<double>>(5000, 300, [](Rng& rng) {
        return std::complex<double>(2.0 * rng.unit() - 1.0, 2.0 * rng.unit() - 1.0);
    });
    EXPECT_GT(z.applied.eliminated, 100);
    EXPECT_GT(z.refused, 100);
    EXPECT_EQ(z.applied.merged, 0);
}

SparseMatrix<std::int64_t> adjacency(const UndirectedGraph& g) {
    std::vector<Triplet<std::int64_t>> entries;
    for (const auto& [u, v] : g.edges()) {
        entries.push_back({u, v, 1});
        entries.push_back({v, u, 1});
    }
    return {g.num_vertices(), g.num_vertices(), entries};
}

TEST(WorkSymmetric, NamedGraphs) {
    struct Case {
        const char* name;
        UndirectedGraph g;
        std::int64_t matchings;
    };
    const std::vector<Case> cases = {
        {"empty", UndirectedGraph(), 1},
        {"isolated vertex", UndirectedGraph(1, {}), 0},
        {"single edge", UndirectedGraph(2, {{0, 1}}), 1},
        {"path of 10", test::path_graph(10), 1},
        {"path of 9", test::path_graph(9), 0},
        {"10-cycle", test::cycle_graph(10), 2},
        {"triangle with a pendant", UndirectedGraph(4, {{0, 1}, {1, 2}, {2, 0}, {2, 3}}), 1},
        {"K_4", test::complete_graph(4), 3},
        {"K_6", test::complete_graph(6), 15},
        {"Petersen", test::petersen_graph(), 6},
    };
    for (const Case& c : cases) {
        Stats stats;
        EXPECT_EQ(
            reduce_and_count(WorkSymmetric<std::int64_t>(adjacency(c.g)), true, stats).to_string(),
            std::to_string(c.matchings))
            << c.name;
    }
    // A long cycle reduces completely: 499 contractions down to one edge of weight 2.
    Stats stats;
    EXPECT_EQ(reduce_and_count(WorkSymmetric<std::int64_t>(adjacency(test::cycle_graph(1000))),
                               false, stats)
                  .to_string(),
              "2");
    EXPECT_EQ(stats.applied.merged, 499);
    EXPECT_EQ(stats.applied.eliminated, 1);
}

TEST(WorkSymmetric, ContractionFormula) {
    // v = 0 with a = 1 (weight 2) and b = 2 (weight 3); a–3 weight 5, b–3 weight 7, b–4 weight 11,
    // a–b weight 13 (no perfect matching can use it once v is gone).
    const std::vector<Triplet<std::int64_t>> half = {{0, 1, 2},  {0, 2, 3},  {1, 3, 5}, {2, 3, 7},
                                                     {2, 4, 11}, {1, 2, 13}, {3, 4, 17}};
    std::vector<Triplet<std::int64_t>> entries;
    for (const auto& t : half) {
        entries.push_back(t);
        entries.push_back({t.col, t.row, t.value});
    }
    WorkSymmetric<std::int64_t> w(SparseMatrix<std::int64_t>(5, 5, entries));
    ASSERT_TRUE(w.contract(0));
    EXPECT_EQ(w.order(), 3);
    std::vector<vertex_t> original;
    const auto dense = w.extract(original).to_dense();
    EXPECT_EQ(original, (std::vector<vertex_t>{1, 3, 4}));
    EXPECT_EQ(dense(0, 1), 3 * 5 + 2 * 7);  // a′_x3 = a_vb·a_a3 + a_va·a_b3
    EXPECT_EQ(dense(0, 2), 3 * 0 + 2 * 11);
    EXPECT_EQ(dense(1, 0), dense(0, 1));
    EXPECT_EQ(dense(1, 2), 17);
    EXPECT_EQ(w.counts().merged, 1);
}

TEST(WorkSymmetric, OverflowLeavesTheMatrixUnchanged) {
    const std::int64_t big = std::numeric_limits<std::int64_t>::max() / 2;
    // v = 0, a = 1 (weight 3), b = 2 (weight 1): a′_x3 = a_vb·a_a3 + a_va·a_b3 = big + 3·big.
    const std::vector<Triplet<std::int64_t>> entries = {{0, 1, 3},   {1, 0, 3},   {0, 2, 1},
                                                        {2, 0, 1},   {1, 3, big}, {3, 1, big},
                                                        {2, 3, big}, {3, 2, big}};
    const SparseMatrix<std::int64_t> a(4, 4, entries);
    WorkSymmetric<std::int64_t> w(a);
    EXPECT_FALSE(w.contract(0));
    std::vector<vertex_t> original;
    EXPECT_EQ(w.extract(original).triplets().size(), entries.size());
    EXPECT_EQ(w.counts().merged, 0);
}

TEST(WorkSymmetric, RefusesNonSymmetricAndNonSquareInput) {
    EXPECT_THROW(WorkSymmetric<std::int64_t>(SparseMatrix<std::int64_t>(2, 2, {{0, 1, 1}})),
                 InvalidArgument);
    EXPECT_THROW(WorkSymmetric<double>(SparseMatrix<double>(2, 2, {{0, 1, 1.0}, {1, 0, 1.5}})),
                 InvalidArgument);
    EXPECT_THROW(WorkSymmetric<std::int64_t>(SparseMatrix<std::int64_t>(2, 3, {})),
                 DimensionMismatch);
    // A stored zero and a missing entry are the same; the diagonal is ignored.
    EXPECT_NO_THROW(WorkSymmetric<std::int64_t>(
        SparseMatrix<std::int64_t>(2, 2, {{0, 1, 0}, {0, 0, 5}, {1, 1, -2}})));
}

}  // namespace
}  // namespace pmcount::reduce
