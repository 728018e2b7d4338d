// Generators of the graphs that physicists and the tests count: bipartite lattices with known
// counts (grids, tori, hexagons, Aztec diamonds), complete and random bipartite graphs, and the
// lattices that are not bipartite (triangular, kagome, fcc; with the brick wall and the cubic
// lattice, as general graphs) and random regular general graphs.
//
// Every bipartite generator returns a validated BipartiteGraph; left vertices are the "black" sites
// in a fixed row-major order (documented per generator), so a generated graph is the same on every
// platform. Random generators draw from std::mt19937_64 seeded with `seed` and their own integer
// and real transforms (the <random> distributions are implementation-defined), so a seed gives
// the same graph everywhere. Invalid parameters throw InvalidArgument. Every generator takes
// time linear in its output and checks for request_stop() (pmcount/count.hpp) at least every
// 0.1 s, throwing Interrupted.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "pmcount/graph.hpp"
#include "pmcount/io.hpp"
#include "pmcount/types.hpp"

namespace pmcount {

/// The rows×cols grid graph: cell (r, c) is left when r + c is even. Left and right vertices are
/// numbered row-major within their colour. Domino tilings of the rectangle = perfect matchings.
BipartiteGraph grid_graph(vertex_t rows, vertex_t cols);

/// The rows×cols torus (grid with wrap-around edges); both sides even (else it is not
/// bipartite), at least 2. Numbering as grid_graph. For a side of 2 the two wrap-around edges
/// coincide with grid edges and are merged (the graph is simple).
BipartiteGraph torus_graph(vertex_t rows, vertex_t cols);

/// torus_graph's drawing on the torus (rows and cols even, at least 4: with a side of 2 the
/// wrap-around edges merge): every cell's neighbours right, below, left, above. Vertices as in
/// Embedding: left cell i is i, right cell j is num_left + j.
Embedding torus_embedding(vertex_t rows, vertex_t cols);

/// The honeycomb graph dual to the a,b,c,a,b,c hexagon of the triangular lattice (a, b, c ≥ 0):
/// up-triangles are left, down-triangles right, adjacent when they share an edge. Its perfect
/// matchings are the lozenge tilings of the hexagon; there are a·b + b·c + c·a of each.
BipartiteGraph hexagon_graph(int a, int b, int c);

/// The Aztec diamond of order k ≥ 0: unit cells [x, x+1]×[y, y+1] with |x + ½| + |y + ½| ≤ k, as
/// a grid graph (left: x + y even). It has 2^(k(k+1)/2) domino tilings (Elkies, Kuperberg,
/// Larsen, Propp 1992).
BipartiteGraph aztec_diamond_graph(int k);

/// K_{n,n}: every left vertex adjacent to every right vertex (n! perfect matchings).
BipartiteGraph complete_bipartite_graph(vertex_t n);

/// G(n, n, p): each of the n² edges present independently with probability p ∈ [0, 1]. Up to
/// n = 4096, one draw per pair in row-major order (at most 2^24 draws, ~0.1 s); beyond, one
/// draw per edge: the gap to the next edge in row-major order, ⌊ln U / ln(1 − p)⌋ for U uniform
/// in (0, 1], is geometric: the same distribution in time linear in the edges. (These graphs
/// rest on std::log: a libm that rounds a logarithm otherwise changes a graph of n = 10^5 with
/// probability below 10^-5, the gaps' roundings being about n²·10^-16 of a unit in all.)
/// Throws Interrupted after request_stop().
BipartiteGraph random_bipartite_graph(vertex_t n, double p, std::uint64_t seed);

/// A d-regular bipartite graph on n + n vertices (0 ≤ d ≤ n): the configuration model (d copies
/// of each vertex, a uniformly random pairing), then every repeated edge removed by a random
/// switch (u1v1, u2v2 → u1v2, u2v1) that creates no repeat, as in McKay–Wormald's switching
/// method; O(n·d) expected time (a switch is accepted with probability about (1 − d/n)²).
/// Nearly uniform for d ≪ n. For d > n/2, where most switches would be refused, the complement
/// of the (n − d)-regular graph of the same seed, in O(n²) = O(n·d) time. Throws Interrupted
/// after request_stop().
BipartiteGraph random_regular_bipartite_graph(vertex_t n, int d, std::uint64_t seed);

// ---- Lattices that are not bipartite, and random general graphs --------------------------------
// General graphs (UndirectedGraph): vertex ids as each function says, row-major. A periodic
// lattice (`periodic`: indices taken mod each side) needs every side at least 2; where a side is
// so short that two of a vertex's neighbours coincide, the repeated edges are merged (the graph
// stays simple) and it has no embedding. The embeddings list each vertex's neighbours
// counter-clockwise in the lattice's usual drawing (docs/lattices.md), on the torus.

/// The triangular lattice of rows×cols vertices: vertex (i, j) is i·cols + j, joined to (i, j+1),
/// (i+1, j) and (i+1, j+1) — the square grid with one diagonal per cell, degree 6 inside.
UndirectedGraph triangular_graph(vertex_t rows, vertex_t cols, bool periodic);

/// The brick-wall (honeycomb) lattice on the torus, rows and cols even: vertex (i, j) is
/// i·cols + j, horizontal edges (i, j)–(i, j+1) for every j and vertical (i, j)–(i+1, j) where
/// i + j is even; degree 3, bipartite ((i + j) even against odd).
UndirectedGraph brick_wall_torus_graph(vertex_t rows, vertex_t cols);

/// The kagome lattice of rows×cols unit cells of three sites: A, B, C of cell (i, j) are
/// 3(i·cols + j) + 0, 1, 2. Cell (i, j) sits at i·a₂ + j·a₁ of the triangular Bravais lattice
/// (a₁ at 0°, a₂ at 60°), A at its corner, B at a₁/2, C at a₂/2; up-triangles A–B–C in each cell,
/// down-triangles B(i, j), A(i, j+1), C(i−1, j+1). Open: a down-triangle keeps the edges whose
/// ends exist. Degree 4 inside.
UndirectedGraph kagome_graph(vertex_t rows, vertex_t cols, bool periodic);

/// The simple cubic lattice of l×m×n sites: (x, y, z) is (x·m + y)·n + z, joined to its
/// neighbours along each axis; degree 6 inside.
UndirectedGraph cubic_graph(vertex_t l, vertex_t m, vertex_t n, bool periodic);

/// The face-centred cubic lattice of l×m×n conventional cells of 4 sites: site b of cell
/// (x, y, z) is 4((x·m + y)·n + z) + b, at (x, y, z) + (0,0,0), (½,½,0), (½,0,½), (0,½,½) for
/// b = 0…3; each site is joined to the 12 at distance 1/√2 (offsets (±½, ±½, 0) and their
/// permutations). Open: only the 4·l·m·n sites of the cells (none on the far faces).
UndirectedGraph fcc_graph(vertex_t l, vertex_t m, vertex_t n, bool periodic);

/// A random d-regular graph on n vertices (n·d even, d < n), not forced bipartite: the
/// configuration model (d copies of each vertex paired uniformly at random), then every loop and
/// repeated edge removed by random switches (ab, cd → ac, bd) that create neither, as
/// random_regular_bipartite_graph does. Throws Interrupted after request_stop().
UndirectedGraph random_regular_graph(vertex_t n, int d, std::uint64_t seed);

/// The drawings on the torus of triangular_graph, brick_wall_torus_graph and kagome_graph
/// (periodic); InvalidArgument where a side is too short for a simple graph (see above).
Embedding triangular_torus_embedding(vertex_t rows, vertex_t cols);
Embedding brick_wall_torus_embedding(vertex_t rows, vertex_t cols);
Embedding kagome_torus_embedding(vertex_t rows, vertex_t cols);

// ---- Specs ----------------------------------------------------------------------------------

/// Whether `text` names a generator (one of the names below followed by ':' and anything). Only
/// the prefix is checked.
bool is_generator_spec(std::string_view text);

/// Whether the spec names a general (not forced bipartite) graph: tri, tri-torus, hex-torus,
/// kagome, kagome-torus, cubic, cubic-torus, fcc, fcc-torus, regular-general.
bool is_general_generator_spec(std::string_view text);

/// The bipartite graph a generator spec describes:
///   grid:RxC  torus:RxC  hexagon:A,B,C  aztec:K  complete:N  random:N,P[,SEED]
///   regular:N,D[,SEED]                                           (SEED defaults to 1)
/// Malformed specs and invalid parameters throw InvalidInput(spec, 0, problem); so does a
/// general spec (generate_undirected_graph reads those).
BipartiteGraph generate_graph(std::string_view spec);

/// The graph any generator spec describes, as a general graph: the bipartite specs' graphs with
/// right vertex j as num_left + j, and
///   tri:RxC  tri-torus:RxC  hex-torus:RxC  kagome:RxC  kagome-torus:RxC
///   cubic:LxMxN  cubic-torus:LxMxN  fcc:LxMxN  fcc-torus:LxMxN  regular-general:N,D[,SEED]
UndirectedGraph generate_undirected_graph(std::string_view spec);

/// A spec's graph as an Input (source = the spec) for count(): a bipartite spec's graph, or a
/// general spec's (data: UndirectedGraph), with the embedding of a torus, triangular, brick-wall
/// or kagome torus where the sides allow one (torus_embedding and the three above).
Input generated_input(std::string_view spec);

/// Closed forms for the lattices above, as natural logarithms (long double: the counts overflow
/// double long before these do), for checking engines and estimators against the truth:
/// domino tilings of the rows×cols grid, Kasteleyn (1961):
///     Π_{j ≤ ⌈rows/2⌉} Π_{k ≤ ⌈cols/2⌉} (4cos²(πj/(rows+1)) + 4cos²(πk/(cols+1)))
/// (0 tilings, −inf, when rows·cols is odd); lozenge tilings of the a,b,c hexagon, MacMahon:
/// Π_{i≤a} Π_{j≤b} (i + j + c − 1)/(i + j − 1); the Aztec diamond of order k: 2^(k(k+1)/2)
/// (Elkies–Kuperberg–Larsen–Propp); domino tilings of the rows×cols torus (both even), Kasteleyn
/// (1961): ½(P(0,½) + P(½,0) + P(½,½)), with
///     P(θ, φ) = Π_{j<rows} Π_{k<cols} (4sin²(2π(j+θ)/rows) + 4sin²(2π(k+φ)/cols))^¼
/// (the fourth Pfaffian, P(0,0), is 0).
long double log_grid_tilings(vertex_t rows, vertex_t cols);
long double log_torus_tilings(vertex_t rows, vertex_t cols);
long double log_hexagon_tilings(int a, int b, int c);
long double log_aztec_tilings(int k);

}  // namespace pmcount
