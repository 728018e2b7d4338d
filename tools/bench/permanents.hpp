// `pmcount-bench [permanents] ...`: the dense and sparse permanent engines, the structure front
// end, the GPU engine and thewalrus's perm, on seeded random matrices (permanents.cpp).
#pragma once

namespace pmcount::bench {

/// argv[0] is the program or "permanents". Exit codes as pmcount-bench's.
int permanent_bench_main(int argc, char** argv);

}  // namespace pmcount::bench
