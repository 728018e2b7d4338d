// The permanents suite's JSON lines (permanent_lines.cpp): one per measurement, and the ratios
// of each engine and arithmetic against the others measured on the same matrix.
#pragma once

#include <string>
#include <vector>

#include "permanent_runs.hpp"

namespace pmcount::bench::permanents {

/// What the planner found and planned: the "structure" object of the library's to_json of a
/// count (`result_json`), as count_matchings --json prints it.
Json structure_json(const std::string& result_json);

Json measurement_line(const TestMatrix& matrix, const Measurement& m);

/// How much faster `measured` ran than `baseline`: seconds(baseline) / seconds(measured).
Json ratio_line(const TestMatrix& matrix, const Measurement& measured, const Measurement& baseline);

/// Speedups measured in this run: thread scaling per arithmetic, the cost of dd and exact over
/// double at equal threads, and pmcount against thewalrus (with the relative difference of the
/// values, since thewalrus reports no error bound).
std::vector<Json> ratio_lines(const TestMatrix& matrix, const std::vector<Measurement>& all,
                              const std::string& baseline_arithmetic);

/// Sparse cases: skipper and sparyser against dense ryser, skipper against sparyser (equal
/// threads and arithmetic), and the planner against each engine. An engine that was skipped
/// enters with its predicted seconds: the line then names it "predicted ..." and has basis
/// "predicted". predicted_speedup is the cost model's view of the same ratio.
std::vector<Json> sparse_ratio_lines(const TestMatrix& matrix, const std::vector<Measurement>& all);

}  // namespace pmcount::bench::permanents
