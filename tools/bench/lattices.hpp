// `pmcount-bench lattices ...`: the polynomial engines on generated lattices (lattices.cpp).
#pragma once

namespace pmcount::bench {

/// argv[0] is "lattices". Exit codes as pmcount-bench's.
int lattice_bench_main(int argc, char** argv);

}  // namespace pmcount::bench
