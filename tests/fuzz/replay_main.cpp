// Replays files through a libFuzzer harness without libFuzzer (the gcc build's ctest label fuzz):
// every file of each directory named on the command line, in name order, as one input. A crash,
// a trap or an escaping exception fails the run; the file being replayed is named first.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

int main(int argc, char** argv) {
    namespace fs = std::filesystem;
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s DIRECTORY...\n", argv[0]);
        return 1;
    }
    std::size_t replayed = 0;
    for (int k = 1; k < argc; ++k) {
        if (!fs::is_directory(argv[k])) {
            std::fprintf(stderr, "%s: not a directory\n", argv[k]);
            return 1;
        }
        std::vector<fs::path> files;
        for (const auto& entry : fs::directory_iterator(argv[k])) {
            if (entry.is_regular_file()) {
                files.push_back(entry.path());
            }
        }
        std::sort(files.begin(), files.end());
        for (const fs::path& file : files) {
            std::fprintf(stderr, "%s\n", file.c_str());
            std::ifstream in(file, std::ios::binary);
            const std::string bytes((std::istreambuf_iterator<char>(in)),
                                    std::istreambuf_iterator<char>());
            LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes.data()),
                                   bytes.size());
            ++replayed;
        }
    }
    std::printf("replayed %zu files\n", replayed);
    return replayed > 0 ? 0 : 1;
}
