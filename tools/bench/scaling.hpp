// `pmcount-bench scaling ...`: one count on 1, 2, 4 … devices through the in-process queue and
// through MPI ranks (scaling.cpp).
#pragma once

namespace pmcount::bench {

/// argv[0] is "scaling". Exit codes as pmcount-bench's.
int scaling_bench_main(int argc, char** argv);

}  // namespace pmcount::bench
