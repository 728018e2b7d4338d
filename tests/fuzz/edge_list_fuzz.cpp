// libFuzzer harness of the edge-list reader (see fuzz_reading.hpp for what it exercises).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz/fuzz_reading.hpp"

extern "C" int LLVMFuzzerInitialize(int* /*argc*/, char*** /*argv*/) {
    pmcount::fuzz::warm_up();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    pmcount::fuzz::exercise(std::string_view(reinterpret_cast<const char*>(data), size),
                            pmcount::InputFormat::edge_list);
    return 0;
}
