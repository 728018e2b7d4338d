// The four Pfaffians of a torus tiled by translates of one cell, factored by Fourier transform
// (library-internal).
//
// Let the drawing be a grid of R×C cells of b sites each (TorusCells, graph.hpp, after grouping
// 1×2, 2×1 or 2×2 cells when one cell is too small), vertex (x, s) the site s of cell x, and let
// the Kasteleyn orientation orient every translate of an edge alike (class_kasteleyn_orientation,
// surface.hpp). The other three classes of Kasteleyn orientations flip the edges that cross the
// seam between the last row of cells and the first (θ = 1), between the last column and the
// first (φ = 1), or both: a face crosses each seam an even number of times, so it stays odd. Then
//     K_θφ = Σ_g T_g ⊗ A_g,
// where A_g[s][t] is the oriented weight from (x, s) to (x + g, t) and T_g shifts cells by g,
// with the sign (−1)^θ (or (−1)^φ) on wrapping. With ζ a primitive 2R-th root of unity, the rows
// α_k^x, α_k = ζ^(2k + θ), k = 0 … R − 1, are the twisted shift's eigenvectors (α_k^R = (−1)^θ),
// and F·Fᵀ = R·P where P pairs k with π(k) = −k − θ mod R (likewise for the columns). With
// B = F ⊗ I_b in an order that puts each pair together,
//     B K Bᵀ = ⊕_{pairs} [[0, m·M(k)], [m·M(π(k)), 0]]  ⊕_{k = π(k)} m·M(k),
//     M(k) = Σ_g α_k^(−g) A_g,   M(π(k)) = −M(k)ᵀ,   m = R·C,
// and det(B)^2 = m^(m·b)·(−1)^(b·pairs) (F·Fᵀ), so that for even b
//     Pf(K_θφ) = Π_{pairs} det M(k) · Π_{k = π(k)} Pf M(k)
// exactly, signs included (the pair block's Pfaffian (−1)^(b(b−1)/2)·det and det(B)'s sign
// cancel when b is even). Modulo a prime p ≡ 1 (mod lcm(2R, 2C)) the roots lie in F_p, so each
// Pfaffian costs m/2 determinants of order b instead of an elimination of order m·b. The count is
// then surface.hpp's 2^−1 · Σ (−1)^Arf · ε · Pf, with the signs of these four orientations
// (surface_signs) and ε from one perfect matching, CRT over enough primes.
//
// Cost per prime: 4·m/2 determinants of order b (b = 2 on the square, triangular and brick-wall
// lattices), about 16 Montgomery products each; O(V + E) besides for the checks.
#pragma once

#include <cstdint>
#include <optional>

#include "exact/outcome.hpp"
#include "pmcount/graph.hpp"
#include "pmcount/matrix.hpp"
#include "run/chunked_run.hpp"

namespace pmcount::exact {

/// The grid the Fourier transform runs over, once the tiling has been checked and a
/// translation-invariant Kasteleyn orientation found.
struct TorusGrid {
    vertex_t rows = 0;  ///< of cells (after grouping)
    vertex_t cols = 0;
    int sites = 0;    ///< per cell, even
    int classes = 0;  ///< edges of one cell, up to translation
};

/// The grid of the embedding's tiling for the nonzero pattern of the symmetric matrix `a`, or
/// nullopt when the tiling is absent, does not fit the matrix (vertices, weights or edges not
/// invariant under the translations, sides of fewer than 3 cells) or no grouping of at most 2×2
/// cells has a translation-invariant Kasteleyn orientation. O(V + E).
std::optional<TorusGrid> torus_grid(const SparseMatrix<std::int64_t>& a,
                                    const Embedding& embedding);

/// Exact haf(A) as above, or nullopt when torus_grid gives none or the orientations fail
/// surface_signs' checks (then the sparse Pfaffians count it). Primes of 62 bits ≡ 1 (mod
/// lcm(2R, 2C)), enough for pfaffian_bound_log2 plus a spare, in parallel on run.threads.
std::optional<ExactOutcome> torus_fourier_exact(const SparseMatrix<std::int64_t>& a,
                                                const Embedding& embedding,
                                                const run::EngineRun& run);

}  // namespace pmcount::exact
