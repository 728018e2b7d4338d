// Measuring the cost model's CPU rates on this machine (`pmcount-bench calibrate` prints and
// stores what this returns). Each group of rates has its experiments: seeded matrices counted by
// one engine on one thread, the front end off, so that the whole matrix is one leaf of the plan.
// The rates of a group are fitted by least squares on the relative error of the model's
// prediction for each experiment (the planner's own leaf facts and formulas, the other rates as
// in force, the machine-speed probe off) against the engine's measured time, the fastest of a few
// runs, and brought to one machine speed (the probe is taken before and after each group). Groups
// go in an order in which a rate is fitted before the groups that hold it fixed (the dense double
// group's step cost before the other arithmetics).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "pmcount/cost_rates.hpp"

namespace pmcount {

struct CalibrationOptions {
    /// Runs per experiment; the fastest counts (a busy moment is not the machine's speed).
    int repeats = 3;
    /// Smaller orders (about a tenth of the time, a coarser fit): for a check, not for rates.
    bool quick = false;
    /// Only the groups whose name starts with one of these (empty: all); see calibration_groups.
    std::vector<std::string> groups;
    /// Seeds the matrices.
    unsigned seed = 1;
    /// Called after each experiment with its run (model_s and fitted_s not yet known: 0).
    std::function<void(const struct CalibrationRun&)> on_run;
};

/// One experiment: a matrix counted by one engine on one thread.
struct CalibrationRun {
    std::string group;       ///< e.g. "cpu.ryser.double"
    std::string experiment;  ///< e.g. "dense real 24×24, double"
    int n = 0;
    double seconds = 0;   ///< the engine's time, the fastest of the repeats
    double model_s = 0;   ///< predicted with the rates in force before the calibration
    double fitted_s = 0;  ///< predicted with the fitted rates
};

struct Calibration {
    /// The fitted rates, each with its provenance (machine, date, runs, fit range, residuals), at
    /// the speed of the probe's reference in force (reference_probe_ns), as the rates files hold
    /// them: format_cost_rates writes them as a file PMCOUNT_RATES can name, alone or beside
    /// any other rates.
    std::vector<CostRate> rates;
    /// The same keys as in force before (compiled in, or $PMCOUNT_RATES's), in the same order.
    std::vector<CostRate> before;
    /// The probe measured here (cpu.probe.one_thread and cpu.probe.threads, group cpu.probe), and
    /// the references in force: this machine's speed, not rates (a file that moved a reference
    /// would rescale every rate it does not hold).
    std::vector<CostRate> probes;
    std::vector<CostRate> probe_before;
    std::vector<CalibrationRun> runs;
    /// The one-thread probe (ns per step): the fastest of those taken around each group, and the
    /// reference in force. Their ratio is this machine's speed against the rates' machine.
    double probe_ns = 0;
    double reference_probe_ns = 0;
};

/// The groups of rates calibrate_cost_rates can measure, in the order it fits them, with the
/// keys each fits.
std::vector<std::pair<std::string, std::vector<std::string>>> calibration_groups();

/// Runs the experiments of the chosen groups and fits their rates. `machine` and `command` are
/// recorded in each rate's provenance. InvalidArgument for a group name that matches none.
Calibration calibrate_cost_rates(const CalibrationOptions& options, const std::string& machine,
                                 const std::string& command);

}  // namespace pmcount
