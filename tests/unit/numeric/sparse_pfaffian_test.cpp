// The sparse Pfaffian against an expansion over all pairings (exact, cpp_int) on seeded random
// skew-symmetric matrices modulo 62-bit primes and in double / complex double; Pf² = det against
// the sparse determinant on larger ones; zero rows, odd order, partners that vanish modulo p, runs
// that follow another prime's pairs and replays of another prime's schedule.
#include "numeric/sparse_pfaffian.hpp"

#include <gtest/gtest.h>

#include <array>
#include <complex>
#include <map>
#include <numeric>
#include <optional>
#include <random>

#include "numeric/cpp_int_bridge.hpp"
#include "numeric/primes.hpp"
#include "numeric/sparse_determinant.hpp"

namespace pmcount::numeric {
namespace {

/// A skew-symmetric matrix as its upper entries (a < b) and the full rows.
template <class T>
struct Skew {
    vertex_t n = 0;
    std::map<std::pair<vertex_t, vertex_t>, T> upper;

    T at(vertex_t a, vertex_t b) const {
        if (a == b) {
            return T{};
        }
        const auto it = upper.find({std::min(a, b), std::max(a, b)});
        if (it == upper.end()) {
            return T{};
        }
        return a < b ? it->second : -it->second;
    }
    template <class V, class Convert>
    SparseRows<V> rows(Convert convert) const {
        SparseRows<V> rows(static_cast<std::size_t>(n));
        for (const auto& [ab, v] : upper) {
            rows[static_cast<std::size_t>(ab.first)].push_back({ab.second, convert(v)});
            rows[static_cast<std::size_t>(ab.second)].push_back({ab.first, convert(-v)});
        }
        for (auto& row : rows) {
            std::sort(row.begin(), row.end(), [](const SparseEntry<V>& x, const SparseEntry<V>& y) {
                return x.col < y.col;
            });
        }
        return rows;
    }
    UndirectedGraph pattern() const {
        std::vector<UndirectedGraph::Edge> edges;
        for (const auto& entry : upper) {
            edges.push_back(entry.first);
        }
        return {n, std::move(edges)};
    }
};

/// Pf by expansion along the first remaining vertex: Pf = Σ_t (−1)^(t−1) K_{v₀ v_t} Pf(rest).
template <class T, class Value>
Value pairing_expansion(const Skew<T>& k, std::vector<vertex_t>& remaining) {
    if (remaining.empty()) {
        return Value(1);
    }
    const vertex_t first = remaining[0];
    Value sum(0);
    for (std::size_t t = 1; t < remaining.size(); ++t) {
        const T entry = k.at(first, remaining[t]);
        if (entry == T{}) {
            continue;
        }
        std::vector<vertex_t> rest;
        for (std::size_t s = 1; s < remaining.size(); ++s) {
            if (s != t) {
                rest.push_back(remaining[s]);
            }
        }
        const Value term = Value(entry) * pairing_expansion<T, Value>(k, rest);
        if (t % 2 == 1) {
            sum += term;
        } else {
            sum -= term;
        }
    }
    return sum;
}

template <class T, class Value>
Value dense_pfaffian(const Skew<T>& k) {
    std::vector<vertex_t> all(static_cast<std::size_t>(k.n));
    std::iota(all.begin(), all.end(), 0);
    return pairing_expansion<T, Value>(k, all);
}

/// A random skew matrix of order n: each pair an entry with probability `density`, values in
/// [−range, range] (zeros stored as structural entries), plus a random perfect matching whose
/// entries are nonzero, returned as mate (n even).
Skew<std::int64_t> random_skew(vertex_t n, double density, std::int64_t range, std::uint64_t seed,
                               std::vector<vertex_t>& mate) {
    std::mt19937_64 rng(seed);
    Skew<std::int64_t> k;
    k.n = n;
    const auto draw = [&rng, range]() {
        return static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(2 * range + 1)) - range;
    };
    const auto probability = [&rng]() { return static_cast<double>(rng() >> 11) * 0x1p-53; };
    for (vertex_t a = 0; a < n; ++a) {
        for (vertex_t b = a + 1; b < n; ++b) {
            if (probability() < density) {
                k.upper[{a, b}] = draw();
            }
        }
    }
    std::vector<vertex_t> perm(static_cast<std::size_t>(n));
    std::iota(perm.begin(), perm.end(), 0);
    for (std::size_t i = perm.size(); i > 1; --i) {
        std::swap(perm[i - 1], perm[static_cast<std::size_t>(rng() % i)]);
    }
    mate.assign(static_cast<std::size_t>(n), -1);
    for (std::size_t i = 0; i + 1 < perm.size(); i += 2) {
        const vertex_t a = std::min(perm[i], perm[i + 1]);
        const vertex_t b = std::max(perm[i], perm[i + 1]);
        mate[static_cast<std::size_t>(a)] = b;
        mate[static_cast<std::size_t>(b)] = a;
        std::int64_t v = draw();
        k.upper[{a, b}] = v == 0 ? 1 : v;
    }
    return k;
}

/// Pf(K) mod p through the sparse elimination; `pairs` receives the pivot pairs.
std::uint64_t sparse_residue(const Skew<std::int64_t>& k, const PairingOrder& order,
                             std::uint64_t p, const std::vector<vertex_t>& follow,
                             std::vector<vertex_t>* pairs = nullptr) {
    const ModularField field(p);
    auto result = eliminate_pfaffian(
        field, k.rows<std::uint64_t>([&field](std::int64_t v) { return field.from_int(v); }), order,
        follow);
    if (pairs != nullptr) {
        *pairs = result.record.pairs;
    }
    if (result.singular) {
        return 0;
    }
    std::uint64_t product = field.one();
    for (const std::uint64_t pivot : result.pivots) {
        product = field.mul(product, pivot);
    }
    const std::uint64_t r = field.residue(product);
    return result.sign > 0 || r == 0 ? r : p - r;
}

/// Pf(K) mod p by replaying the record of an elimination modulo q; nullopt when a pivot
/// vanishes modulo p.
std::optional<std::uint64_t> replayed_residue(const Skew<std::int64_t>& k,
                                              const PairingOrder& order, std::uint64_t q,
                                              std::uint64_t p) {
    const ModularField q_field(q);
    const auto first = eliminate_pfaffian(
        q_field, k.rows<std::uint64_t>([&q_field](std::int64_t v) { return q_field.from_int(v); }),
        order, {});
    if (first.singular) {
        return std::nullopt;
    }
    std::vector<std::pair<vertex_t, vertex_t>> entries;
    std::vector<std::int64_t> values;
    for (const auto& [ab, v] : k.upper) {
        entries.push_back(ab);
        values.push_back(v);
    }
    const PfaffianSchedule schedule = make_schedule(first.record, entries);
    const ModularField field(p);
    const auto pf =
        replay_pfaffian(field, schedule, [&](std::size_t e) { return field.from_int(values[e]); });
    if (!pf) {
        return std::nullopt;
    }
    return field.residue(*pf);
}

/// Pf(K) modulo four primes at once by a replay in lanes; nullopt when a pivot vanishes modulo
/// one of them.
std::optional<std::array<std::uint64_t, 4>> replayed_lanes(const Skew<std::int64_t>& k,
                                                           const PairingOrder& order,
                                                           std::uint64_t q,
                                                           const std::array<std::uint64_t, 4>& p) {
    const ModularField q_field(q);
    const auto first = eliminate_pfaffian(
        q_field, k.rows<std::uint64_t>([&q_field](std::int64_t v) { return q_field.from_int(v); }),
        order, {});
    std::vector<std::pair<vertex_t, vertex_t>> entries;
    std::vector<std::int64_t> values;
    for (const auto& [ab, v] : k.upper) {
        entries.push_back(ab);
        values.push_back(v);
    }
    const ModularLanes<4> field(p);
    const auto pf = replay_pfaffian(field, make_schedule(first.record, entries),
                                    [&](std::size_t e) { return field.from_int(values[e]); });
    if (!pf) {
        return std::nullopt;
    }
    std::array<std::uint64_t, 4> out{};
    for (std::size_t l = 0; l < 4; ++l) {
        out[l] = field.residue(*pf, l);
    }
    return out;
}

std::uint64_t reduce(const cpp_int& v, std::uint64_t p) {
    cpp_int r = v % p;
    if (r < 0) {
        r += p;
    }
    return static_cast<std::uint64_t>(r);
}

TEST(SparsePfaffian, MatchesThePairingExpansionModuloPrimes) {
    const std::vector<std::uint64_t> primes = large_primes(5);
    int nonzero = 0;
    for (std::uint64_t seed = 0; seed < 300; ++seed) {
        const auto n = static_cast<vertex_t>(2 * (1 + seed % 6));  // 2 … 12
        const double density = 0.15 + 0.7 * static_cast<double>(seed % 7) / 6.0;
        std::vector<vertex_t> mate;
        const Skew<std::int64_t> k =
            random_skew(n, density, seed % 3 == 0 ? 1 : 1000000007, seed, mate);
        const cpp_int expected = dense_pfaffian<std::int64_t, cpp_int>(k);
        nonzero += expected != 0 ? 1 : 0;
        // With and without preferred partners.
        const PairingOrder order = minimum_degree_pairing(k.pattern(), mate);
        const PairingOrder no_partners{order.vertices, std::vector<vertex_t>(mate.size(), -1)};
        for (const PairingOrder* o : {&order, &no_partners}) {
            std::vector<vertex_t> pairs;
            EXPECT_EQ(sparse_residue(k, *o, primes[0], {}, &pairs), reduce(expected, primes[0]))
                << "seed " << seed;
            EXPECT_EQ(sparse_residue(k, *o, primes[1], pairs), reduce(expected, primes[1]))
                << "seed " << seed;
        }
        if (expected % primes[0] != 0) {
            EXPECT_EQ(replayed_residue(k, order, primes[0], primes[1]),
                      std::optional<std::uint64_t>(reduce(expected, primes[1])))
                << "seed " << seed;
            const std::array<std::uint64_t, 4> lanes = {primes[1], primes[2], primes[3], primes[4]};
            std::array<std::uint64_t, 4> wanted{};
            for (std::size_t l = 0; l < 4; ++l) {
                wanted[l] = reduce(expected, lanes[l]);
            }
            if (std::find(wanted.begin(), wanted.end(), 0u) == wanted.end()) {
                EXPECT_EQ(replayed_lanes(k, order, primes[0], lanes), wanted) << "seed " << seed;
            }
        }
    }
    EXPECT_GT(nonzero, 250);
}

TEST(SparsePfaffian, OrderIsAPermutationOfTheVertices) {
    std::vector<vertex_t> mate;
    const Skew<std::int64_t> k = random_skew(40, 0.1, 5, 7, mate);
    const PairingOrder order = minimum_degree_pairing(k.pattern(), mate);
    std::vector<vertex_t> sorted = order.vertices;
    std::sort(sorted.begin(), sorted.end());
    std::vector<vertex_t> identity(40);
    std::iota(identity.begin(), identity.end(), 0);
    EXPECT_EQ(sorted, identity);
    EXPECT_EQ(order.partner, mate);
}

TEST(SparsePfaffian, PartnersThatVanishModuloThePrimeAndFollowedPairsThatDo) {
    // Every preferred partner's entry is a multiple of p: each step falls back to another entry.
    const std::uint64_t p = large_primes(1)[0];
    const std::uint64_t q = large_primes(2)[1];
    for (std::uint64_t seed = 0; seed < 60; ++seed) {
        std::vector<vertex_t> mate;
        Skew<std::int64_t> k = random_skew(10, 0.5, 1000, 500 + seed, mate);
        for (vertex_t a = 0; a < 10; ++a) {
            if (a < mate[static_cast<std::size_t>(a)]) {
                k.upper[{a, mate[static_cast<std::size_t>(a)]}] = static_cast<std::int64_t>(p);
            }
        }
        const cpp_int expected = dense_pfaffian<std::int64_t, cpp_int>(k);
        const PairingOrder order = minimum_degree_pairing(k.pattern(), mate);
        std::vector<vertex_t> q_pairs;
        EXPECT_EQ(sparse_residue(k, order, q, {}, &q_pairs), reduce(expected, q));
        // Modulo p the pairs chosen modulo q (mostly matching edges) vanish: a replay gives up,
        // a run following them falls back to other partners.
        EXPECT_EQ(replayed_residue(k, order, q, p), std::nullopt) << "seed " << seed;
        EXPECT_EQ(replayed_lanes(k, order, q, {q, q, p, q}), std::nullopt) << "seed " << seed;
        EXPECT_EQ(sparse_residue(k, order, p, q_pairs), reduce(expected, p)) << "seed " << seed;
    }
}

TEST(SparsePfaffian, ZeroRowsAndOddOrderGiveZero) {
    const ModularField field(large_primes(1)[0]);
    std::vector<vertex_t> mate;
    Skew<std::int64_t> k = random_skew(8, 0.6, 9, 3, mate);
    // Vertex 5 only meets zeros: its row of every Schur complement is zero.
    for (auto& [ab, v] : k.upper) {
        if (ab.first == 5 || ab.second == 5) {
            v = 0;
        }
    }
    const PairingOrder order = minimum_degree_pairing(k.pattern(), mate);
    EXPECT_EQ(sparse_residue(k, order, large_primes(1)[0], {}), 0u);
    EXPECT_EQ((dense_pfaffian<std::int64_t, cpp_int>(k)), 0);
    const auto three = eliminate_pfaffian(field, SparseRows<std::uint64_t>(3),
                                          PairingOrder{{0, 1, 2}, {-1, -1, -1}}, {});
    EXPECT_TRUE(three.singular);
    const auto empty = eliminate_pfaffian(field, SparseRows<std::uint64_t>{}, PairingOrder{}, {});
    EXPECT_FALSE(empty.singular);
    EXPECT_TRUE(empty.pivots.empty());
    EXPECT_EQ(empty.sign, 1);
}

TEST(SparsePfaffian, SquareIsTheDeterminantOnLargerMatrices) {
    const std::uint64_t p = large_primes(1)[0];
    const ModularField field(p);
    for (std::uint64_t seed = 0; seed < 20; ++seed) {
        const auto n = static_cast<vertex_t>(40 + 20 * (seed % 4));
        std::vector<vertex_t> mate;
        const Skew<std::int64_t> k = random_skew(n, 4.0 / n, 50, 900 + seed, mate);
        const PairingOrder order = minimum_degree_pairing(k.pattern(), mate);
        const std::uint64_t pf = sparse_residue(k, order, p, {});
        PivotOrder columns;
        columns.columns.resize(static_cast<std::size_t>(n));
        std::iota(columns.columns.begin(), columns.columns.end(), 0);
        columns.preferred_row = mate;
        const auto det = eliminate(
            field, k.rows<std::uint64_t>([&field](std::int64_t v) { return field.from_int(v); }),
            columns, {});
        std::uint64_t d = 0;
        if (!det.singular) {
            std::uint64_t product = field.one();
            for (const std::uint64_t pivot : det.pivots) {
                product = field.mul(product, pivot);
            }
            d = field.residue(product);
            d = det.sign > 0 || d == 0 ? d : p - d;
        }
        EXPECT_EQ(mul_mod(pf, pf, p), d) << "seed " << seed;
        EXPECT_NE(pf, 0u) << "seed " << seed;
    }
}

TEST(SparsePfaffian, TriangularLatticeFillsLikeNestedDissection) {
    // The 30 × 30 triangular lattice (grid and one diagonal per cell) with random weights,
    // matched along the rows:
    // the quotient of the pairs is planar and its minimum degree order keeps the fill near
    // n log n (about 17 000 entries; ordering the vertices alone gives 145 000).
    const vertex_t side = 30;
    std::mt19937_64 rng(30);
    const auto weight = [&rng]() { return 1 + static_cast<std::int64_t>(rng() % 1000); };
    Skew<std::int64_t> k;
    k.n = side * side;
    std::vector<vertex_t> mate(static_cast<std::size_t>(k.n));
    for (vertex_t r = 0; r < side; ++r) {
        for (vertex_t c = 0; c < side; ++c) {
            const vertex_t v = r * side + c;
            mate[static_cast<std::size_t>(v)] = c % 2 == 0 ? v + 1 : v - 1;
            if (c + 1 < side) {
                k.upper[{v, v + 1}] = weight();
            }
            if (r + 1 < side) {
                k.upper[{v, v + side}] = weight();
            }
            if (r + 1 < side && c + 1 < side) {
                k.upper[{v, v + side + 1}] = weight();
            }
        }
    }
    const ModularField field(large_primes(1)[0]);
    const auto result = eliminate_pfaffian(
        field, k.rows<std::uint64_t>([&field](std::int64_t v) { return field.from_int(v); }),
        minimum_degree_pairing(k.pattern(), mate), {});
    EXPECT_EQ(result.record.pairs.size(), 900u);
    EXPECT_EQ(result.record.front_offsets.size(), 451u);
    EXPECT_GT(result.record.factor_entries(), 2 * 2600);  // at least the edges
    EXPECT_LT(result.record.factor_entries(), 25000);
}

template <class T>
void check_floating(std::uint64_t seed_base) {
    for (std::uint64_t seed = 0; seed < 100; ++seed) {
        const auto n = static_cast<vertex_t>(2 * (1 + seed % 6));
        std::vector<vertex_t> mate;
        const Skew<std::int64_t> pattern = random_skew(n, 0.5, 1, seed_base + seed, mate);
        std::mt19937_64 rng(seed_base + seed);
        std::uniform_real_distribution<double> unit(-1.0, 1.0);
        Skew<T> k;
        k.n = n;
        for (const auto& entry : pattern.upper) {
            if constexpr (std::is_same_v<T, double>) {
                k.upper[entry.first] = unit(rng);
            } else {
                k.upper[entry.first] = T(unit(rng), unit(rng));
            }
        }
        const T expected = dense_pfaffian<T, T>(k);
        const auto result =
            eliminate_pfaffian(FloatField<T>{}, k.template rows<T>([](T v) { return v; }),
                               minimum_degree_pairing(k.pattern(), mate), {});
        ASSERT_FALSE(result.singular);
        T got = T(result.sign);
        for (const T& pivot : result.pivots) {
            got *= pivot;
        }
        EXPECT_NEAR(std::abs(got - expected), 0.0, 1e-12 * (1 + std::abs(expected)))
            << "seed " << seed;
    }
}

TEST(SparsePfaffian, FloatingPointMatchesThePairingExpansion) {
    check_floating<double>(2000);
    check_floating<std::complex<double>>(3000);
}

}  // namespace
}  // namespace pmcount::numeric
