// The planar engine for general graphs: the FKT orientation checked on every perfect matching of
// seeded random planar graphs (triangulated grids, wheels, outerplanar and stacked
// triangulations; with bridges, cut vertices, several components, shuffled labels); exact
// hafnians against a count over all pairings (0-1 and signed integer weights); known counts
// (K4, octahedron, prism, cube, icosahedron, dodecahedron, C60); triangular-lattice strips
// against a transfer matrix; bipartite graphs against the Kasteleyn determinant; non-planar,
// non-symmetric and non-square inputs rejected; floating point within its estimate.
#include "exact/planar/pfaffian.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <complex>
#include <limits>
#include <map>
#include <numeric>
#include <random>
#include <set>
#include <tuple>

#include "exact/planar/planar.hpp"
#include "exact/planar/plane_embedding.hpp"
#include "numeric/elimination_fields.hpp"
#include "numeric/primes.hpp"
#include "pmcount/error.hpp"
#include "pmcount/generate.hpp"
#include "support/engine_run.hpp"

namespace pmcount::exact {
namespace {

using test::threads;

/// An undirected graph with a weight per edge.
template <class W>
struct Weighted {
    vertex_t n = 0;
    std::vector<std::tuple<vertex_t, vertex_t, W>> edges;

    UndirectedGraph graph() const {
        std::vector<UndirectedGraph::Edge> pairs;
        for (const auto& [u, v, w] : edges) {
            pairs.emplace_back(u, v);
        }
        return {n, std::move(pairs)};
    }
    /// The symmetric matrix with both (u, v) and (v, u).
    SparseMatrix<W> matrix() const {
        std::vector<Triplet<W>> entries;
        for (const auto& [u, v, w] : edges) {
            entries.push_back({u, v, w});
            entries.push_back({v, u, w});
        }
        return {n, n, std::move(entries)};
    }
};

using Graph = Weighted<std::int64_t>;

Graph unweighted(vertex_t n, const std::vector<std::pair<vertex_t, vertex_t>>& edges) {
    Graph g;
    g.n = n;
    for (const auto& [u, v] : edges) {
        g.edges.emplace_back(u, v, 1);
    }
    return g;
}

/// Σ over perfect matchings of the product of weights: the lowest unmatched vertex takes each
/// unmatched neighbour in turn.
template <class W>
W pairings(const std::vector<std::vector<std::pair<vertex_t, W>>>& adjacency,
           std::vector<char>& used) {
    const auto first = std::find(used.begin(), used.end(), 0);
    if (first == used.end()) {
        return W(1);
    }
    const auto u = static_cast<std::size_t>(first - used.begin());
    used[u] = 1;
    W sum(0);
    for (const auto& [v, w] : adjacency[u]) {
        if (used[static_cast<std::size_t>(v)] == 0) {
            used[static_cast<std::size_t>(v)] = 1;
            sum += w * pairings(adjacency, used);
            used[static_cast<std::size_t>(v)] = 0;
        }
    }
    used[u] = 0;
    return sum;
}

template <class W>
W brute_force_hafnian(const Weighted<W>& g) {
    std::vector<std::vector<std::pair<vertex_t, W>>> adjacency(static_cast<std::size_t>(g.n));
    for (const auto& [u, v, w] : g.edges) {
        adjacency[static_cast<std::size_t>(u)].emplace_back(v, w);
        adjacency[static_cast<std::size_t>(v)].emplace_back(u, w);
    }
    std::vector<char> used(static_cast<std::size_t>(g.n), 0);
    return pairings(adjacency, used);
}

/// Every perfect matching of `graph` as its pairs (u, v), u < v.
void perfect_matchings(const UndirectedGraph& graph, std::vector<char>& used,
                       std::vector<std::pair<vertex_t, vertex_t>>& current,
                       std::vector<std::vector<std::pair<vertex_t, vertex_t>>>& out) {
    const auto first = std::find(used.begin(), used.end(), 0);
    if (first == used.end()) {
        out.push_back(current);
        return;
    }
    const auto u = static_cast<vertex_t>(first - used.begin());
    used[static_cast<std::size_t>(u)] = 1;
    for (const vertex_t v : graph.neighbours(u)) {
        if (used[static_cast<std::size_t>(v)] == 0) {
            used[static_cast<std::size_t>(v)] = 1;
            current.emplace_back(std::min(u, v), std::max(u, v));
            perfect_matchings(graph, used, current, out);
            current.pop_back();
            used[static_cast<std::size_t>(v)] = 0;
        }
    }
    used[static_cast<std::size_t>(u)] = 0;
}

// ---------------------------------------------------------------------------------------------
// Random planar graphs.

/// The rows × cols grid with one diagonal per cell, its direction drawn at random.
std::vector<std::pair<vertex_t, vertex_t>> triangulated_grid(int rows, int cols,
                                                             std::mt19937_64& rng) {
    std::vector<std::pair<vertex_t, vertex_t>> edges;
    const auto id = [cols](int r, int c) { return static_cast<vertex_t>(r * cols + c); };
    for (int r = 0; r < rows; ++r) {
        for (int c = 0; c < cols; ++c) {
            if (c + 1 < cols) {
                edges.emplace_back(id(r, c), id(r, c + 1));
            }
            if (r + 1 < rows) {
                edges.emplace_back(id(r, c), id(r + 1, c));
            }
            if (r + 1 < rows && c + 1 < cols) {
                if (rng() % 2 == 0) {
                    edges.emplace_back(id(r, c), id(r + 1, c + 1));
                } else {
                    edges.emplace_back(id(r, c + 1), id(r + 1, c));
                }
            }
        }
    }
    return edges;
}

/// The wheel: hub 0 and the cycle 1 … spokes.
std::vector<std::pair<vertex_t, vertex_t>> wheel(int spokes) {
    std::vector<std::pair<vertex_t, vertex_t>> edges;
    for (int i = 1; i <= spokes; ++i) {
        edges.emplace_back(0, i);
        edges.emplace_back(i, i % spokes + 1);
    }
    return edges;
}

/// A triangulated polygon on 0 … n−1 (outerplanar): the cycle and random non-crossing chords.
void triangulate(int first, int last, std::mt19937_64& rng,
                 std::vector<std::pair<vertex_t, vertex_t>>& edges) {
    if (last - first < 2) {
        return;
    }
    const int apex =
        first + 1 + static_cast<int>(rng() % static_cast<std::uint64_t>(last - first - 1));
    if (apex - first > 1) {
        edges.emplace_back(first, apex);
    }
    if (last - apex > 1) {
        edges.emplace_back(apex, last);
    }
    triangulate(first, apex, rng, edges);
    triangulate(apex, last, rng, edges);
}

std::vector<std::pair<vertex_t, vertex_t>> outerplanar(int n, std::mt19937_64& rng) {
    std::vector<std::pair<vertex_t, vertex_t>> edges;
    for (int i = 0; i < n; ++i) {
        edges.emplace_back(i, (i + 1) % n);
    }
    triangulate(0, n - 1, rng, edges);
    return edges;
}

/// A stacked triangulation: a triangle, then each new vertex inside a random face, joined to
/// its three corners (maximal planar).
std::vector<std::pair<vertex_t, vertex_t>> stacked_triangulation(int n, std::mt19937_64& rng) {
    std::vector<std::pair<vertex_t, vertex_t>> edges = {{0, 1}, {1, 2}, {0, 2}};
    std::vector<std::array<vertex_t, 3>> faces = {{0, 1, 2}, {0, 1, 2}};
    for (vertex_t v = 3; v < n; ++v) {
        const auto f = static_cast<std::size_t>(rng() % faces.size());
        const auto [a, b, c] = faces[f];
        edges.insert(edges.end(), {{a, v}, {b, v}, {c, v}});
        faces[f] = {a, b, v};
        faces.push_back({b, c, v});
        faces.push_back({a, c, v});
    }
    return edges;
}

/// One random planar piece of about `size` vertices: its vertex count and edges.
std::pair<vertex_t, std::vector<std::pair<vertex_t, vertex_t>>> random_piece(int size,
                                                                             std::mt19937_64& rng) {
    switch (rng() % 4) {
        case 0: {
            const int rows = 2 + static_cast<int>(rng() % 2);
            const int cols = std::max(1, size / rows);
            return {rows * cols, triangulated_grid(rows, cols, rng)};
        }
        case 1:
            return {size, wheel(size - 1)};
        case 2:
            return {size, outerplanar(size, rng)};
        default:
            return {size, stacked_triangulation(size, rng)};
    }
}

/// A random planar graph of at most `max_n` vertices: one to three random pieces, each a random
/// subgraph, put side by side, glued at a vertex (a cut vertex) or joined by an edge (a bridge);
/// labels shuffled. Weights 1, or in [−3, 3] \ {0} when `signed_weights`.
Graph random_planar(int max_n, bool signed_weights, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    const int pieces = 1 + static_cast<int>(rng() % 3);
    const double keep = 0.7 + 0.3 * static_cast<double>(rng() % 1000) / 1000.0;
    vertex_t n = 0;
    std::vector<std::pair<vertex_t, vertex_t>> edges;
    for (int p = 0; p < pieces; ++p) {
        const int budget = max_n - static_cast<int>(n);
        if (budget < 4) {
            break;
        }
        const int size =
            4 + static_cast<int>(
                    rng() % static_cast<std::uint64_t>(std::min(budget, max_n / pieces + 2) - 3));
        const auto [m, piece] = random_piece(std::min(size, budget), rng);
        // Glue: 0 side by side, 1 identify the piece's vertex 0 with a vertex of the graph so
        // far, 2 a bridge from the graph so far to the piece.
        const int glue = n == 0 ? 0 : static_cast<int>(rng() % 3);
        const vertex_t offset = glue == 1 ? n - 1 : n;
        const vertex_t anchor =
            n == 0 ? 0 : static_cast<vertex_t>(rng() % static_cast<std::uint64_t>(n));
        const auto map = [&](vertex_t x) { return glue == 1 && x == 0 ? anchor : offset + x; };
        for (const auto& [u, v] : piece) {
            if (static_cast<double>(rng() % 1000) < 1000.0 * keep) {
                edges.emplace_back(map(u), map(v));
            }
        }
        if (glue == 2) {
            edges.emplace_back(anchor, offset);
        }
        n = glue == 1 ? offset + m : n + m;
    }
    // Mostly even orders: an odd one gets a vertex joined to both ends of an edge (an ear).
    if (n % 2 == 1 && rng() % 4 != 0) {
        const auto [a, b] = edges.empty() ? std::make_pair(vertex_t{0}, vertex_t{0})
                                          : edges[static_cast<std::size_t>(rng() % edges.size())];
        edges.emplace_back(a, n);
        edges.emplace_back(b, n);
        ++n;
    }
    std::vector<vertex_t> label(static_cast<std::size_t>(n));
    std::iota(label.begin(), label.end(), 0);
    std::shuffle(label.begin(), label.end(), rng);
    std::map<std::pair<vertex_t, vertex_t>, std::int64_t> unique;
    for (const auto& [u, v] : edges) {
        const vertex_t a = label[static_cast<std::size_t>(u)];
        const vertex_t b = label[static_cast<std::size_t>(v)];
        if (a != b) {
            const std::int64_t w = signed_weights ? (1 + static_cast<std::int64_t>(rng() % 3)) *
                                                        (rng() % 2 == 0 ? 1 : -1)
                                                  : 1;
            unique.emplace(std::make_pair(std::min(a, b), std::max(a, b)), w);
        }
    }
    Graph g;
    g.n = n;
    for (const auto& [uv, w] : unique) {
        g.edges.emplace_back(uv.first, uv.second, w);
    }
    return g;
}

// ---------------------------------------------------------------------------------------------
// Polyhedra.

std::vector<std::pair<vertex_t, vertex_t>> complete_graph(vertex_t n) {
    std::vector<std::pair<vertex_t, vertex_t>> edges;
    for (vertex_t u = 0; u < n; ++u) {
        for (vertex_t v = u + 1; v < n; ++v) {
            edges.emplace_back(u, v);
        }
    }
    return edges;
}

/// Top 0, upper pentagon 1–5, lower pentagon 6–10, bottom 11; upper i meets lower i and i + 1.
std::vector<std::pair<vertex_t, vertex_t>> icosahedron() {
    std::vector<std::pair<vertex_t, vertex_t>> edges;
    for (vertex_t i = 0; i < 5; ++i) {
        const vertex_t up = 1 + i;
        const vertex_t up_next = 1 + (i + 1) % 5;
        const vertex_t low = 6 + i;
        const vertex_t low_next = 6 + (i + 1) % 5;
        edges.insert(
            edges.end(),
            {{0, up}, {up, up_next}, {up, low}, {up, low_next}, {low, low_next}, {low, 11}});
    }
    return edges;
}

/// The triangles of a graph (its faces when it is the icosahedron, which has no other ones).
std::vector<std::array<vertex_t, 3>> triangles(const UndirectedGraph& g) {
    std::vector<std::array<vertex_t, 3>> out;
    for (const auto& [u, v] : g.edges()) {
        for (const vertex_t w : g.neighbours(v)) {
            if (w > v && g.has_edge(u, w)) {
                out.push_back({u, v, w});
            }
        }
    }
    return out;
}

/// The dodecahedron as the dual of the icosahedron: its faces, joined when they share an edge.
std::pair<vertex_t, std::vector<std::pair<vertex_t, vertex_t>>> dodecahedron() {
    const UndirectedGraph ico(12, icosahedron());
    const auto faces = triangles(ico);
    std::vector<std::pair<vertex_t, vertex_t>> edges;
    for (std::size_t f = 0; f < faces.size(); ++f) {
        for (std::size_t h = f + 1; h < faces.size(); ++h) {
            int shared = 0;
            for (const vertex_t x : faces[f]) {
                shared += std::count(faces[h].begin(), faces[h].end(), x) > 0 ? 1 : 0;
            }
            if (shared == 2) {
                edges.emplace_back(static_cast<vertex_t>(f), static_cast<vertex_t>(h));
            }
        }
    }
    return {static_cast<vertex_t>(faces.size()), edges};
}

/// Buckminsterfullerene as the truncated icosahedron: a vertex for each dart (u, v) of the
/// icosahedron (the point of edge uv near u), joined to (v, u) along the edge and to (u, w) for
/// the two neighbours w of u adjacent to v (the pentagon cut off around u).
std::pair<vertex_t, std::vector<std::pair<vertex_t, vertex_t>>> buckminsterfullerene() {
    const UndirectedGraph ico(12, icosahedron());
    std::map<std::pair<vertex_t, vertex_t>, vertex_t> dart;
    for (vertex_t u = 0; u < 12; ++u) {
        for (const vertex_t v : ico.neighbours(u)) {
            dart.emplace(std::make_pair(u, v), static_cast<vertex_t>(dart.size()));
        }
    }
    std::vector<std::pair<vertex_t, vertex_t>> edges;
    for (const auto& [uv, id] : dart) {
        const auto [u, v] = uv;
        if (u < v) {
            edges.emplace_back(id, dart.at({v, u}));
        }
        for (const vertex_t w : ico.neighbours(u)) {
            if (w > v && ico.has_edge(v, w)) {
                edges.emplace_back(id, dart.at({u, w}));
            }
        }
    }
    return {static_cast<vertex_t>(dart.size()), edges};
}

/// Face lengths of the (unique, the graph being 3-connected) plane embedding, ascending.
std::vector<std::size_t> face_lengths(const UndirectedGraph& g) {
    const auto plane = embed_planar(g.num_vertices(), g.edges());
    std::vector<std::size_t> lengths;
    for (const auto& face : face_walks(*plane)) {
        lengths.push_back(face.size());
    }
    std::sort(lengths.begin(), lengths.end());
    return lengths;
}

BigInt count(const Graph& g, int t = 1) {
    return pfaffian_exact(g.matrix(), threads(t)).value;
}

// ---------------------------------------------------------------------------------------------
// Triangular lattice.

/// The rows × cols grid with the diagonal (r, c)–(r + 1, c + 1) in every cell; vertex r·cols + c.
Graph triangular_patch(int rows, int cols) {
    std::vector<std::pair<vertex_t, vertex_t>> edges;
    const auto id = [cols](int r, int c) { return static_cast<vertex_t>(r * cols + c); };
    for (int r = 0; r < rows; ++r) {
        for (int c = 0; c < cols; ++c) {
            if (c + 1 < cols) {
                edges.emplace_back(id(r, c), id(r, c + 1));
            }
            if (r + 1 < rows) {
                edges.emplace_back(id(r, c), id(r + 1, c));
            }
            if (r + 1 < rows && c + 1 < cols) {
                edges.emplace_back(id(r, c), id(r + 1, c + 1));
            }
        }
    }
    return unweighted(static_cast<vertex_t>(rows * cols), edges);
}

/// Perfect matchings of triangular_patch(rows, cols) by a transfer matrix over the columns: the
/// state is the set of rows of the current column already matched from the column before.
BigInt triangular_transfer(int rows, int cols) {
    const std::size_t states = std::size_t{1} << rows;
    std::vector<BigInt> ways(states, BigInt(0));
    ways[0] = 1;
    for (int c = 0; c < cols; ++c) {
        // Where each state of column c leads (with multiplicity), by the rows of column c in
        // order: matched already, vertically down, to the right, or diagonally down-right.
        std::vector<BigInt> next(states, BigInt(0));
        const bool last = c + 1 == cols;
        for (unsigned covered = 0; covered < states; ++covered) {
            if (ways[covered].is_zero()) {
                continue;
            }
            const auto walk = [&](const auto& self, int r, unsigned here, unsigned there) -> void {
                if (r == rows) {
                    next[there] += ways[covered];
                    return;
                }
                if ((here >> r & 1u) != 0) {
                    self(self, r + 1, here, there);
                    return;
                }
                if (r + 1 < rows && (here >> (r + 1) & 1u) == 0) {
                    self(self, r + 2, here | 1u << (r + 1), there);
                }
                if (!last && (there >> r & 1u) == 0) {
                    self(self, r + 1, here, there | 1u << r);
                }
                if (!last && r + 1 < rows) {
                    self(self, r + 1, here, there | 1u << (r + 1));
                }
            };
            walk(walk, 0, covered, 0u);
        }
        ways = std::move(next);
    }
    return ways[0];
}

// ---------------------------------------------------------------------------------------------

TEST(PfaffianOrientation, EveryPerfectMatchingHasTheSameSign) {
    int checked = 0;
    for (std::uint64_t seed = 0; seed < 300; ++seed) {
        const UndirectedGraph g = random_planar(16, false, 7000 + seed).graph();
        const auto orientation = pfaffian_orientation(g);
        ASSERT_TRUE(orientation.has_value()) << "seed " << seed;
        ASSERT_EQ(orientation->size(), static_cast<std::size_t>(g.num_edges()));
        const auto edges = g.edges();
        std::vector<char> used(static_cast<std::size_t>(g.num_vertices()), 0);
        std::vector<std::pair<vertex_t, vertex_t>> current;
        std::vector<std::vector<std::pair<vertex_t, vertex_t>>> matchings;
        perfect_matchings(g, used, current, matchings);
        std::set<int> signs;
        for (const auto& m : matchings) {
            std::vector<vertex_t> sequence;
            int sign = 1;
            for (const auto& uv : m) {
                sequence.push_back(uv.first);
                sequence.push_back(uv.second);
                const auto k = std::lower_bound(edges.begin(), edges.end(), uv) - edges.begin();
                sign *= (*orientation)[static_cast<std::size_t>(k)];
            }
            signs.insert(sign * numeric::permutation_sign(sequence));
        }
        EXPECT_LE(signs.size(), 1u) << "seed " << seed;
        checked += matchings.size() > 1 ? 1 : 0;
    }
    EXPECT_GT(checked, 150);  // most graphs have several perfect matchings to compare
}

TEST(Pfaffian, CountsAgreeWithBruteForceOnRandomPlanarGraphs) {
    int nonzero = 0;
    for (std::uint64_t seed = 0; seed < 400; ++seed) {
        const Graph g = random_planar(18, seed % 2 == 1, seed);
        const BigInt expected(brute_force_hafnian(g));
        EXPECT_EQ(count(g, 1 + static_cast<int>(seed % 2)), expected) << "seed " << seed;
        nonzero += expected.is_zero() ? 0 : 1;
    }
    EXPECT_GT(nonzero, 150);
}

TEST(Pfaffian, KnownCounts) {
    EXPECT_EQ(count(unweighted(4, complete_graph(4))), BigInt(3));
    // The octahedron: K6 minus a perfect matching.
    std::vector<std::pair<vertex_t, vertex_t>> octahedron;
    for (const auto& [u, v] : complete_graph(6)) {
        if (!(u % 2 == 0 && v == u + 1)) {
            octahedron.emplace_back(u, v);
        }
    }
    EXPECT_EQ(count(unweighted(6, octahedron)), BigInt(8));
    EXPECT_EQ(count(unweighted(
                  6, {{0, 1}, {1, 2}, {0, 2}, {3, 4}, {4, 5}, {3, 5}, {0, 3}, {1, 4}, {2, 5}})),
              BigInt(4));  // the triangular prism
    std::vector<std::pair<vertex_t, vertex_t>> cube;
    for (vertex_t u = 0; u < 8; ++u) {
        for (const vertex_t bit : {1, 2, 4}) {
            if ((u & bit) == 0) {
                cube.emplace_back(u, u | bit);
            }
        }
    }
    EXPECT_EQ(count(unweighted(8, cube)), BigInt(9));

    const UndirectedGraph ico(12, icosahedron());
    ASSERT_EQ(ico.num_edges(), 30);
    for (vertex_t v = 0; v < 12; ++v) {
        ASSERT_EQ(ico.degree(v), 5);
    }
    ASSERT_EQ(triangles(ico).size(), 20u);
    EXPECT_EQ(count(unweighted(12, icosahedron())), BigInt(125));

    const auto [dn, dedges] = dodecahedron();
    const UndirectedGraph dodeca(dn, dedges);
    ASSERT_EQ(dodeca.num_vertices(), 20);
    ASSERT_EQ(dodeca.num_edges(), 30);
    EXPECT_EQ(face_lengths(dodeca), std::vector<std::size_t>(12, 5));
    EXPECT_EQ(count(unweighted(dn, dedges)), BigInt(36));

    const auto [cn, cedges] = buckminsterfullerene();
    const UndirectedGraph c60(cn, cedges);
    ASSERT_EQ(c60.num_vertices(), 60);
    ASSERT_EQ(c60.num_edges(), 90);
    for (vertex_t v = 0; v < 60; ++v) {
        ASSERT_EQ(c60.degree(v), 3);
    }
    ASSERT_TRUE(is_planar(c60));
    std::vector<std::size_t> pentagons_and_hexagons(12, 5);
    pentagons_and_hexagons.resize(32, 6);
    EXPECT_EQ(face_lengths(c60), pentagons_and_hexagons);
    EXPECT_EQ(count(unweighted(cn, cedges), 2), BigInt(12500));  // Kekulé structures
}

TEST(Pfaffian, SmallCasesAndGraphsWithoutPerfectMatching) {
    EXPECT_EQ(count(unweighted(0, {})), BigInt(1));
    EXPECT_EQ(count(unweighted(1, {})), BigInt(0));
    Graph edge;
    edge.n = 2;
    edge.edges.emplace_back(0, 1, -7);
    EXPECT_EQ(count(edge), BigInt(-7));
    // Extreme weights: orientation signs are applied modulo each prime, never by negating them.
    std::get<2>(edge.edges[0]) = std::numeric_limits<std::int64_t>::min();
    EXPECT_EQ(count(edge), BigInt(std::numeric_limits<std::int64_t>::min()));
    Graph square = unweighted(4, {{0, 1}, {1, 2}, {2, 3}, {0, 3}});
    for (auto& e : square.edges) {
        std::get<2>(e) = std::numeric_limits<std::int64_t>::min();
    }
    const BigInt m(std::numeric_limits<std::int64_t>::min());
    EXPECT_EQ(count(square), m * m + m * m);
    for (vertex_t n = 3; n <= 11; n += 2) {
        std::vector<std::pair<vertex_t, vertex_t>> cycle;
        for (vertex_t v = 0; v < n; ++v) {
            cycle.emplace_back(v, (v + 1) % n);
        }
        EXPECT_EQ(count(unweighted(n, cycle)), BigInt(0)) << "odd cycle " << n;
        EXPECT_EQ(count(unweighted(n + 1, cycle)), BigInt(0)) << "odd cycle and a vertex";
        cycle.emplace_back(0, n);  // a pendant edge: one matching
        EXPECT_EQ(count(unweighted(n + 1, cycle)), BigInt(1));
    }
    // Two triangles joined by an edge, and two disjoint even cycles (2 · 2).
    EXPECT_EQ(count(unweighted(6, {{0, 1}, {1, 2}, {0, 2}, {3, 4}, {4, 5}, {3, 5}, {2, 3}})),
              BigInt(1));
    EXPECT_EQ(
        count(unweighted(8, {{0, 1}, {1, 2}, {2, 3}, {0, 3}, {4, 5}, {5, 6}, {6, 7}, {4, 7}})),
        BigInt(4));
    // The star K_{1,3} plus an isolated vertex: even order, no perfect matching.
    EXPECT_EQ(count(unweighted(4, {{0, 1}, {0, 2}, {0, 3}})), BigInt(0));
    // The diagonal is ignored.
    SparseMatrix<std::int64_t> with_diagonal(2, 2, {{0, 0, 5}, {0, 1, 3}, {1, 0, 3}, {1, 1, 9}});
    EXPECT_EQ(pfaffian_exact(with_diagonal, threads(1)).value, BigInt(3));
}

TEST(Pfaffian, TriangularStripsAgreeWithTheTransferMatrix) {
    for (int rows = 1; rows <= 6; ++rows) {
        for (const int cols : {1, 2, 5, 8, 13, 24}) {
            EXPECT_EQ(count(triangular_patch(rows, cols), 2), triangular_transfer(rows, cols))
                << rows << "×" << cols;
        }
    }
    // Many primes: an 8 × 120 strip.
    const BigInt expected = triangular_transfer(8, 120);
    EXPECT_GT(expected.log10_abs(), 100);
    EXPECT_EQ(count(triangular_patch(8, 120), 2), expected);
}

TEST(Pfaffian, WeightsThatVanishModuloSomePrimes) {
    // Weights divisible by the first prime (no pairs to replay), by a replayed one (its lane gives
    // up, that prime is eliminated afresh), or mixed with small weights.
    const std::vector<std::uint64_t> primes = numeric::large_primes(3);
    const Graph patch = triangular_patch(4, 6);
    const BigInt ones = count(patch);
    for (const std::uint64_t p : primes) {
        Graph g = patch;
        for (auto& edge : g.edges) {
            std::get<2>(edge) = static_cast<std::int64_t>(p);
        }
        BigInt expected = ones;
        for (int pair = 0; pair < 12; ++pair) {
            expected *= BigInt(static_cast<std::int64_t>(p));
        }
        EXPECT_EQ(count(g, 2), expected);
    }
    for (std::uint64_t seed = 0; seed < 40; ++seed) {
        const Graph shape = random_planar(14, true, 900 + seed);
        Weighted<BigInt> big;
        Graph g = shape;
        big.n = g.n;
        std::mt19937_64 rng(seed);
        for (auto& [u, v, w] : g.edges) {
            if (rng() % 2 == 0) {
                w = (w < 0 ? -1 : 1) * static_cast<std::int64_t>(primes[rng() % 3]);
            }
            big.edges.emplace_back(u, v, BigInt(w));
        }
        EXPECT_EQ(count(g, 2), brute_force_hafnian(big)) << "seed " << seed;
    }
}

TEST(Pfaffian, BipartiteGraphsAgreeWithTheKasteleynDeterminant) {
    const BipartiteGraph bases[] = {grid_graph(6, 6), grid_graph(8, 11), hexagon_graph(3, 4, 2),
                                    aztec_diamond_graph(5)};
    std::mt19937_64 rng(42);
    for (const BipartiteGraph& base : bases) {
        for (const bool weighted : {false, true}) {
            std::vector<Triplet<std::int64_t>> entries;
            Graph g;
            g.n = base.n_left() + base.n_right();
            for (const auto& [u, v] : base.edges()) {
                const std::int64_t w =
                    weighted ? static_cast<std::int64_t>(rng() % 7) - 3 : std::int64_t{1};
                if (w == 0) {
                    continue;
                }
                entries.push_back({u, v, w});
                g.edges.emplace_back(u, base.n_left() + v, w);
            }
            const SparseMatrix<std::int64_t> biadjacency(base.n_left(), base.n_right(), entries);
            EXPECT_EQ(count(g, 2), planar_exact(biadjacency, threads(2)).value);
        }
    }
}

TEST(Pfaffian, RejectsNonPlanarNonSymmetricAndNonSquareInput) {
    const Graph k5 = unweighted(5, complete_graph(5));
    EXPECT_FALSE(is_planar(k5.graph()));
    EXPECT_FALSE(pfaffian_orientation(k5.graph()).has_value());
    EXPECT_THROW(count(k5), InvalidArgument);
    std::vector<std::pair<vertex_t, vertex_t>> k33;
    for (vertex_t u = 0; u < 3; ++u) {
        for (vertex_t v = 3; v < 6; ++v) {
            k33.emplace_back(u, v);
        }
    }
    EXPECT_THROW(count(unweighted(6, k33)), InvalidArgument);
    k33.pop_back();
    EXPECT_EQ(count(unweighted(6, k33)), BigInt(4));  // K_{3,3} minus an edge is planar
    std::vector<std::pair<vertex_t, vertex_t>> petersen;
    for (vertex_t i = 0; i < 5; ++i) {
        petersen.emplace_back(i, (i + 1) % 5);
        petersen.emplace_back(i, i + 5);
        petersen.emplace_back(5 + i, 5 + (i + 2) % 5);
    }
    EXPECT_THROW(count(unweighted(10, petersen)), InvalidArgument);
    Weighted<double> petersen_real;
    petersen_real.n = 10;
    for (const auto& [u, v] : petersen) {
        petersen_real.edges.emplace_back(u, v, 0.5);
    }
    EXPECT_THROW(pfaffian_real(petersen_real.matrix(), threads(1)), InvalidArgument);
    EXPECT_THROW(pfaffian_exact(SparseMatrix<std::int64_t>(2, 2, {{0, 1, 1}}), threads(1)),
                 InvalidArgument);
    EXPECT_THROW(pfaffian_exact(SparseMatrix<std::int64_t>(2, 3, {}), threads(1)),
                 DimensionMismatch);
}

double value_of(const FloatOutcome& out) {
    return std::ldexp(out.mantissa.real(), static_cast<int>(out.exponent2));
}

TEST(Pfaffian, FloatingPointWithinItsEstimateOfTheExactValue) {
    // Positive integer weights on triangular patches: the exact value is known.
    std::mt19937_64 rng(99);
    for (const auto& [rows, cols] : {std::pair{6, 6}, std::pair{10, 12}, std::pair{16, 16}}) {
        const Graph patch = triangular_patch(rows, cols);
        Graph g = patch;
        Weighted<double> real;
        real.n = g.n;
        for (auto& [u, v, w] : g.edges) {
            w = 1 + static_cast<std::int64_t>(rng() % 3);
            real.edges.emplace_back(u, v, static_cast<double>(w));
        }
        const double exact = count(g, 2).to_double();
        const FloatOutcome got = pfaffian_real(real.matrix(), threads(1));
        const double error = std::ldexp(got.abs_error_mantissa, static_cast<int>(got.exponent2));
        EXPECT_LE(std::abs(value_of(got) - exact), error) << rows << "×" << cols;
        EXPECT_LT(error, 1e-10 * exact);
    }
    // Signed real and complex weights on small random planar graphs against the pairing sum.
    for (std::uint64_t seed = 0; seed < 60; ++seed) {
        const Graph shape = random_planar(14, false, 400 + seed);
        std::mt19937_64 draw(seed);
        std::uniform_real_distribution<double> unit(-1.0, 2.0);
        Weighted<double> real;
        Weighted<std::complex<double>> complex;
        real.n = complex.n = shape.n;
        for (const auto& [u, v, w] : shape.edges) {
            real.edges.emplace_back(u, v, unit(draw));
            complex.edges.emplace_back(u, v, std::complex<double>(unit(draw), unit(draw)));
        }
        const double expected = brute_force_hafnian(real);
        const FloatOutcome r = pfaffian_real(real.matrix(), threads(1));
        EXPECT_NEAR(value_of(r), expected, 1e-12 * (1 + std::abs(expected))) << "seed " << seed;
        const std::complex<double> expected_c = brute_force_hafnian(complex);
        const FloatOutcome c = pfaffian_complex(complex.matrix(), threads(1));
        const std::complex<double> got_c =
            std::ldexp(1.0, static_cast<int>(c.exponent2)) * c.mantissa;
        EXPECT_NEAR(std::abs(got_c - expected_c), 0.0, 1e-12 * (1 + std::abs(expected_c)))
            << "seed " << seed;
    }
}

}  // namespace
}  // namespace pmcount::exact
