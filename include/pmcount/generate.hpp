// Generators of the bipartite graphs that physicists and the tests count: lattices with known
// counts (grids, tori, hexagons, Aztec diamonds), complete and random bipartite graphs.
//
// Every generator returns a validated BipartiteGraph; left vertices are the "black" sites in a
// fixed row-major order (documented per generator), so a generated graph is the same on every
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

/// Whether `text` names a generator ("grid:", "torus:", "hexagon:", "aztec:", "complete:",
/// "random:", "regular:" followed by anything). Only the prefix is checked.
bool is_generator_spec(std::string_view text);

/// The graph a generator spec describes:
///   grid:RxC  torus:RxC  hexagon:A,B,C  aztec:K  complete:N  random:N,P[,SEED]
///   regular:N,D[,SEED]                                           (SEED defaults to 1)
/// Malformed specs and invalid parameters throw InvalidInput(spec, 0, problem).
BipartiteGraph generate_graph(std::string_view spec);

/// generate_graph wrapped as an Input (source = the spec) for count(), with the embedding of a
/// torus whose sides are at least 4 (torus_embedding).
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
