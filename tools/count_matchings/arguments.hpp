// count_matchings' command line: every option with its check (CLI11), the combinations refused,
// and the library options the arguments become.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "pmcount/pmcount.hpp"

namespace pmcount::tools {

/// What the command line says, as CLI11 leaves it.
struct Arguments {
    std::string path;
    /// The counting flags: at most one, except --perfect-matchings with --hafnian.
    bool perfect_matchings = false, cycle_covers = false, permanent = false, hafnian = false;
    bool loop_hafnian = false;
    /// Matchings of every size (pmcount/matchings.hpp): at most one of these.
    bool all_matchings = false, matching_polynomial = false;
    std::string monomer_weight;
    int matchings_of_size = -1;
    int prime_set = 0;
    std::string embedding_path;
    bool general = false;
    std::string method = "auto", precision = "auto", backend = "auto", gpu_kernels = "auto";
    std::vector<int> gpus;
    int threads = 0;
    std::string format = "auto";
    bool sum_duplicates = false, explain = false;
    bool no_dulmage_mendelsohn = false, no_reductions = false;
    std::string max_memory_text;
    double max_predicted_seconds = 86400;
    std::string checkpoint;
    bool resume = false;
    double checkpoint_interval = 10;
    std::string dot_path;
    bool json = false, quiet = false, version = false;
    /// Estimate instead of counting (--approx, or --estimator).
    bool approx = false;
    std::string estimator = "scaling+", layout = "auto";
    EstimateOptions estimate_options;
};

/// Declares every option of count_matchings on `app`, each writing into `a`.
void add_options(CLI::App& app, Arguments& a);

/// After parsing: the option of an exact count given to an estimate, or of an estimate given to
/// an exact count, as a one-line usage error; "" when there is none.
std::string option_of_the_other_mode(const CLI::App& app, const Arguments& a);

/// The count's options (InvalidArgument names an unknown method, precision, backend or kernel
/// choice); `local_ranks` MPI ranks on this host share its cores.
CountOptions count_options(const Arguments& a, int local_ranks);

/// How to read the input.
ReadOptions read_options(const Arguments& a);

/// What the counting flags ask to count: "perfect matchings", "cycle covers", "permanent",
/// "hafnian", "loop hafnian", or "" for what the input is (what_is_counted, input.hpp).
std::string counting_mode(const Arguments& a);

/// Whether one of the matchings-of-every-size flags was given, and which query it asks.
bool counts_all_sizes(const Arguments& a);
MatchingQuery matching_query(const Arguments& a);

}  // namespace pmcount::tools
