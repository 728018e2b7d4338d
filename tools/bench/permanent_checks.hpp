// The permanents suite's checks (permanent_checks.cpp): every answer against the best reference
// that ran (brute force, double-double, the exact count, thewalrus), the planted blocks found,
// the engines ran.
#pragma once

#include <complex>
#include <string>
#include <vector>

#include "permanent_runs.hpp"

namespace pmcount::bench::permanents {

/// |a - b| relative to |b| (absolute when b is 0).
double relative_difference(std::complex<double> a, std::complex<double> b);

std::complex<double> value_of(const Measurement& m);

/// Compares two answers of different engines or arithmetics, recording the outcome on both.
/// Exact answers must be equal. Otherwise the true value lies within abs_error of each computed
/// value, and each reported double is that value rounded once more (half an ulp, 2^-53
/// relative), so two correct answers differ by at most the sum of these four amounts.
void check_agreement(Measurement& a, Measurement& b);

void check_identical(Measurement& m, const Measurement& anchor);

/// The most accurate pmcount answer outside m's own engine/arithmetic whose error bound is no
/// larger than m's: exact first, then the smallest abs_error.
const Measurement* best_reference(const Measurement& m, const std::vector<Measurement>& all);

/// Runs every check among the answers of one matrix.
void check_all(std::vector<Measurement>& all);

std::string join(const std::vector<int>& values);

/// reducible-binary: each run whose Dulmage–Mendelsohn decomposition ran must have found the
/// planted diagonal blocks (fully indecomposable, so they are the fine blocks; any order).
void check_planted_blocks(std::vector<Measurement>& all, const TestMatrix& matrix);

/// Sparse cases: a run that forced an engine on the whole matrix (no front end) must have been
/// counted by that engine, or its time is not the engine's.
void check_engines_ran(std::vector<Measurement>& all);

}  // namespace pmcount::bench::permanents
