// `pmcount-bench calibrate ...`: the cost model's CPU rates measured on this machine, written as a
// rates file that PMCOUNT_RATES can name (calibrate.cpp).
#pragma once

namespace pmcount::bench {

/// argv[0] is "calibrate". Exit codes as pmcount-bench's.
int calibrate_bench_main(int argc, char** argv);

}  // namespace pmcount::bench
