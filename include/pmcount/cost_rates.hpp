// The measured rates behind the planner's predicted times (--explain, --max-time): seconds per
// Gray step, per multiply-add, per elimination and so on, each with where it was measured. The
// library is built with lib/plan/rates/*.txt compiled in; a host replaces any of them with its
// own by naming a rates file in the environment variable PMCOUNT_RATES (`pmcount-bench
// calibrate` writes one for the machine it runs on).
//
// File format: a record per rate, "[key]" on a line of its own, then "field = text" lines:
// value (required: a finite number ≥ 0), unit (must be the model's unit for the key), machine,
// date, command, runs, fit_range, residuals, note. Blank lines and lines starting with '#' are
// skipped. A key may appear once; keys the model does not use are errors.
#pragma once

#include <string>
#include <vector>

namespace pmcount {

struct CostRate {
    std::string key;  ///< e.g. "cpu.ryser.row_double"
    double value = 0;
    std::string unit;  ///< e.g. "ns/row"
    std::string machine;
    std::string date;
    std::string command;    ///< what was run to measure it
    std::string runs;       ///< how many runs the fit used
    std::string fit_range;  ///< sizes and times the fit covered
    std::string residuals;  ///< fitted against measured
    std::string note;
};

/// The rates the planner uses, in the compiled-in file's order: the compiled-in rates, each
/// replaced by the record of $PMCOUNT_RATES's file that names its key (read once per process).
/// InvalidInput ("file:line: problem") for a file that cannot be read, a malformed line, an
/// unknown key, a unit other than the model's, a key given twice or a record without a value.
std::vector<CostRate> cost_rates();

/// The rates compiled into the library (lib/plan/rates/*.txt), every key the model uses.
std::vector<CostRate> compiled_cost_rates();

/// The records of a rates file (any subset of the keys), checked as cost_rates() checks
/// $PMCOUNT_RATES's.
std::vector<CostRate> read_cost_rates(const std::string& path);

/// `rates` in the file format, after `heading` (written as '#' comment lines): what
/// read_cost_rates reads back. Each value is written with 17 significant digits.
std::string format_cost_rates(const std::vector<CostRate>& rates, const std::string& heading);

}  // namespace pmcount
