// Runs count_matchings on every bundled dataset and compares with the answer in
// datasets/MANIFEST.tsv (computed independently by scripts/make-datasets.py).
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

struct Row {
    std::string file;
    std::string expected;
};

std::vector<Row> manifest() {
    std::ifstream in(std::string(PMCOUNT_SOURCE_DIR) + "/datasets/MANIFEST.tsv");
    std::vector<Row> rows;
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#') {
            continue;
        }
        std::vector<std::string> fields;
        std::stringstream ss(line);
        std::string field;
        while (std::getline(ss, field, '\t')) {
            fields.push_back(field);
        }
        if (fields.size() == 5) {
            rows.push_back({fields[0], fields[4]});
        }
    }
    return rows;
}

/// Runs count_matchings with `args` in the source directory; its stdout and stderr, with trailing
/// newlines removed, or "exit status S: ..." when it fails.
std::string run(const std::string& args) {
    const std::string command = std::string("cd '") + PMCOUNT_SOURCE_DIR + "' && " +
                                PMCOUNT_COUNT_MATCHINGS + " " + args + " 2>&1";
    std::string output;
    FILE* pipe = popen(command.c_str(), "r");
    if (pipe == nullptr) {
        return "popen failed";
    }
    std::array<char, 256> buffer{};
    while (std::fgets(buffer.data(), static_cast<int>(buffer.size()), pipe) != nullptr) {
        output += buffer.data();
    }
    const int status = pclose(pipe);
    while (!output.empty() && (output.back() == '\n' || output.back() == '\r')) {
        output.pop_back();
    }
    return status == 0 ? output : "exit status " + std::to_string(status) + ": " + output;
}

TEST(Datasets, EveryManifestAnswerIsReproduced) {
    const auto rows = manifest();
    ASSERT_GE(rows.size(), 8u) << "datasets/MANIFEST.tsv is missing or short";
    for (const Row& row : rows) {
        EXPECT_EQ(run("--quiet 'datasets/" + row.file + "'"), row.expected) << row.file;
    }
}

// The examples in --help that name a bundled dataset run as printed (a renamed or missing file
// would otherwise leave the help pointing at nothing).
TEST(Datasets, HelpExamplesNamingADatasetRun) {
    const std::string help = run("--help");
    std::istringstream lines(help);
    std::string line;
    int examples = 0;
    while (std::getline(lines, line)) {
        const std::size_t start = line.find("count_matchings ");
        if (start == std::string::npos || line.find("datasets/") == std::string::npos) {
            continue;
        }
        std::istringstream words(line.substr(start + std::string("count_matchings ").size()));
        std::string args, word;
        while (words >> word) {
            args += " " + word;
            if (word.find("datasets/") != std::string::npos) {
                break;  // what follows the file is the example's description
            }
        }
        ++examples;
        const std::string output = run(args);
        EXPECT_EQ(output.rfind("exit status", 0), std::string::npos) << line << "\n" << output;
    }
    EXPECT_GE(examples, 2) << help;
}

}  // namespace
