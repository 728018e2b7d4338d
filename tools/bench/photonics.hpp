// `pmcount-bench photonics ...`: torontonians on CPU threads and GPUs (photonics.cpp).
#pragma once

namespace pmcount::bench {

/// argv[0] is "photonics". Exit codes as pmcount-bench's.
int photonics_bench_main(int argc, char** argv);

}  // namespace pmcount::bench
