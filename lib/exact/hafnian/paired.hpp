// Hafnians and loop hafnians with repeated rows by pairing the copies (library-internal; the
// public entries are hafnian_repeated and loop_hafnian_repeated in count.hpp, which pick this
// engine, the sum over the multiplicities of repeated.hpp, or the expanded matrix by predicted
// time).
//
// Conventions as repeated.hpp: B is A with row and column i repeated r_i times, N = Σ r_i,
// n = N/2 (the loop version with N odd gets one more mode: one copy, a loop of weight 1, no
// edge).
//
// The formula. Fix a perfect matching of B's N indices, n pairs (the power-trace formula of
// Björklund, Gupt and Quesada, ACM JEA 24, 2019, with its Glynn-type signs): with one sign
// s_p = ±1 per pair p and X(s) the matrix swapping the two indices of every pair, weighted s_p,
//     haf(B)  = 2^−n Σ_s (Π_p s_p) · [λ^n] det(I − λ X(s) B)^(−1/2),
//     lhaf(B) = 2^−n Σ_s (Π_p s_p) · [λ^n] det(I − λ X(s) B)^(−1/2)
//                                         · exp(½ Σ_k λ^k μ_Bᵀ X(s) (B X(s))^(k−1) μ_B).
// The λ-series counts closed walks (and loop-ended paths) that alternate a pair and an entry of
// B, λ per pair visited; its degree-n part is homogeneous of degree n in s, and the sum over the
// signs keeps only the part linear in every s_p: the systems that visit every pair once, the
// perfect (loop) matchings. B's own diagonal enters only walks that visit a pair twice, so it
// does not matter.
//
// The pairing. The copies are paired by modes: `count` pairs join a copy of mode `a` to a copy
// of mode `b` (a = b: two copies of one mode), chosen greedily so that Π(count + 1) is small
// (pair_copies). Pairs of one type are interchangeable, so the sum over their signs is a sum over
// y = Σ s ∈ {−count, −count + 2, …, count}, C(count, (count + y)/2) sign choices each, and with P
// the copies-to-modes incidence, tr((X B)^k) = tr((Y A)^k) for the k×k matrix Y = P X Pᵀ:
// Y_ab = Y_ba = y for a cross type, Y_aa = 2y for a type within one mode. So each point y costs
// the characteristic polynomial D(λ) = det(I − λ Y A) of a k×k matrix (k the modes present), and
//     [λ^n] D^(−1/2)                       (hafnians),
//     [λ^n] D^(−1/2) · exp((D' − D)/(2D))  (loops; D' = det(I − λ Y (A − μμᵀ)), since
//                                            μᵀ(I − λYA)⁻¹Yμ·λ = D'/D − 1 by the determinant
//                                            lemma).
// The terms at y and −y are equal (D(λ, −y) = D(−λ, y) and the degree is n), so the type with the
// most pairs sums only y ≤ 0, the middle once.
//
// The points. D is a polynomial of degree ≤ 2 in each type's y (degree 1 within one mode: Y's
// change is of rank 1), so for a type with more points than that it is computed at the nodes
// {−count, 0, count} ({−count, count}) and interpolated; D at −y is D at y with λ → −λ. The
// characteristic polynomials (Hessenberg reduction with pivoting, then the Hessenberg recurrence)
// at the Π nodes, the interpolation along each type, then per point the two series above:
// O(nodes·k³ + points·(k·n + n²)) with points = Π(count + 1) / about 2.
//
// Arithmetic: modulo 62-bit primes (Montgomery) with a CRT checked by a spare prime; double or
// complex double. The floating figure is an estimate: the sum is computed twice with different
// roundings (the modes in reverse order, and the other half of the signs), and the figure is
// 8·|difference| plus the roundings of the final sums; the value is their mean.
#pragma once

#include <complex>
#include <cstdint>
#include <vector>

#include "exact/outcome.hpp"
#include "pmcount/matrix.hpp"
#include "run/chunked_run.hpp"

namespace pmcount::exact {

/// `count` pairs of copies, each joining a copy of mode a to a copy of mode b (a ≤ b).
struct PairType {
    int a = 0;
    int b = 0;
    int count = 0;
};

/// A pairing of the copies (r[i] of mode i, Σ r even) into pair types, the type with most pairs
/// first: repeatedly the two modes with the most copies left are paired min(r_a, r_b) times; a
/// mode left alone is paired with itself.
std::vector<PairType> pair_copies(std::vector<int> r);

/// The work of the paired engine for multiplicities rpt (zeros dropped; an odd loop total padded;
/// an odd total without loops: no work, the hafnian is 0): the points summed, the characteristic
/// polynomials computed, and the values held at once. The planner compares it with the other
/// engines (plan/cost_model.hpp).
struct PairedWork {
    double points = 0;
    double nodes = 0;
    double held = 0;
    int modes = 0;
    int half = 0;  ///< n
};
PairedWork paired_work(const std::vector<int>& rpt, bool loops);

/// Largest number of values the paired engine holds (points × (modes + 1)); beyond, it is not
/// planned.
inline constexpr double kMaxPairedHeld = 1 << 24;

/// haf(B) (lhaf(B) with mu) of the symmetric integer matrix A with rows repeated rpt[i] times,
/// exactly. The caller has validated (check_hafnian_repeated) and checked paired_work's held.
ExactOutcome hafnian_paired_exact(const DenseMatrix<std::int64_t>& a, const std::vector<int>& rpt,
                                  const std::vector<std::int64_t>* mu, const run::EngineRun& run);
/// The same in double (complex double), the figure an estimate (above).
template <class T>
FloatOutcome hafnian_paired_float(const DenseMatrix<T>& a, const std::vector<int>& rpt,
                                  const std::vector<T>* mu, const run::EngineRun& run);

}  // namespace pmcount::exact
