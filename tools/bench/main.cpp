// pmcount-bench: benchmarks that time pmcount's engines, check every answer against independent
// references, and time the reference implementations people compare against (thewalrus) in the
// same run, so that speedups are ratios measured side by side. One suite per file:
//
//   pmcount-bench [permanents] ...   permanents of seeded random matrices: dense, sparse and GPU
//                                    engines, the structure front end, thewalrus's perm
//                                    (permanents.cpp)
//   pmcount-bench lattices ...       the planar and frontier engines on generated lattices against
//                                    their closed forms (lattices.cpp)
//   pmcount-bench estimators ...     the estimators on grids, CPU and GPU, against Kasteleyn's
//                                    count (estimators.cpp)
//   pmcount-bench scaling ...        one count on 1, 2, 4 … GPUs or threads, in one process and
//                                    as MPI ranks: parallel efficiency (scaling.cpp)
//   pmcount-bench predictions ...    the planner's predicted time against the measured one, case
//                                    by case (predictions.cpp)
//   pmcount-bench calibrate ...      the cost model's CPU rates measured on this machine, written
//                                    as a rates file for PMCOUNT_RATES (calibrate.cpp)
//   pmcount-bench photonics ...      torontonians on CPU threads and GPUs, checked against each
//                                    other (photonics.cpp)
//
// Output: one JSON object per line on stdout ({"context": …} first), human notes on stderr.
// Exit codes: 0 every check passed, 1 usage error, 2 a check failed, 3 runtime error.
#include <exception>
#include <iostream>
#include <string>

#include "calibrate.hpp"
#include "common.hpp"
#include "estimators.hpp"
#include "lattices.hpp"
#include "permanents.hpp"
#include "photonics.hpp"
#include "predictions.hpp"
#include "scaling.hpp"

int main(int argc, char** argv) {
    using namespace pmcount::bench;
    // Engine failures are reported per measurement inside the suites; what reaches here (an
    // unwritable --out file, out of memory) ends the run.
    try {
        const std::string suite = argc > 1 ? argv[1] : "";
        if (suite == "estimators") {
            return estimator_bench_main(argc - 1, argv + 1);
        }
        if (suite == "lattices") {
            return lattice_bench_main(argc - 1, argv + 1);
        }
        if (suite == "scaling") {
            return scaling_bench_main(argc - 1, argv + 1);
        }
        if (suite == "predictions") {
            return prediction_bench_main(argc - 1, argv + 1);
        }
        if (suite == "calibrate") {
            return calibrate_bench_main(argc - 1, argv + 1);
        }
        if (suite == "photonics") {
            return photonics_bench_main(argc - 1, argv + 1);
        }
        if (suite == "permanents") {
            return permanent_bench_main(argc - 1, argv + 1);
        }
        return permanent_bench_main(argc, argv);
    } catch (const std::exception& e) {
        std::cerr << "pmcount-bench: " << e.what() << "\n";
        return exit_code::runtime_error;
    }
}
