// The torontonian engine (library-internal; count.hpp's torontonian() and loop_torontonian() are
// the public entries).
//
// Conventions (thewalrus's `tor` and `ltor`; Quesada, Brod and Martín-López 2018): O is a
// 2N×2N matrix in xxpp order — mode k owns rows and columns k and k + N — with I − O Hermitian
// positive definite (O = I − Q⁻¹ for the Q-matrix of a Gaussian state). For a set Z of modes,
// O_Z keeps the rows and columns of Z's modes, and
//     Tor(O)     = Σ_Z (−1)^(N−|Z|) / √det(I − O_Z),
//     lTor(O, γ) = Σ_Z (−1)^(N−|Z|) exp(½ γ_Zᵀ (I − O_Z)⁻¹ γ_Z*) / √det(I − O_Z),
// the empty set contributing (−1)^N. Both are real (the determinants of Hermitian positive
// definite matrices, the quadratic forms v^H M⁻¹ v).
//
// Algorithm: the 2^N sets as a tree — a set's children add one mode beyond its largest — walked
// depth first, each node holding the Schur complement of I − O_Z on the modes beyond its largest
// (Kaposi et al. 2022 reuse Cholesky factors along the same tree; this keeps the complement
// instead, so a child's determinant is its parent's times the 2×2 pivot block of its mode, O(1),
// and only a child with children of its own pays for its complement: about 12·2^N multiply-adds
// in all, whatever N). The loop version carries v = γ* through the same eliminations, and
// v^H M⁻¹ v gains |w_r|²/p per pivot.
//
// Error figures (walk.hpp): in double every entry carries its first-order error, each update's
// rounding recovered exactly, so each node's factor's error is known and, that factor being
// shared by the node's whole subtree, the total is off by Σ_X δ_X·T_X — an estimate that follows
// the actual error within a few per cent, cancellation between the terms included. In
// double-double every entry carries a bound instead (a first-order running error analysis), and
// the figure bounds the error.
#pragma once

#include <complex>
#include <vector>

#include "exact/outcome.hpp"
#include "pmcount/matrix.hpp"
#include "run/chunked_run.hpp"

namespace pmcount::exact {

/// Largest number of modes: 2^N sets (N = 48 is 2.8·10^14 sets, years on a CPU).
inline constexpr int kMaxTorontonianModes = 48;

/// InvalidArgument for a matrix that is not square of even order, not Hermitian (entries farther
/// than 1e−10 of the largest |entry| from their mirrored conjugates: thewalrus reads only one
/// triangle, this refuses the matrices where the triangles disagree), with a non-finite entry,
/// or gamma of another length; ProblemTooLarge beyond kMaxTorontonianModes.
template <class T>
void check_torontonian(const DenseMatrix<T>& o, const std::vector<T>* gamma);

/// Tor(O), or lTor(O, γ) with gamma, in double with its tracked error (double_double false) or
/// in double-double with its bound, rounded to double. Double returns an infinite figure when a
/// pivot's error leaves the first-order analysis (the caller counts again in double-double). The
/// lower triangle of O is read (I − O taken Hermitian). InvalidArgument, naming the modes, when
/// some I − O_Z is not positive definite, or so near singular that the working precision cannot
/// tell (its term 1/√det is then undefined or unknowable). Threads over subtrees, chunks summed in
/// chunk order (the same value for any thread count); progress, interrupts, checkpoints and MPI
/// ranks through run::run_chunks.
template <class T>
FloatOutcome torontonian(const DenseMatrix<T>& o, const std::vector<T>* gamma, bool double_double,
                         const run::EngineRun& run);

/// The same walk on GPUs (run.gpus, else every visible one, the chunks split evenly): a thread
/// per chunk, complex double with tracked errors (cuda/torontonian_gpu.cu). DeviceError without a usable GPU, NotCompiled
/// without CUDA; Interrupted after a stop request (between waves of chunks).
template <class T>
FloatOutcome torontonian_gpu(const DenseMatrix<T>& o, const std::vector<T>* gamma,
                             const run::EngineRun& run);

/// The oracle: the definition's sum, each determinant (and each solve, for the loop version) by
/// Gaussian elimination with partial pivoting in double-double, each set on its own. N ≤ 16.
template <class T>
FloatOutcome torontonian_brute_force(const DenseMatrix<T>& o, const std::vector<T>* gamma);

}  // namespace pmcount::exact
