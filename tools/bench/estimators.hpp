// `pmcount-bench estimators ...`: the estimator benchmarks (estimators.cpp).
#pragma once

namespace pmcount::bench {

/// argv[0] is "estimators". Exit codes as pmcount-bench's.
int estimator_bench_main(int argc, char** argv);

}  // namespace pmcount::bench
