// `pmcount-bench predictions ...`: the planner's predicted time of each count against the time
// it took (predictions.cpp).
#pragma once

namespace pmcount::bench {

/// argv[0] is "predictions". Exit codes as pmcount-bench's.
int prediction_bench_main(int argc, char** argv);

}  // namespace pmcount::bench
