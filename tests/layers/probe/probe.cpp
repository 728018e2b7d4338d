// Compiled by tests/layers/probe/CMakeLists.txt as if it were a file of module PROBE_MODULE.
#include PROBE_HEADER

int pmcount_layer_probe() { return 0; }
