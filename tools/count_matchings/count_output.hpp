// count_matchings: printing a CountResult as text or as one JSON object (estimate_output.hpp
// does the same for an EstimateResult), and the build information of --version.
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

/// --version: the build and the GPUs it sees.
void print_version();

}  // namespace pmcount::tools
