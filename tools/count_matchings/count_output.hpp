// count_matchings: printing a CountResult (or a MatchingsResult) as text or as one JSON object
// (estimate_output.hpp does the same for an EstimateResult), and the build information of
// --version.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "pmcount/pmcount.hpp"

namespace pmcount::tools {

/// --json: the result with the input's shape, ids and warnings; `counted` as what_is_counted()
/// says, `read_s` the seconds spent reading, `total_s` the seconds so far.
nlohmann::json count_json(const Input& input, const CountResult& r, const std::string& counted,
                          double read_s, double total_s);

/// --explain: the plan, with a witness when there is no perfect matching.
void print_explanation(const Input& input, const CountResult& r, const std::string& counted);

/// The value on stdout; with `summary`, what was counted and how on stderr.
void print_count(const Input& input, const CountResult& r, const std::string& counted, bool summary,
                 double total_s);

/// Matchings of every size: the value (a polynomial: one coefficient per line, m_0 first) on
/// stdout; with `summary`, what was counted and how on stderr.
void print_matchings(const Input& input, const MatchingsResult& r, bool summary, double total_s);

/// --json for matchings of every size: `counted`, `value` (a decimal string, "p/q" for a
/// fraction), `coefficients` (decimal strings) for the polynomial, the engines and timings.
nlohmann::json matchings_json(const Input& input, const MatchingsResult& r, double read_s,
                              double total_s);

/// --version: the build and the GPUs it sees.
void print_version();

}  // namespace pmcount::tools
