// count_matchings end to end: the real binary (PMCOUNT_COUNT_MATCHINGS) run on files written to a
// temporary directory; stdout, stderr and the exit status are checked exactly.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "support/scratch.hpp"

namespace {

namespace fs = std::filesystem;
using pmcount::test::Outcome;
using pmcount::test::quoted;
using pmcount::test::read_file;

constexpr int kOk = 0;
constexpr int kUsage = 1;
constexpr int kInputError = 2;
constexpr int kRuntimeError = 3;

/// Upper bound on any single run: a hang fails the test instead of stalling the suite.
constexpr int kTimeout_s = 60;

std::size_t count_lines(const std::string& text) {
    return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

class CountMatchingsCli : public pmcount::test::ScratchDirectoryTest {
protected:
    CountMatchingsCli() : ScratchDirectoryTest("pmcount_cli_") {}

    /// Writes `content` to dir/name; returns name (runs use dir as the working directory).
    std::string write(const std::string& name, const std::string& content) {
        std::ofstream out(dir_ / name, std::ios::binary);
        out << content;
        return name;
    }

    /// Runs count_matchings with `args` (already shell-quoted where needed) in dir.
    Outcome run(const std::string& args, const std::string& stdin_name = "") const {
        return run_after("", args, stdin_name);
    }

    /// run() after the shell commands `setup` (such as a ulimit).
    Outcome run_after(const std::string& setup, const std::string& args,
                      const std::string& stdin_name = "") const {
        const std::string in = stdin_name.empty() ? "/dev/null" : quoted(stdin_name);
        std::string command = setup.empty() ? "" : setup + "; ";
        if (fs::exists("/usr/bin/timeout")) {
            command += "/usr/bin/timeout " + std::to_string(kTimeout_s) + " ";
        }
        return shell(command + quoted(PMCOUNT_COUNT_MATCHINGS) + " " + args + " < " + in +
                     " > stdout.txt 2> stderr.txt");
    }

    /// Runs count_matchings with `args` in the background, and once `checkpoint` holds work (its
    /// first write), sends it `signal` (a name: INT, TERM, KILL); returns how it ended.
    Outcome run_and_signal(const std::string& args, const std::string& checkpoint,
                           const std::string& signal) const {
        return shell("rm -f " + quoted(checkpoint) + "; " + quoted(PMCOUNT_COUNT_MATCHINGS) + " " +
                     args +
                     " < /dev/null > stdout.txt 2> stderr.txt & pid=$!; tries=0; "
                     "while [ ! -s " +
                     quoted(checkpoint) +
                     " ] && [ $tries -lt 1200 ]; do "
                     "sleep 0.05; tries=$((tries + 1)); done; kill -" +
                     signal +
                     " $pid; "
                     "wait $pid");
    }
};

std::string complete_bipartite_edge_list(int n) {
    std::string text = "# bipartite " + std::to_string(n) + " " + std::to_string(n) + "\n";
    for (int u = 0; u < n; ++u) {
        for (int v = 0; v < n; ++v) {
            text += std::to_string(u) + " " + std::to_string(v) + "\n";
        }
    }
    return text;
}

std::string all_ones_matrix_market(int n) {
    std::string text = "%%MatrixMarket matrix coordinate pattern general\n" + std::to_string(n) +
                       " " + std::to_string(n) + " " + std::to_string(n * n) + "\n";
    for (int j = 1; j <= n; ++j) {
        for (int i = 1; i <= n; ++i) {
            text += std::to_string(i) + " " + std::to_string(j) + "\n";
        }
    }
    return text;
}

const char* const kFourCycle = "0 1\n1 2\n2 3\n3 0\n";

TEST_F(CountMatchingsCli, SmallGraphPrintsExactValue) {
    const Outcome r = run(write("g.txt", kFourCycle));
    EXPECT_EQ(r.status, kOk) << r.err;
    EXPECT_EQ(r.out, "2\n");
    EXPECT_NE(r.err.find("perfect matchings of g.txt (2×2, 4 entries, binary): exact"),
              std::string::npos)
        << r.err;
}

TEST_F(CountMatchingsCli, CompleteBipartiteK12) {
    const Outcome r = run(write("k12.txt", complete_bipartite_edge_list(12)));
    EXPECT_EQ(r.status, kOk) << r.err;
    EXPECT_EQ(r.out, "479001600\n");
}

TEST_F(CountMatchingsCli, AllOnesMatrixMarketOfOrder20) {
    const Outcome r = run(write("j20.mtx", all_ones_matrix_market(20)));
    EXPECT_EQ(r.status, kOk) << r.err;
    EXPECT_EQ(r.out, "2432902008176640000\n");
}

TEST_F(CountMatchingsCli, IntegerAndRealPermanents) {
    // perm [[1, 2], [3, 4]] = 1·4 + 2·3 = 10.
    const std::string integer = "%%MatrixMarket matrix array integer general\n2 2\n1\n3\n2\n4\n";
    const Outcome r = run(write("a.mtx", integer));
    EXPECT_EQ(r.status, kOk) << r.err;
    EXPECT_EQ(r.out, "10\n");
    // perm [[0.5, 0.25], [2, 4]] = 2 + 0.5 = 2.5.
    const Outcome real = run(write("b.txt", "# bipartite 2 2\n0 0 0.5\n0 1 0.25\n1 0 2\n1 1 4\n"));
    EXPECT_EQ(real.status, kOk) << real.err;
    EXPECT_EQ(real.out, "2.5\n");
    // plain-double is a GPU arithmetic: on the CPU the count runs compensated, and says so.
    const Outcome plain =
        run("--backend cpu --precision plain-double " + write("c.txt",
                                                              "# bipartite 2 2\n"
                                                              "0 0 0.5\n0 1 0.25\n"
                                                              "1 0 2\n1 1 4\n"));
    EXPECT_EQ(plain.out, "2.5\n");
    EXPECT_NE(plain.err.find("the CPU engines always compensate"), std::string::npos) << plain.err;
}

TEST_F(CountMatchingsCli, JsonOutputParses) {
    const Outcome r = run("--json " + write("g.txt", kFourCycle));
    ASSERT_EQ(r.status, kOk) << r.err;
    EXPECT_EQ(count_lines(r.out), 1u) << r.out;
    const nlohmann::json j = nlohmann::json::parse(r.out);
    ASSERT_TRUE(j["value"].is_string()) << r.out;
    EXPECT_EQ(j["value"], "2");
    ASSERT_TRUE(j["log10"].is_number()) << r.out;
    EXPECT_NEAR(j["log10"].get<double>(), std::log10(2.0), 1e-12);
    ASSERT_TRUE(j["method"].is_string());
    EXPECT_FALSE(j["method"].get<std::string>().empty());
    EXPECT_EQ(j["backend"], "cpu");
    EXPECT_EQ(j["n"], 2);
    EXPECT_EQ(j["nnz"], 4);
    EXPECT_EQ(j["exact"], true);
    EXPECT_EQ(j["input"], "g.txt");
    ASSERT_TRUE(j["timings"].is_object());
    for (const char* key : {"read_s", "preprocess_s", "count_s", "total_s"}) {
        ASSERT_TRUE(j["timings"][key].is_number()) << key;
        EXPECT_GE(j["timings"][key].get<double>(), 0.0) << key;
    }
    EXPECT_TRUE(r.err.empty()) << r.err;
}

TEST_F(CountMatchingsCli, JsonIsTheLibrarysToJsonWithTheInputsFieldsByteForByte) {
    // --json prints pmcount::to_json (result.hpp) with the input's name, shape, warnings and
    // file ids added: the same bytes as before the library had it (json_golden.tsv: arguments,
    // a tab, the output, recorded from that build), times and thread counts (which vary) and the
    // plan's text (the cost model's) set aside.
    write("int.mtx",
          "%%MatrixMarket matrix coordinate integer general\n3 3 7\n1 1 2\n1 2 -1\n2 2 3\n"
          "2 3 1\n3 1 5\n3 3 -4\n3 2 1\n");
    write("real.mtx",
          "%%MatrixMarket matrix coordinate real general\n2 2 4\n1 1 0.5\n1 2 0.5\n2 1 0.5\n"
          "2 2 0.25\n");
    write("complex.mtx",
          "%%MatrixMarket matrix coordinate complex general\n2 2 3\n1 1 1 1\n1 2 2 0\n"
          "2 1 0 1\n");
    write("hall.txt", "10 11\n12 11\n13 14\n13 15\n");
    write("star.txt", "0 1\n0 2\n0 3\n");
    const std::regex varying(R"re("(read_s|preprocess_s|count_s|device_s|total_s|predicted_s|)re"
                             R"re(seconds|estimate_s|sample_s|threads)":[-0-9.e+]+)re");
    const std::regex plan(R"re("plan":"(?:[^"\\]|\\.)*")re");
    std::ifstream golden(std::string(PMCOUNT_SOURCE_DIR) + "/tests/cli/json_golden.tsv");
    int cases = 0;
    for (std::string line; std::getline(golden, line); ++cases) {
        const std::string args = line.substr(0, line.find('\t'));
        const Outcome r = run(args);
        EXPECT_EQ(r.status, kOk) << args << ": " << r.err;
        const std::string steady = std::regex_replace(
            std::regex_replace(r.out, varying, "\"$1\":0"), plan, "\"plan\":\"\"");
        EXPECT_EQ(steady, line.substr(args.size() + 1) + "\n") << args;
    }
    EXPECT_EQ(cases, 7);
}

TEST_F(CountMatchingsCli, PmcountRatesNamesAHostsOwnRates) {
    // The cost model's rates come from lib/plan/rates.txt unless PMCOUNT_RATES names a file of
    // the host's own (pmcount-bench calibrate writes one). Dense double Ryser of order 20 takes
    // 2^19 steps of step_base + row·24 ns: two row rates 1 ns apart predict 2^19·24 ns apart.
    const std::string args =
        "random:20,1,1 --method ryser --precision double --backend cpu --threads 1 "
        "--no-dulmage-mendelsohn --no-reductions --explain --json";
    const auto predicted = [&](const std::string& row) {
        write("host.txt", "# a host's rates\n[cpu.ryser.row_double]\nvalue = " + row +
                              "\nunit = ns/row\nmachine = this one\n");
        const Outcome r = run_after("export PMCOUNT_RATES=host.txt", args);
        EXPECT_EQ(r.status, kOk) << r.err;
        return nlohmann::json::parse(r.out)["structure"]["predicted_s"].get<double>();
    };
    EXPECT_NEAR(predicted("1.5") - predicted("0.5"), std::ldexp(24e-9, 19), 1e-6);
    // A bad file is refused naming its line, and so is one that is not there.
    write("bad.txt", "[cpu.ryser.row_double]\nvalue = -2\n");
    Outcome bad = run_after("export PMCOUNT_RATES=bad.txt", args);
    EXPECT_EQ(bad.status, kInputError);
    EXPECT_NE(bad.err.find("bad.txt:2: rate 'cpu.ryser.row_double' is negative"), std::string::npos)
        << bad.err;
    EXPECT_EQ(std::count(bad.err.begin(), bad.err.end(), '\n'), 1) << bad.err;
    bad = run_after("export PMCOUNT_RATES=missing.txt", args);
    EXPECT_EQ(bad.status, kInputError);
    EXPECT_NE(bad.err.find("missing.txt"), std::string::npos) << bad.err;
}

TEST_F(CountMatchingsCli, JsonOfAZeroCountCarriesTheNote) {
    const Outcome r = run("--json " + write("path.txt", "0 1\n1 2\n"));
    ASSERT_EQ(r.status, kOk) << r.err;
    const nlohmann::json j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["value"], "0");
    EXPECT_TRUE(j["log10"].is_null());
    EXPECT_TRUE(j["note"].is_string());
}

TEST_F(CountMatchingsCli, ReadsStandardInput) {
    const Outcome r = run("-", write("g.txt", kFourCycle));
    EXPECT_EQ(r.status, kOk) << r.err;
    EXPECT_EQ(r.out, "2\n");
    EXPECT_NE(r.err.find("<stdin>"), std::string::npos) << r.err;
    const Outcome mm = run("-", write("j.mtx", all_ones_matrix_market(5)));
    EXPECT_EQ(mm.status, kOk) << mm.err;
    EXPECT_EQ(mm.out, "120\n");
}

TEST_F(CountMatchingsCli, CycleCoversOfAHeaderlessEdgeList) {
    // Arcs of a directed triangle plus a loop at every vertex: the identity and the 3-cycle.
    const std::string name = write("c.txt", "0 1\n1 2\n2 0\n0 0\n1 1\n2 2\n");
    const Outcome r = run("--cycle-covers " + name);
    EXPECT_EQ(r.status, kOk) << r.err;
    EXPECT_EQ(r.out, "2\n");
    EXPECT_NE(r.err.find("cycle covers of c.txt"), std::string::npos) << r.err;
    // Read as an undirected graph, the loops cannot be in a perfect matching: an input error.
    const Outcome undirected = run(name);
    EXPECT_EQ(undirected.status, kInputError);
    EXPECT_EQ(undirected.out, "");
    EXPECT_EQ(undirected.err,
              "error: c.txt:4: self-loop 0–0: no perfect matching can use it (remove it; with "
              "--cycle-covers a self-loop is a fixed point)\n");
    // Ids need not start at 0 or be contiguous.
    const Outcome sparse_ids = run("--cycle-covers " + write("d.txt", "10 20\n20 10\n"));
    EXPECT_EQ(sparse_ids.status, kOk) << sparse_ids.err;
    EXPECT_EQ(sparse_ids.out, "1\n");
}

TEST_F(CountMatchingsCli, UnequalSidesPrintZeroAndANote) {
    const Outcome r = run(write("path.txt", "0 1\n1 2\n"));
    EXPECT_EQ(r.status, kOk) << r.err;
    EXPECT_EQ(r.out, "0\n");
    EXPECT_NE(r.err.find("note: "), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("2 vertices"), std::string::npos) << r.err;
}

TEST_F(CountMatchingsCli, PermanentOfANonSquareMatrixIsRectangular) {
    // [[1, 2, 3], [4, 5, 6]]: Σ over the 6 injective maps of the rows into the columns
    // 1·5 + 1·6 + 2·4 + 2·6 + 3·4 + 3·5 = 58; weighted inputs count the permanent by default.
    const std::string integer =
        "%%MatrixMarket matrix array integer general\n2 3\n1\n4\n2\n5\n3\n6\n";
    for (const std::string flag : {"", "--permanent "}) {
        const Outcome r = run(flag + write("a.mtx", integer));
        EXPECT_EQ(r.status, kOk) << r.err;
        EXPECT_EQ(r.out, "58\n");
        EXPECT_NE(r.err.find("note: the permanent of the 2×3 matrix is that of the 3×3 matrix made "
                             "by appending 1 row of ones, divided by 1!"),
                  std::string::npos)
            << r.err;
    }
    // A weighted undirected path 0 – 1 – 2 is 2-coloured into sides of the reader's choosing,
    // {0, 2} and {1}: its weighted perfect matchings, 0, not a 2×1 permanent (2 + 3).
    const std::string path = write("path.txt", "0 1 2\n1 2 3\n");
    for (const std::string flag : {"", "--permanent "}) {
        const Outcome r = run(flag + path);
        EXPECT_EQ(r.status, kOk) << r.err;
        EXPECT_EQ(r.out, "0\n") << r.err;
    }
    // The estimators sample permutations: refused in one line, not estimated as 0.
    const Outcome approx = run("--approx a.mtx");
    EXPECT_EQ(approx.status, kInputError);
    EXPECT_EQ(approx.out, "");
    EXPECT_EQ(approx.err,
              "error: a.mtx: the estimators take square matrices; this one is 2×3 (its "
              "rectangular permanent is counted exactly without --approx)\n");
    // Read as a digraph's arcs, it has no cycle cover.
    const Outcome covers = run("--cycle-covers a.mtx");
    EXPECT_EQ(covers.status, kOk) << covers.err;
    EXPECT_EQ(covers.out, "0\n");
    EXPECT_NE(covers.err.find("no perfect matching, count is 0"), std::string::npos) << covers.err;
    // Its transpose, 3×2, as integer-valued reals (read exactly): the same sum.
    const Outcome real =
        run("--json " + write("b.mtx",
                              "%%MatrixMarket matrix coordinate real general\n3 2 6\n"
                              "1 1 1\n2 1 2\n3 1 3\n1 2 4\n2 2 5\n3 2 6.0\n"));
    EXPECT_EQ(real.status, kOk) << real.err;
    const auto j = nlohmann::json::parse(real.out);
    EXPECT_EQ(j["value"], "58") << real.out;
    EXPECT_NE(j["note"].get<std::string>().find("is that of its transpose, that of the 3×3"),
              std::string::npos);
    // A 2×4 pattern: --permanent counts the injective maps (4·3 = 12 with every entry present,
    // here rows {1, 2} and {2, 3, 4}: 2·3 − 1 = 5), without it the perfect matchings, 0.
    const std::string pattern =
        write("p.mtx",
              "%%MatrixMarket matrix coordinate pattern general\n2 4 5\n1 1\n1 2\n2 2\n"
              "2 3\n2 4\n");
    const Outcome as_permanent = run("--permanent " + pattern);
    EXPECT_EQ(as_permanent.status, kOk) << as_permanent.err;
    EXPECT_EQ(as_permanent.out, "5\n");
    EXPECT_NE(as_permanent.err.find("permanent of "), std::string::npos) << as_permanent.err;
    EXPECT_NE(as_permanent.err.find("(2×4, 5 entries, binary)"), std::string::npos)
        << as_permanent.err;
    for (const std::string flag : {"", "--perfect-matchings "}) {
        const Outcome matchings = run(flag + pattern);
        EXPECT_EQ(matchings.status, kOk) << matchings.err;
        EXPECT_EQ(matchings.out, "0\n");
        EXPECT_NE(matchings.err.find("no perfect matching, count is 0"), std::string::npos)
            << matchings.err;
    }
}

struct Malformed {
    const char* name;
    std::string content;
    int line;
    const char* fragment;
};

TEST_F(CountMatchingsCli, EveryMalformedInputExitsTwoWithOneLocatedLine) {
    using namespace std::string_literals;
    const std::string mm = "%%MatrixMarket matrix coordinate real general\n";
    const std::vector<Malformed> cases{
        {"non_numeric.txt", "0 1\n1 x\n", 2, "is not a number"},
        {"too_many.txt", "0 1\n1 2 3 4\n", 2, "too many fields"},
        {"too_few.txt", "0 1\n\n5\n", 3, "too few fields"},
        {"negative.txt", "0 1\n-1 2\n", 2, "is negative"},
        {"fraction.txt", "0 1\n1.5 2\n", 2, "is not an integer"},
        {"outside.txt", "# bipartite 2 2\n0 0\n0 2\n", 3, "outside [0, 2)"},
        {"outside_directed.txt", "# directed 2\n2 0\n", 2, "outside [0, 2)"},
        {"nan.txt", "0 1 1\n1 2 nan\n", 2, "NaN"},
        {"inf.txt", "0 1 inf\n", 1, "infinite"},
        {"huge.txt", "0 1 1e400\n", 1, "beyond double range"},
        {"mixed.txt", "0 1 1\n1 2\n", 2, "give every edge a weight or none"},
        {"empty.txt", "", 1, "empty file"},
        {"comments.txt", "# nothing\n\n", 2, "no edges"},
        {"duplicate.txt", "# bipartite 2 2\n0 0 1\n0 0 2\n", 3, "already given on line 2"},
        {"header.txt", "# bipartite 3\n", 1, "malformed header"},
        {"late_header.txt", "0 1\n# bipartite 2 2\n", 2, "header after the first edge"},
        {"second_header.txt", "# directed 2\n# directed 2\n", 2, "second header"},
        {"binary.txt", "0 1\n\0\x01\x02\n"s, 2, "binary data"},
        {"overflow.txt", "0 99999999999999999999\n", 1, "does not fit in 64 bits"},
        {"banner.mtx", "%%MatrixMarket matrix coordinate real sideways\n", 1, "unknown"},
        {"no_size.mtx", mm, 1, "no size line"},
        {"size_fields.mtx", mm + "2 2\n", 2, "size line has 2 fields"},
        {"non_square.mtx", "%%MatrixMarket matrix coordinate real symmetric\n2 3 0\n", 2,
         "must be square"},
        {"index.mtx", mm + "2 2 1\n0 1 1.5\n", 3, "outside the 2×2 matrix"},
        {"truncated.mtx", mm + "2 2 3\n1 1 1.5\n", 3, "truncated file: 1 of the 3 entries"},
        {"extra.mtx", mm + "2 2 1\n1 1 1.5\n2 2 1.5\n", 4, "more entries than the 1"},
        {"mm_nan.mtx", mm + "2 2 1\n1 1 NaN\n", 3, "NaN"},
        {"mm_duplicate.mtx", mm + "2 2 2\n1 1 1.5\n1 1 2.5\n", 4, "duplicate entry (1, 1)"},
        {"skew.mtx", "%%MatrixMarket matrix coordinate real skew-symmetric\n2 2 1\n1 1 1\n", 3,
         "nonzero diagonal"},
        {"array.mtx", "%%MatrixMarket matrix array real general\n2 2\n1\n2\n", 4,
         "truncated file: 2 of the 4 values"},
    };
    for (const Malformed& c : cases) {
        SCOPED_TRACE(c.name);
        const Outcome r = run(write(c.name, c.content));
        EXPECT_EQ(r.status, kInputError) << r.err;
        EXPECT_EQ(r.out, "");
        const std::string prefix =
            std::string("error: ") + c.name + ":" + std::to_string(c.line) + ": ";
        EXPECT_EQ(r.err.compare(0, prefix.size(), prefix), 0)
            << "expected '" << prefix << "' at the start of: " << r.err;
        EXPECT_NE(r.err.find(c.fragment), std::string::npos) << r.err;
        EXPECT_EQ(count_lines(r.err), 1u) << r.err;
        EXPECT_EQ(r.err.back(), '\n');
    }
}

/// The rows×cols torus as a headerless edge list (vertex (r, c) has id 3(r·cols + c) + 7) and
/// its rotation system (right, down, left, up); each of `swap_lines` exchanges the first two
/// neighbours of that line's vertex (a drawing of higher genus).
std::pair<std::string, std::string> torus_files(int rows, int cols,
                                                const std::vector<int>& swap_lines = {}) {
    const auto id = [&](int r, int c) {
        return std::to_string(3 * (((r + rows) % rows) * cols + (c + cols) % cols) + 7);
    };
    std::string edges, rotation = "# the torus's rotation system\n";
    for (int r = 0; r < rows; ++r) {
        for (int c = 0; c < cols; ++c) {
            edges += id(r, c) + " " + id(r, c + 1) + "\n" + id(r, c) + " " + id(r + 1, c) + "\n";
            const bool swap = std::find(swap_lines.begin(), swap_lines.end(), r * cols + c + 2) !=
                              swap_lines.end();
            rotation += id(r, c) + ": " + (swap ? id(r + 1, c) : id(r, c + 1)) + " " +
                        (swap ? id(r, c + 1) : id(r + 1, c)) + " " + id(r, c - 1) + " " +
                        id(r - 1, c) + "\n";
        }
    }
    return {edges, rotation};
}

TEST_F(CountMatchingsCli, GeneralLatticeSpecsAreInputsAndBadOnesAreOneLineErrors) {
    // The kagome torus of 48 sites: 2^17 coverings, four Pfaffians on its drawing.
    const Outcome kagome = run("kagome-torus:4x4 --json");
    ASSERT_EQ(kagome.status, kOk) << kagome.err;
    const auto j = nlohmann::json::parse(kagome.out);
    EXPECT_EQ(j["value"], "131072");
    EXPECT_EQ(j["method"], "pfaffian-surface");
    EXPECT_EQ(run("fcc:1x1x1 -q").out, "3\n");
    EXPECT_EQ(run("cubic:2x2x2 -q").out, "9\n");
    EXPECT_EQ(run("tri:4x4 -q").out, "56\n");
    for (const auto& [spec, problem] :
         std::vector<std::pair<std::string, std::string>>{{"tri-torus:1x4", "at least 2"},
                                                          {"hex-torus:3x4", "even"},
                                                          {"fcc:2x2", "expected LxMxN"},
                                                          {"regular-general:5,3", "must be even"},
                                                          {"kagome:4000x4000", "supported"}}) {
        const Outcome bad = run(spec);
        EXPECT_EQ(bad.status, kInputError) << spec;
        EXPECT_EQ(bad.err.rfind("error: " + spec + ": ", 0), 0U) << bad.err;
        EXPECT_NE(bad.err.find(problem), std::string::npos) << bad.err;
        EXPECT_EQ(std::count(bad.err.begin(), bad.err.end(), '\n'), 1) << bad.err;
    }
}

TEST_F(CountMatchingsCli, ApproxEstimatesGeneralGraphsWithEitherSampler) {
    // tri:6x6 (56568 perfect matchings): each sampler's interval covers the exact count (fixed
    // seeds: deterministic) — the bethe sweep by default, the blossom-pruned rasmussen+ when
    // named, whose GPU refusal is one line.
    const Outcome exact = run("tri:6x6 -q");
    ASSERT_EQ(exact.status, kOk) << exact.err;
    const double truth = std::stod(exact.out);
    for (const std::string estimator : {"bethe", "rasmussen+"}) {
        const std::string name = estimator == "bethe" ? "" : " --estimator " + estimator;
        const Outcome approx = run("tri:6x6 --approx --samples 20000 --seed 4 --json" + name);
        ASSERT_EQ(approx.status, kOk) << approx.err;
        const auto j = nlohmann::json::parse(approx.out);
        EXPECT_EQ(j["estimator"], estimator);
        EXPECT_LE(std::pow(10.0, j["log10_ci_low"].get<double>()), truth) << estimator;
        EXPECT_GE(std::pow(10.0, j["log10_ci_high"].get<double>()), truth) << estimator;
        const Outcome populations =
            run("tri:6x6 --approx --particles 64 --samples 64000 --seed 4 --json" + name);
        ASSERT_EQ(populations.status, kOk) << populations.err;
        const auto p = nlohmann::json::parse(populations.out);
        EXPECT_EQ(p["populations"], 1000);
        EXPECT_LE(std::pow(10.0, p["log10_ci_low"].get<double>()), truth) << estimator;
        EXPECT_GE(std::pow(10.0, p["log10_ci_high"].get<double>()), truth) << estimator;
    }
    // --explain names the sampler that will run.
    EXPECT_NE(run("tri:6x6 --approx --explain").out.find("estimator bethe (general graph)"),
              std::string::npos);
    EXPECT_NE(run("tri:6x6 --estimator rasmussen+ --explain")
                  .out.find("estimator rasmussen+ (general graph)"),
              std::string::npos);
    const Outcome gpu = run("tri:6x6 --estimator rasmussen+ --backend cuda --samples 10");
    EXPECT_NE(gpu.status, kOk);
    EXPECT_EQ(std::count(gpu.err.begin(), gpu.err.end(), '\n'), 1) << gpu.err;
    EXPECT_NE(gpu.err.find("CPU threads"), std::string::npos) << gpu.err;
}

TEST_F(CountMatchingsCli, LoopHafnianReadsTheDiagonalAsLoops) {
    // [[2, 1, 0], [1, 3, 4], [0, 4, 5]]: 2·3·5 + 1·5 + 4·2 = 43, as a Matrix Market file and as
    // an edge list whose self-loops carry the diagonal.
    const std::string mtx = write("loops.mtx",
                                  "%%MatrixMarket matrix coordinate integer symmetric\n3 3 5\n"
                                  "1 1 2\n2 1 1\n2 2 3\n3 2 4\n3 3 5\n");
    const Outcome json = run("--loop-hafnian --json " + mtx);
    ASSERT_EQ(json.status, kOk) << json.err;
    const auto j = nlohmann::json::parse(json.out);
    EXPECT_EQ(j["value"], "43");
    EXPECT_EQ(j["method"], "loop-hafnian");
    EXPECT_EQ(j["counted"], "loop hafnian");
    EXPECT_EQ(
        run("--loop-hafnian -q " + write("loops.txt", "0 0 2\n0 1 1\n1 1 3\n1 2 4\n2 2 5\n")).out,
        "43\n");
    // A pattern's loops and edges weigh 1: all loops, or one edge and the other loop.
    EXPECT_EQ(run("--loop-hafnian -q " + write("p.txt", "0 0\n0 1\n1 2\n2 2\n1 1\n")).out, "3\n");
    // Real entries: a double with its figure; --hafnian still ignores the diagonal (warning).
    const Outcome real =
        run("--loop-hafnian -q " + write("r.mtx",
                                         "%%MatrixMarket matrix coordinate real symmetric\n2 2 3\n"
                                         "1 1 0.5\n2 1 0.25\n2 2 2\n"));
    EXPECT_EQ(std::stod(real.out), 1.25) << real.err;
    const Outcome plain = run("--hafnian " + mtx);
    EXPECT_NE(plain.err.find("diagonal entries ignored"), std::string::npos) << plain.err;
    // What it cannot do: one line each.
    for (const auto& [args, status, fragment] :
         std::vector<std::tuple<std::string, int, std::string>>{
             {"--loop-hafnian --approx " + mtx, kUsage, "no estimator"},
             {"--loop-hafnian --hafnian " + mtx, kUsage, "excludes"},
             {"--loop-hafnian --backend cuda " + mtx, kUsage, "CPU threads"},
             {"--loop-hafnian " + write("a.mtx",
                                        "%%MatrixMarket matrix coordinate integer general\n2 2 "
                                        "2\n1 2 1\n2 1 2\n"),
              kInputError, "a.mtx:"}}) {
        const Outcome bad = run(args);
        EXPECT_EQ(bad.status, status) << args << ": " << bad.err;
        EXPECT_NE(bad.err.find(fragment), std::string::npos) << bad.err;
        EXPECT_EQ(count_lines(bad.err), 1u) << bad.err;
    }
}

TEST_F(CountMatchingsCli, MatchingsOfEverySize) {
    // The path on 4 vertices: m = 1, 3, 1; Z(x) = x⁴ + 3x² + 1.
    const std::string p4 = write("p4.txt", "# undirected 4\n0 1\n1 2\n2 3\n");
    EXPECT_EQ(run("--all-matchings -q " + p4).out, "5\n");
    EXPECT_EQ(run("--matching-polynomial -q " + p4).out, "1\n3\n1\n");
    EXPECT_EQ(run("--matchings-of-size 2 -q " + p4).out, "1\n");
    EXPECT_EQ(run("--monomer-weight 1/2 -q " + p4).out, "29/16\n");
    EXPECT_EQ(run("--monomer-weight 0.5 -q " + p4).out, "29/16\n");
    const Outcome summary = run("--matching-polynomial " + p4);
    EXPECT_NE(summary.err.find("matching polynomial of p4.txt (4 vertices, 3 edges"),
              std::string::npos)
        << summary.err;
    const Outcome json = run("--json --matching-polynomial " + p4);
    ASSERT_EQ(json.status, kOk) << json.err;
    const auto j = nlohmann::json::parse(json.out);
    EXPECT_EQ(j["coefficients"], nlohmann::json({"1", "3", "1"}));
    EXPECT_EQ(j["value"], "5");
    EXPECT_EQ(j["hosoya_index"], "5");
    EXPECT_EQ(j["exact"], true);
    const auto z = nlohmann::json::parse(run("--json --monomer-weight 1/2 " + p4).out);
    EXPECT_EQ(z["numerator"], "29");
    EXPECT_EQ(z["denominator"], "16");
    // C60's Hosoya index, from the bundled dataset.
    const std::string c60 = quoted(std::string(PMCOUNT_SOURCE_DIR) + "/datasets/c60.edgelist");
    EXPECT_EQ(run("--all-matchings -q " + c60).out, "1417036634543488\n");
    EXPECT_EQ(run("--all-matchings -q --prime-set 1 " + c60).out, "1417036634543488\n");
    // What it refuses, in one line each.
    for (const auto& [args, status, fragment] :
         std::vector<std::tuple<std::string, int, std::string>>{
             {"--monomer-weight abc " + p4, kUsage, "monomer weight 'abc'"},
             {"--monomer-weight 1/0 " + p4, kUsage, "denominator is 0"},
             {"--matching-polynomial --approx " + p4, kUsage, "counted exactly"},
             {"--matchings-of-size 1 --approx " + p4, kUsage, "counted exactly"},
             {"--all-matchings --approx --scale-every 2 " + p4, kUsage, "does not apply"},
             {"--all-matchings --estimator rasmussen " + p4, kUsage, "does not apply"},
             {"--monomer-weight 0 --approx " + p4, kUsage, "needs a positive one"},
             {"--monomer-weight -2 --approx " + p4, kUsage, "needs a positive one"},
             {"--all-matchings --explain " + p4, kUsage, "names its engines"},
             {"--all-matchings --matching-polynomial " + p4, kUsage, "excludes"},
             {"--all-matchings --cycle-covers " + p4, kUsage, "excludes"},
             {"--matchings-of-size -1 " + p4, kUsage, "below 0"},
             {"--all-matchings --method ryser " + p4, kUsage, "not by method ryser"},
             {"--all-matchings " + write("d.txt", "# directed 3\n0 1\n1 2\n"), kUsage,
              "d.txt: matchings are counted on undirected graphs"},
             {"--all-matchings " + write("r.mtx",
                                         "%%MatrixMarket matrix coordinate real general\n2 2 1\n"
                                         "1 2 0.5\n"),
              kUsage, "integer weights"}}) {
        const Outcome bad = run(args);
        EXPECT_EQ(bad.status, status) << args << ": " << bad.err;
        EXPECT_NE(bad.err.find(fragment), std::string::npos) << args << ": " << bad.err;
        EXPECT_EQ(count_lines(bad.err), 1u) << bad.err;
    }
}

TEST_F(CountMatchingsCli, EstimatesAllMatchingsAndTheMonomerDimerFunction) {
    // --approx with --all-matchings or --monomer-weight X: the interval covers the exact count
    // (C60's Hosoya index; Z(1/2) of a real matrix read as the weighted bipartite graph of its
    // rows and columns), JSON names the estimator, and a negative weight is an input error
    // naming the file.
    const std::string c60 = quoted(std::string(PMCOUNT_SOURCE_DIR) + "/datasets/c60.edgelist");
    const Outcome all = run("--all-matchings --approx --json --rel-error 0.005 " + c60);
    ASSERT_EQ(all.status, kOk) << all.err;
    const auto j = nlohmann::json::parse(all.out);
    EXPECT_EQ(j["estimator"], "monomer-dimer");
    EXPECT_EQ(j["counted"], "all matchings");
    const double truth = std::log10(1417036634543488.0);
    EXPECT_LE(j["log10_ci_low"].get<double>(), truth);
    EXPECT_GE(j["log10_ci_high"].get<double>(), truth);
    EXPECT_LT(j["rel_std_error"].get<double>(), 0.005);
    // [[0.5, 0.2], [0.1, 0.4]] at x = 1/2: the graph of rows r0, r1 and columns c0, c1 has
    // Z = x⁴ + (0.5 + 0.2 + 0.1 + 0.4)·x² + (0.5·0.4 + 0.2·0.1) = 0.0625 + 0.3 + 0.22 = 0.5825.
    const std::string real = write("w.mtx",
                                   "%%MatrixMarket matrix coordinate real general\n2 2 4\n"
                                   "1 1 0.5\n1 2 0.2\n2 1 0.1\n2 2 0.4\n");
    const Outcome z = run("--monomer-weight 1/2 --approx --json --samples 200000 --particles 1 " +
                          real);
    ASSERT_EQ(z.status, kOk) << z.err;
    const auto zj = nlohmann::json::parse(z.out);
    EXPECT_EQ(zj["counted"], "monomer-dimer Z(1/2)");
    EXPECT_LE(zj["log10_ci_low"].get<double>(), std::log10(0.5825));
    EXPECT_GE(zj["log10_ci_high"].get<double>(), std::log10(0.5825));
    const Outcome bad = run("--all-matchings --approx " +
                            write("neg.mtx",
                                  "%%MatrixMarket matrix coordinate real general\n2 2 1\n"
                                  "1 2 -0.5\n"));
    EXPECT_EQ(bad.status, kInputError) << bad.err;
    EXPECT_NE(bad.err.find("neg.mtx"), std::string::npos) << bad.err;
    EXPECT_NE(bad.err.find("nonnegative finite weights"), std::string::npos) << bad.err;
    EXPECT_EQ(count_lines(bad.err), 1u) << bad.err;
}

TEST_F(CountMatchingsCli, AnEdgeListTorusWithItsRotationsIsCountedOnTheTorus) {
    // torus:16x16 from a file: without the embedding no engine fits (the frontier would need
    // ~69 GiB); with it, four Pfaffians, the same count as the generated torus.
    const auto [edges, rotation] = torus_files(16, 16);
    const std::string graph = write("torus.txt", edges);
    const std::string drawing = write("torus.rot", rotation);
    const Outcome spec = run("torus:16x16 -q");
    ASSERT_EQ(spec.status, kOk) << spec.err;
    EXPECT_EQ(spec.out, "630665326543010382995142219988992\n");
    const Outcome drawn = run(graph + " --embedding " + drawing + " --json");
    ASSERT_EQ(drawn.status, kOk) << drawn.err;
    const auto j = nlohmann::json::parse(drawn.out);
    EXPECT_EQ(j["value"], "630665326543010382995142219988992");
    EXPECT_EQ(j["method"], "pfaffian-surface");
    const Outcome general = run(graph + " --hafnian --embedding " + drawing + " -q");
    EXPECT_EQ(general.out, spec.out) << general.err;
    const Outcome plain = run(graph + " --max-time 60");
    EXPECT_EQ(plain.status, kRuntimeError) << plain.err;
    // A rotation out of order draws the graph on the double torus: 16 Pfaffians, the same count.
    const auto [same, out_of_order] = torus_files(16, 16, {5});
    const std::string twisted = write("twisted.rot", out_of_order);
    const Outcome genus2 = run(graph + " --embedding " + twisted + " --json");
    ASSERT_EQ(genus2.status, kOk) << genus2.err;
    EXPECT_EQ(nlohmann::json::parse(genus2.out)["value"], "630665326543010382995142219988992");
    const Outcome plan = run(graph + " --embedding " + twisted + " --explain");
    EXPECT_NE(plan.out.find("surface of genus 2"), std::string::npos) << plan.out;
    EXPECT_NE(plan.out.find("16 Pfaffians"), std::string::npos) << plan.out;
    // Two out of order, far apart: genus 3, refused rather than guessed.
    const auto [again, two_out] = torus_files(16, 16, {5, 140});
    const Outcome genus3 = run(graph + " --embedding " + write("bad.rot", two_out));
    EXPECT_EQ(genus3.status, kUsage) << genus3.err;
    EXPECT_NE(genus3.err.find("surface of genus 3"), std::string::npos) << genus3.err;
    EXPECT_EQ(count_lines(genus3.err), 1u) << genus3.err;
    // A malformed file names its line; estimates do not take an embedding.
    const Outcome malformed =
        run(graph + " --embedding " + write("cut.rot", "# (0, 0) and (15, 1)\n7: 10 55 52 730\n"));
    EXPECT_EQ(malformed.status, kInputError) << malformed.err;
    EXPECT_EQ(malformed.err.rfind("error: cut.rot:2: the graph has no edge 7–730", 0), 0u)
        << malformed.err;
    EXPECT_EQ(count_lines(malformed.err), 1u) << malformed.err;
    const Outcome approx = run(graph + " --approx --embedding " + drawing);
    EXPECT_EQ(approx.status, kUsage) << approx.err;
    EXPECT_NE(approx.err.find("--embedding applies to exact counts"), std::string::npos)
        << approx.err;
}

TEST_F(CountMatchingsCli, PerfectMatchingsWithHafnianCountTheUndirectedGraph) {
    // K4 as a symmetric pattern: 3 perfect matchings; the bipartite reading (rows × columns,
    // the 4×4 pattern without its diagonal) would give the 9 derangements of 4.
    const std::string k4 = write("k4.mtx",
                                 "%%MatrixMarket matrix coordinate pattern symmetric\n4 4 6\n"
                                 "2 1\n3 1\n4 1\n3 2\n4 2\n4 3\n");
    const std::string weighted = write("k4w.mtx",
                                       "%%MatrixMarket matrix coordinate integer symmetric\n"
                                       "4 4 6\n2 1 5\n3 1 2\n4 1 7\n3 2 3\n4 2 2\n4 3 1\n");
    for (const char* flags : {"--perfect-matchings --hafnian", "--hafnian --perfect-matchings"}) {
        for (const std::string& file : {k4, weighted}) {
            const Outcome r = run(std::string("-q ") + flags + " " + file);
            EXPECT_EQ(r.status, kOk) << flags << " " << file << ": " << r.err;
            EXPECT_EQ(r.out, "3\n") << flags << " " << file;
        }
    }
    // --hafnian alone weighs the pairings: a12·a34 + a13·a24 + a14·a23 = 5·1 + 2·2 + 7·3.
    EXPECT_EQ(run("-q --hafnian " + weighted).out, "30\n");
}

TEST_F(CountMatchingsCli, ConflictingCountingFlagsAreUsageErrors) {
    // Each of these pairs asks for two different counts of one file: refused in one line.
    const std::string k4 = write("k4.mtx",
                                 "%%MatrixMarket matrix coordinate pattern symmetric\n4 4 6\n"
                                 "2 1\n3 1\n4 1\n3 2\n4 2\n4 3\n");
    const std::vector<std::pair<std::string, std::string>> pairs{
        {"--perfect-matchings", "--cycle-covers"},
        {"--perfect-matchings", "--permanent"},
        {"--cycle-covers", "--permanent"},
        {"--cycle-covers", "--hafnian"},
        {"--permanent", "--hafnian"}};
    for (const auto& [first, second] : pairs) {
        for (const std::string& flags : {first + " " + second, second + " " + first}) {
            const Outcome r = run(flags + " " + k4);
            EXPECT_EQ(r.status, kUsage) << flags << ": " << r.err;
            EXPECT_EQ(r.out, "") << flags;
            EXPECT_EQ(count_lines(r.err), 1U) << flags << ": " << r.err;
            EXPECT_NE(r.err.find("excludes"), std::string::npos) << flags << ": " << r.err;
        }
    }
}

TEST_F(CountMatchingsCli, OptionsOfTheOtherModeAreUsageErrors) {
    // An exact count's options with --approx (or --estimator), and an estimator's without, were
    // dropped silently: --approx --method ryser estimated with Scaling+.
    const std::string name = write("g.txt", kFourCycle);
    for (const char* option : {"--method ryser", "--precision dd", "--gpu-kernels tables",
                               "--general", "--no-dm", "--no-reduce", "--max-time 5"}) {
        for (const char* mode : {"--approx", "--estimator rasmussen"}) {
            const Outcome r = run(std::string(mode) + " " + option + " " + name);
            EXPECT_EQ(r.status, kUsage) << mode << " " << option << ": " << r.err;
            EXPECT_EQ(r.out, "");
            const std::string flag = std::string(option).substr(0, std::string(option).find(' '));
            EXPECT_EQ(r.err, "count_matchings: " + flag +
                                 " applies to exact counts, not to --approx (see --help)\n");
        }
    }
    for (const char* option : {"--samples 10", "--time 1", "--rel-error 0.1", "--seed 3",
                               "--scale-every 2", "--scale-iters 3", "--particles 8",
                               "--resample-every 4", "--potential-exponent 1", "--layout dense"}) {
        const Outcome r = run(std::string(option) + " " + name);
        EXPECT_EQ(r.status, kUsage) << option << ": " << r.err;
        const std::string flag = std::string(option).substr(0, std::string(option).find(' '));
        EXPECT_EQ(r.err, "count_matchings: " + flag +
                             " applies to --approx (estimates) only "
                             "(see --help)\n");
        EXPECT_EQ(run(std::string("-q --approx ") + option + " " + name).status, kOk) << option;
    }
}

TEST_F(CountMatchingsCli, UsageErrorsExitOne) {
    const std::string name = write("g.txt", kFourCycle);
    const Outcome unknown = run("--frobnicate " + name);
    EXPECT_EQ(unknown.status, kUsage) << unknown.err;
    EXPECT_EQ(unknown.out, "");
    const Outcome method = run("--method quantum " + name);
    EXPECT_EQ(method.status, kUsage);
    EXPECT_NE(method.err.find("unknown method 'quantum'"), std::string::npos) << method.err;
    const Outcome kernels = run("--gpu-kernels jit " + name);
    EXPECT_EQ(kernels.status, kUsage);
    EXPECT_NE(kernels.err.find("unknown GPU kernels 'jit'"), std::string::npos) << kernels.err;
    for (const char* choice : {"auto", "tables", "generated"}) {  // the CPU backend ignores them
        const Outcome r = run(std::string("--backend cpu --gpu-kernels ") + choice + " " + name);
        EXPECT_EQ(r.status, kOk) << r.err;
        EXPECT_EQ(r.out, "2\n");
    }
    const Outcome precision = run("--precision quad " + name);
    EXPECT_EQ(precision.status, kUsage);
    EXPECT_NE(precision.err.find("quad"), std::string::npos) << precision.err;
    const Outcome format = run("--format csv " + name);
    EXPECT_EQ(format.status, kUsage);
    const Outcome threads = run("--threads -2 " + name);
    EXPECT_EQ(threads.status, kUsage);
    // More threads than any host has: OpenMP crashed starting 100 000 of them.
    const Outcome too_many = run("--approx --samples 1000 --threads 100000 grid:4x4");
    EXPECT_EQ(too_many.status, kUsage) << too_many.err;
    EXPECT_EQ(std::count(too_many.err.begin(), too_many.err.end(), '\n'), 1) << too_many.err;
    const Outcome no_input = run("");
    EXPECT_EQ(no_input.status, kUsage);
    EXPECT_NE(no_input.err.find("missing input file"), std::string::npos) << no_input.err;
    const Outcome both = run("--cycle-covers --permanent " + name);
    EXPECT_EQ(both.status, kUsage);
    const Outcome gpu = run("--gpus -1 " + name);
    EXPECT_EQ(gpu.status, kUsage);
    // Each usage error is one line that names the option and what is wrong with the value.
    const std::pair<std::string, std::string> bad_values[] = {
        {"--threads -2", "count_matchings: --threads: '-2' is below 0 (see --help)\n"},
        {"--threads abc", "count_matchings: --threads: 'abc' is not a whole number (see --help)\n"},
        {"--samples 1.5", "count_matchings: --samples: '1.5' is not a whole number (see --help)\n"},
        {"--max-time -1", "count_matchings: --max-time: '-1' is below 0 (see --help)\n"},
        {"--time soon", "count_matchings: --time: 'soon' is not a number (see --help)\n"},
        {"--scale-every 0", "count_matchings: --scale-every: '0' is below 1 (see --help)\n"},
        {"--max-memory 2X",
         "count_matchings: --max-memory: '2X' is not a size (e.g. 2G, 500M, 0 for no limit) (see "
         "--help)\n"},
        {"--frobnicate",
         "count_matchings: The following argument was not expected: --frobnicate (see --help)\n"}};
    for (const auto& [args, message] : bad_values) {
        const Outcome r = run(args + " " + name);
        EXPECT_EQ(r.status, kUsage) << args;
        EXPECT_EQ(r.err, message) << args;
    }
}

TEST_F(CountMatchingsCli, GpuListTakesOneArgumentAndLeavesTheInputFile) {
    // `--gpus 0 FILE` and `--gpus 0,1 FILE`: the list never swallows the file name (the CPU
    // backend ignores the list, so this runs without a GPU).
    const std::string name = write("g.txt", kFourCycle);
    for (const char* list : {"0", "0,1"}) {
        const Outcome r = run(std::string("--backend cpu --gpus ") + list + " " + name);
        EXPECT_EQ(r.status, kOk) << r.err;
        EXPECT_EQ(r.out, "2\n");
    }
}

TEST_F(CountMatchingsCli, MissingFileExitsTwo) {
    const Outcome r = run("no_such_file.txt");
    EXPECT_EQ(r.status, kInputError);
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(r.err, "error: no_such_file.txt: cannot open file: No such file or directory\n");
}

TEST_F(CountMatchingsCli, DirectoryIsNotAnInputFile) {
    fs::create_directory(dir_ / "sub");
    const Outcome r = run("sub");
    EXPECT_EQ(r.status, kInputError);
    EXPECT_EQ(r.err, "error: sub: is a directory, not a file\n");
}

TEST_F(CountMatchingsCli, VersionAndHelpExitZero) {
    const Outcome version = run("--version");
    EXPECT_EQ(version.status, kOk) << version.err;
    EXPECT_EQ(version.out.rfind("count_matchings (pmcount) ", 0), 0u) << version.out;
    const Outcome help = run("--help");
    EXPECT_EQ(help.status, kOk) << help.err;
    EXPECT_NE(help.out.find("--cycle-covers"), std::string::npos) << help.out;
    EXPECT_NE(help.out.find("Exit codes"), std::string::npos) << help.out;
}

TEST_F(CountMatchingsCli, OrderSeventyIsTooLargeAndFailsFast) {
    const std::string name = write("j70.mtx", all_ones_matrix_market(70));
    const auto start = std::chrono::steady_clock::now();
    const Outcome r = run(name);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_EQ(r.status, kRuntimeError) << r.err;
    EXPECT_EQ(r.out, "");
    EXPECT_NE(r.err.find("too large"), std::string::npos) << r.err;
    EXPECT_EQ(count_lines(r.err), 1u) << r.err;
    EXPECT_LT(seconds, 10.0);
}

TEST_F(CountMatchingsCli, ExactPrecisionOnARealMatrixIsAUsageError) {
    const std::string name =
        write("r.mtx", "%%MatrixMarket matrix coordinate real general\n1 1 1\n1 1 0.5\n");
    const Outcome r = run("--precision exact " + name);
    EXPECT_EQ(r.status, kUsage) << r.err;
    EXPECT_EQ(r.out, "");
    EXPECT_NE(r.err.find("exact arithmetic needs integer entries"), std::string::npos) << r.err;
    const Outcome fine = run("--precision double " + name);
    EXPECT_EQ(fine.status, kOk) << fine.err;
    EXPECT_EQ(fine.out, "0.5\n");
}

TEST_F(CountMatchingsCli, CancellationMakesTheDefaultPrecisionCountAgainAndSaySo) {
    // perm = 1·(−0.999999999999) + 1·1 = 1.000088900582341e-12 (the double nearest
    // 0.999999999999 is 1 − 1.000088900582341e-12): the terms are 10^12 times the result.
    const std::string name = write("c.mtx",
                                   "%%MatrixMarket matrix coordinate real general\n2 2 4\n"
                                   "1 1 1\n1 2 1\n2 1 1\n2 2 -0.999999999999\n");
    const Outcome r = run("--json " + name);
    ASSERT_EQ(r.status, kOk) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["escalated_from"], "double");
    EXPECT_EQ(j["error_kind"], "bound");
    EXPECT_NE(j["note"].get<std::string>().find("cancellation"), std::string::npos);
    EXPECT_LE(std::fabs(std::stod(j["value"].get<std::string>()) - 1.000088900582341e-12),
              j["abs_error"].get<double>());
    const Outcome plain = run("--json --precision double " + name);
    ASSERT_EQ(plain.status, kOk) << plain.err;
    const auto p = nlohmann::json::parse(plain.out);
    EXPECT_TRUE(p["escalated_from"].is_null());
    EXPECT_EQ(p["error_kind"], "estimate");
    const Outcome text = run(name);
    EXPECT_NE(text.err.find("note: cancellation"), std::string::npos) << text.err;
    // A hafnian's figure is its running error: haf = 1·1 + 1·1 + 1·(−1.999999999999) cancels
    // to the same 1.000088900582341e-12, but double computes it without a rounding (2 − x is
    // exact here), the figure says so, and nothing is counted again. (Hafnians that do lose
    // digits are counted again: exact_test HafnianFigure.TheDefaultPrecisionCountsAgain…)
    const std::string h = write("h.mtx",
                                "%%MatrixMarket matrix coordinate real symmetric\n4 4 6\n"
                                "2 1 1\n3 1 1\n4 1 1\n4 3 1\n4 2 1\n3 2 -1.999999999999\n");
    const Outcome hr = run("--json --hafnian " + h);
    ASSERT_EQ(hr.status, kOk) << hr.err;
    const auto hj = nlohmann::json::parse(hr.out);
    EXPECT_TRUE(hj["escalated_from"].is_null());
    EXPECT_EQ(hj["error_kind"], "estimate");
    EXPECT_EQ(std::stod(hj["value"].get<std::string>()), 1.000088900582341e-12);
    EXPECT_LT(hj["abs_error"].get<double>(), 1e-27);
}

TEST_F(CountMatchingsCli, QuietPrintsOnlyTheValue) {
    // A repeated edge would otherwise print a warning.
    const Outcome r = run("--quiet " + write("g.txt", "0 1\n1 2\n2 3\n3 0\n0 1\n"));
    EXPECT_EQ(r.status, kOk);
    EXPECT_EQ(r.out, "2\n");
    EXPECT_EQ(r.err, "");
    const Outcome loud = run("g.txt");
    EXPECT_NE(loud.err.find("warning: g.txt: merged 1 repeated edge(s)"), std::string::npos)
        << loud.err;
    const Outcome zero = run("-q " + write("path.txt", "0 1\n1 2\n"));
    EXPECT_EQ(zero.out, "0\n");
    EXPECT_EQ(zero.err, "");
}

TEST_F(CountMatchingsCli, SumDuplicatesAndPerfectMatchingsOptions) {
    const std::string name = write("w.txt", "# bipartite 1 1\n0 0 2\n0 0 3\n");
    const Outcome rejected = run(name);
    EXPECT_EQ(rejected.status, kInputError);
    EXPECT_NE(rejected.err.find("--sum-duplicates"), std::string::npos) << rejected.err;
    const Outcome summed = run("--sum-duplicates " + name);
    EXPECT_EQ(summed.status, kOk) << summed.err;
    EXPECT_EQ(summed.out, "5\n");
    const Outcome pattern = run("--perfect-matchings " + name);
    EXPECT_EQ(pattern.status, kOk) << pattern.err;
    EXPECT_EQ(pattern.out, "1\n");
}

}  // namespace

namespace {

/// A 0-1 matrix in Matrix Market with two 3×3 all-ones diagonal blocks and the block above them
/// filled (those 9 entries lie in no perfect matching): 3!·3! = 36.
std::string two_block_matrix_market() {
    std::string text = "%%MatrixMarket matrix coordinate pattern general\n6 6 27\n";
    for (int i = 1; i <= 6; ++i) {
        for (int j = 1; j <= 6; ++j) {
            if ((i <= 3) || (j >= 4)) {
                text += std::to_string(i) + " " + std::to_string(j) + "\n";
            }
        }
    }
    return text;
}

TEST_F(CountMatchingsCli, ExplainPrintsThePlanWithoutCounting) {
    const Outcome r = run("--explain " + write("b.mtx", two_block_matrix_market()));
    EXPECT_EQ(r.status, kOk) << r.err;
    EXPECT_NE(r.out.find("fine Dulmage–Mendelsohn blocks: 2"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("entries in no perfect matching: 9"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("predicted total"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("\n36\n"), std::string::npos) << "explain must not count";
}

TEST_F(CountMatchingsCli, SmallCountsSkipTheMachineSpeedProbe) {
    // The probe (40–60 ms of dense Ryser) runs only for plans predicted at 10 ms or more: the
    // 8×8 grid's 0.4 ms count is planned without it, order 26's seconds with it.
    for (const auto& [spec, measured] :
         {std::pair{"grid:8x8", false}, std::pair{"random:26,0.5,1 --backend cpu", true}}) {
        const Outcome r = run(std::string("--json --explain ") + spec);
        ASSERT_EQ(r.status, kOk) << r.err;
        const auto j = nlohmann::json::parse(r.out);
        EXPECT_EQ(j["structure"]["machine_speed_measured"], measured) << spec;
    }
}

TEST_F(CountMatchingsCli, JsonCarriesTheBlockStructure) {
    const Outcome r = run("--json " + write("b.mtx", two_block_matrix_market()));
    ASSERT_EQ(r.status, kOk) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["value"], "36");
    EXPECT_EQ(j["structure"]["blocks"], nlohmann::json::array({3, 3}));
    EXPECT_EQ(j["structure"]["dropped_entries"], 9);
    EXPECT_EQ(j["structure"]["matching_size"], 6);
    EXPECT_TRUE(j["structure"]["leaves"].is_array());
    EXPECT_FALSE(j["structure"]["plan"].get<std::string>().empty());
    // Switched off, the same count comes from one 6×6 Ryser leaf.
    const Outcome off = run("--json --no-dm --no-reduce b.mtx");
    const auto k = nlohmann::json::parse(off.out);
    EXPECT_EQ(k["value"], "36");
    EXPECT_EQ(k["structure"]["leaves"].size(), 1u);
    EXPECT_EQ(k["structure"]["leaves"][0]["order"], 6);
    EXPECT_EQ(k["structure"]["dulmage_mendelsohn"], false);
}

TEST_F(CountMatchingsCli, NoPerfectMatchingPrintsAHallWitnessInFileIds) {
    // Vertices 10 and 12 (one colour class) both reach only vertex 11.
    const Outcome r = run(write("g.txt", "10 11\n12 11\n13 14\n13 15\n"));
    EXPECT_EQ(r.status, kOk) << r.err;
    EXPECT_EQ(r.out, "0\n");
    EXPECT_NE(r.err.find("Hall"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("witness: rows {10, 12} have only the 1 neighbour(s) {11}"),
              std::string::npos)
        << r.err;
    const Outcome j = run("--json g.txt");
    const auto json = nlohmann::json::parse(j.out);
    EXPECT_EQ(json["structure"]["hall_violator"]["rows"], nlohmann::json::array({10, 12}));
}

TEST_F(CountMatchingsCli, DotFileShowsBlocksAndDroppedEdges) {
    const Outcome r = run("--dot dm.dot " + write("b.mtx", two_block_matrix_market()));
    EXPECT_EQ(r.status, kOk) << r.err;
    const std::string dot = read_file(dir_ / "dm.dot");
    EXPECT_NE(dot.find("cluster_block0"), std::string::npos) << dot;
    EXPECT_NE(dot.find("cluster_block1"), std::string::npos) << dot;
    EXPECT_EQ(static_cast<int>(std::count(dot.begin(), dot.end(), '\n')) > 20, true);
    EXPECT_NE(dot.find("style=dashed"), std::string::npos);
}

TEST_F(CountMatchingsCli, TimeLimitRefusesAHopelessPlan) {
    // 50×50 all ones with the front end off: 2^49 Gray steps, far over a 60 s limit.
    const Outcome r =
        run("--no-dm --no-reduce --max-time 60 " + write("j.mtx", all_ones_matrix_market(50)));
    EXPECT_EQ(r.status, kRuntimeError);
    EXPECT_NE(r.err.find("predicted to take"), std::string::npos) << r.err;
    EXPECT_EQ(count_lines(r.err), 1u) << r.err;
}

TEST_F(CountMatchingsCli, OptionsTakeTheLibrarysNamesAndTheOldOnesStillWork) {
    // --no-dulmage-mendelsohn, --no-reductions, --max-predicted-seconds and
    // --checkpoint-interval are CountOptions' names; --no-dm, --no-reduce, --max-time and
    // --checkpoint-every, their names before, still do the same.
    const std::string blocks = write("b.mtx", two_block_matrix_market());
    for (const char* flags : {"--no-dulmage-mendelsohn --no-reductions", "--no-dm --no-reduce"}) {
        const Outcome off = run(std::string("--json ") + flags + " b.mtx");
        EXPECT_EQ(off.status, kOk) << flags << ": " << off.err;
        const auto j = nlohmann::json::parse(off.out);
        EXPECT_EQ(j["value"], "36") << flags;
        EXPECT_EQ(j["structure"]["dulmage_mendelsohn"], false) << flags;
        EXPECT_EQ(j["structure"]["reductions_enabled"], false) << flags;
        EXPECT_EQ(j["structure"]["leaves"].size(), 1u) << flags;
    }
    const std::string ones = write("j.mtx", all_ones_matrix_market(50));
    for (const char* limit : {"--max-predicted-seconds 60", "--max-time 60"}) {
        const Outcome r = run(std::string("--no-dulmage-mendelsohn ") + limit + " j.mtx");
        EXPECT_EQ(r.status, kRuntimeError) << limit;
        EXPECT_NE(r.err.find("predicted to take"), std::string::npos) << limit << ": " << r.err;
    }
    EXPECT_EQ(run("--max-predicted-seconds -1 b.mtx").err,
              "count_matchings: --max-predicted-seconds: '-1' is below 0 (see --help)\n");
    EXPECT_EQ(run("--checkpoint-interval x b.mtx").err,
              "count_matchings: --checkpoint-interval: 'x' is not a number (see --help)\n");
    for (const char* both : {"--max-time 5 --max-predicted-seconds 5",
                             "--checkpoint c --checkpoint-every 1 --checkpoint-interval 1"}) {
        const Outcome r = run(std::string(both) + " b.mtx");
        EXPECT_EQ(r.status, kUsage) << both;
        EXPECT_NE(r.err.find("excludes"), std::string::npos) << both << ": " << r.err;
    }
    for (const char* interval : {"--checkpoint-interval 0.5", "--checkpoint-every 0.5"}) {
        const Outcome r = run(std::string("-q --checkpoint c.ckpt ") + interval + " b.mtx");
        EXPECT_EQ(r.status, kOk) << interval << ": " << r.err;
        EXPECT_EQ(r.out, "36\n") << interval;
    }
    for (const char* exact_only :
         {"--no-dulmage-mendelsohn", "--no-reductions", "--max-predicted-seconds"}) {
        EXPECT_EQ(run(std::string("--approx ") + exact_only + (exact_only[2] == 'm' ? " 5" : "") +
                      " b.mtx")
                      .err,
                  "count_matchings: " + std::string(exact_only) +
                      " applies to exact counts, not to --approx (see --help)\n");
    }
    // --help lists the old names apart, each with its new one.
    const std::string help = run("--help").out;
    const std::size_t deprecated = help.find("Deprecated names");
    ASSERT_NE(deprecated, std::string::npos) << help;
    for (const char* old_and_new :
         {"--no-dm", "deprecated: --no-dulmage-mendelsohn", "--no-reduce",
          "deprecated: --no-reductions", "--max-time", "deprecated: --max-predicted-seconds",
          "--checkpoint-every", "deprecated: --checkpoint-interval"}) {
        EXPECT_NE(help.find(old_and_new, deprecated), std::string::npos) << old_and_new;
    }
}

TEST_F(CountMatchingsCli, ApproxJsonCarriesTheEstimateAndItsInterval) {
    // A budget of 4000 on n = 64 has room for 16 populations of 128 (of 250 at most): 32
    // populations, the last one whole (4096 samples).
    const Outcome r = run("--approx --json --samples 4000 --seed 3 grid:8x8");
    ASSERT_EQ(r.status, kOk) << r.err;
    const nlohmann::json j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["estimator"], "scaling+");
    EXPECT_EQ(j["particles"], 128);
    EXPECT_EQ(j["populations"], 32);
    EXPECT_EQ(j["samples"], 4096);
    for (const char* key :
         {"log10_value", "log10_ci_low", "log10_ci_high", "rel_std_error", "value"}) {
        ASSERT_TRUE(j[key].is_number()) << key << ": " << r.out;
    }
    const double truth = 12988816;  // domino tilings of the 8×8 board
    EXPECT_LE(std::abs(j["value"].get<double>() / truth - 1), 5 * j["rel_std_error"].get<double>());
    EXPECT_LT(j["log10_ci_low"].get<double>(), j["log10_value"].get<double>());
    EXPECT_GT(j["log10_ci_high"].get<double>(), j["log10_value"].get<double>());
}

TEST_F(CountMatchingsCli, ApproxExplainPrintsTheChoiceWithoutSampling) {
    // No flag on the 64×64 grid: 8 particles per row, a 1% or 120 s stop, and on the CPU the
    // speed pilot may halve P. It returns at once: nothing is sampled.
    const auto start = std::chrono::steady_clock::now();
    const Outcome text = run("--approx --explain --backend cpu grid:64x64");
    ASSERT_EQ(text.status, kOk) << text.err;
    EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 10);
    EXPECT_NE(text.out.find("populations of 16384 particles resampled every 16 steps"),
              std::string::npos)
        << text.out;
    EXPECT_NE(text.out.find("after 120 s"), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("speed pilot"), std::string::npos) << text.out;
    const Outcome json = run("--approx --explain --json --backend cpu grid:64x64");
    ASSERT_EQ(json.status, kOk) << json.err;
    const nlohmann::json j = nlohmann::json::parse(json.out);
    EXPECT_EQ(j["particles"], 16384);
    EXPECT_EQ(j["explain_only"], true);
    EXPECT_EQ(j["time_pilot"], true);
    EXPECT_EQ(j["stop_time_s"], 120);
    // A sample budget: 16 populations of 256, nothing timed; --particles 1: independent samples.
    const nlohmann::json budget =
        nlohmann::json::parse(run("--approx --explain --json --samples 4096 grid:64x64").out);
    EXPECT_EQ(budget["particles"], 256);
    EXPECT_EQ(budget["time_pilot"], false);
    const Outcome independent = run("--approx --explain --particles 1 grid:64x64");
    EXPECT_NE(independent.out.find("independent samples"), std::string::npos) << independent.out;
    // The estimate itself says why it drew what it drew.
    const nlohmann::json drawn =
        nlohmann::json::parse(run("--approx --json --samples 4096 --seed 1 grid:16x16").out);
    EXPECT_EQ(drawn["particles_reason"],
              "automatic: the sample budget allows 16 populations of 256");
}

TEST_F(CountMatchingsCli, ApproxPopulationsReportParticlesAndPopulations) {
    const Outcome r =
        run("--approx --json --particles 16 --resample-every 4 --samples 3200 --seed 2 grid:8x8");
    ASSERT_EQ(r.status, kOk) << r.err;
    const nlohmann::json j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["particles"], 16);
    EXPECT_EQ(j["populations"], 200);
    EXPECT_EQ(j["samples"], 3200);
    const double truth = 12988816;
    EXPECT_LE(std::abs(j["value"].get<double>() / truth - 1), 5 * j["rel_std_error"].get<double>());
    const Outcome bad = run("--approx --resample-every -1 grid:4x4");
    EXPECT_EQ(bad.status, kUsage);
    EXPECT_NE(bad.err.find("--resample-every"), std::string::npos) << bad.err;
    // The potential's exponent reaches the sampler (exponent 0: plain weights, another draw).
    const Outcome plain =
        run("--approx --json --particles 16 --resample-every 4 --samples 3200 --seed 2 "
            "--potential-exponent 0 grid:8x8");
    ASSERT_EQ(plain.status, kOk) << plain.err;
    EXPECT_NE(nlohmann::json::parse(plain.out)["log10_value"], j["log10_value"]);
    const Outcome negative = run("--approx --particles 16 --potential-exponent -1 grid:4x4");
    EXPECT_EQ(negative.status, kUsage);
    EXPECT_NE(negative.err.find("--potential-exponent"), std::string::npos) << negative.err;
}

TEST_F(CountMatchingsCli, ApproxIsReproducibleAndChecksTheEstimatorName) {
    const std::string args = "--estimator rasmussen+ --samples 3000 --seed 11 -q grid:6x6";
    const Outcome first = run(args), second = run(args);
    ASSERT_EQ(first.status, kOk) << first.err;
    EXPECT_EQ(first.out, second.out);
    EXPECT_EQ(run("--estimator ryser grid:4x4").status, kUsage);
}

TEST_F(CountMatchingsCli, ApproxRejectsSignedAndComplexMatricesNamingTheEntry) {
    const std::string header = "%%MatrixMarket matrix coordinate real general\n";
    const std::string signed_name =
        write("signed.mtx", header + "2 2 4\n1 1 0.5\n1 2 -1.5\n2 1 1\n2 2 1\n");
    const Outcome negative = run("--approx --samples 100 " + signed_name);
    EXPECT_EQ(negative.status, kInputError);
    EXPECT_EQ(negative.err,
              "error: signed.mtx: the estimators need nonnegative finite entries; the entry at "
              "row 1, column 2 is -1.5\n");
    const std::string complex_name =
        write("complex.mtx",
              "%%MatrixMarket matrix coordinate complex general\n2 2 2\n1 1 1 1\n2 2 1 0\n");
    const Outcome complex = run("--approx --samples 100 " + complex_name);
    EXPECT_EQ(complex.status, kInputError);
    EXPECT_EQ(complex.err,
              "error: complex.mtx: the estimators need a nonnegative matrix, not a complex one\n");
}

TEST_F(CountMatchingsCli, PermanentBeyondDoubleRangeIsPrintedInDecimal) {
    const std::string header = "%%MatrixMarket matrix coordinate real general\n2 2 4\n";
    const std::string big =
        write("big.mtx", header + "1 1 1e200\n1 2 1e200\n2 1 1e200\n2 2 1.5e200\n");
    const Outcome r = run("-q " + big);
    EXPECT_EQ(r.status, kOk) << r.err;
    EXPECT_EQ(r.out, "2.4999999999999997e+400\n");  // the double inputs, exactly
    const std::string tiny =
        write("tiny.mtx", header + "1 1 1e-200\n1 2 1e-200\n2 1 1e-200\n2 2 1.5e-200\n");
    EXPECT_EQ(run("-q " + tiny).out, "2.4999999999999999e-400\n");
}

TEST_F(CountMatchingsCli, UnderflowingValuesAreRefusedNotCountedAsExactZero) {
    // 1e-400 read as 0 once made the real file "every value is an integer" and printed an exact
    // 0. Now: one line naming file:line, exit 2, in both readers.
    const std::string mtx = write("under.mtx",
                                  "%%MatrixMarket matrix coordinate real general\n2 2 4\n"
                                  "1 1 1\n1 2 1e-400\n2 1 1\n2 2 0\n");
    const Outcome m = run(mtx);
    EXPECT_EQ(m.status, kInputError) << m.err;
    EXPECT_EQ(m.out, "");
    EXPECT_EQ(m.err,
              "error: under.mtx:4: value '1e-400' underflows the double range (a nonzero value "
              "that reads as 0; scale the matrix)\n");
    const Outcome e = run(write("under.txt", "# bipartite 2 2\n0 0 1\n0 1 1e-400\n1 0 1\n"));
    EXPECT_EQ(e.status, kInputError) << e.err;
    EXPECT_EQ(e.err.rfind("error: under.txt:3: weight '1e-400' underflows the double range", 0), 0U)
        << e.err;
    const Outcome over = run(write("over.txt", "# bipartite 1 1\n0 0 1e400\n"));
    EXPECT_EQ(over.status, kInputError);
    EXPECT_EQ(over.err, "error: over.txt:2: weight '1e400' is infinite or beyond double range\n");
}

TEST_F(CountMatchingsCli, BigIntegerWeightsAreReadAsRealsInEveryReader) {
    // The same token, 10^30, in an edge list and in an integer Matrix Market file: read as a
    // real (it was "does not fit in 64 bits" in the edge list), with a warning, as a real file
    // reads it.
    const std::string big = "1000000000000000000000000000000";
    const Outcome e = run(write("big.txt", "# bipartite 1 1\n0 0 " + big + "\n"));
    const std::string entry = "1 1 1\n1 1 " + big + "\n";
    const Outcome m =
        run(write("big.mtx", "%%MatrixMarket matrix coordinate integer general\n" + entry));
    const Outcome real =
        run("-q " + write("real.mtx", "%%MatrixMarket matrix coordinate real general\n" + entry));
    EXPECT_EQ(real.out, "1e+30\n") << real.err;
    for (const auto& [r, where] : {std::pair{e, "big.txt:2"}, std::pair{m, "big.mtx:3"}}) {
        EXPECT_EQ(r.status, kOk) << r.err;
        EXPECT_EQ(r.out, real.out);
        EXPECT_NE(r.err.find("(1×1, 1 entries, real)"), std::string::npos) << r.err;
        EXPECT_NE(r.err.find(std::string("warning: ") + where + ": value '" + big +
                             "' is beyond 64-bit integers: every value is read as a real"),
                  std::string::npos)
            << r.err;
    }
}

TEST_F(CountMatchingsCli, EndlessOrBinaryStreamsAreRefusedNotReadToExhaustion) {
    // /dev/zero has no end and no newline: refused at 16 MiB on its first line.
    const Outcome zero = run("/dev/zero");
    EXPECT_EQ(zero.status, kInputError);
    EXPECT_EQ(zero.err,
              "error: /dev/zero:1: line longer than 16 MiB: not a graph or matrix file\n");
    // The same through standard input, as text (no NUL bytes).
    const std::string name = write("long.txt", std::string((std::size_t{1} << 24) + 10, '1'));
    const Outcome long_line = run("-", name);
    EXPECT_EQ(long_line.status, kInputError);
    EXPECT_EQ(long_line.err,
              "error: <stdin>:1: line longer than 16 MiB: not a graph or matrix file\n");
}

TEST_F(CountMatchingsCli, CycleCoversOfAnUndirectedGraphUseBothArcsOfEachEdge) {
    // K4 as an undirected file: its cycle covers are perm(J − I) = 9 derangements.
    const std::string k4 = write("k4.txt", "# undirected 4\n0 1\n0 2\n0 3\n1 2\n1 3\n2 3\n");
    const Outcome r = run("--cycle-covers " + k4);
    EXPECT_EQ(r.status, kOk) << r.err;
    EXPECT_EQ(r.out, "9\n");
    // As a graph it is not bipartite: its perfect matchings, 3.
    const Outcome matchings = run("-q " + k4);
    EXPECT_EQ(matchings.status, kOk) << matchings.err;
    EXPECT_EQ(matchings.out, "3\n");
}

TEST_F(CountMatchingsCli, GeneralGraphsAreCountedNotRefused) {
    // The Petersen graph has 6 perfect matchings; K_6 has 5!! = 15.
    std::string petersen;
    for (int i = 0; i < 5; ++i) {
        petersen += std::to_string(i) + " " + std::to_string((i + 1) % 5) + "\n" +
                    std::to_string(i) + " " + std::to_string(i + 5) + "\n" + std::to_string(5 + i) +
                    " " + std::to_string(5 + (i + 2) % 5) + "\n";
    }
    const Outcome r = run(write("petersen.txt", petersen));
    EXPECT_EQ(r.status, kOk) << r.err;
    EXPECT_EQ(r.out, "6\n");
    EXPECT_NE(
        r.err.find("perfect matchings of petersen.txt (10 vertices, 15 edges, binary): exact"),
        std::string::npos)
        << r.err;
    std::string k6;
    for (int u = 0; u < 6; ++u) {
        for (int v = u + 1; v < 6; ++v) {
            k6 += std::to_string(u) + " " + std::to_string(v) + "\n";
        }
    }
    EXPECT_EQ(run("-q " + write("k6.txt", k6)).out, "15\n");
    // Every engine that takes a general graph gives the same count; K_6 is not planar, K_4 is.
    for (const char* method : {"hafnian", "brute-force"}) {
        const Outcome forced = run(std::string("-q --method ") + method + " --no-reduce k6.txt");
        EXPECT_EQ(forced.status, kOk) << method << ": " << forced.err;
        EXPECT_EQ(forced.out, "15\n") << method;
    }
    const Outcome not_planar = run("-q --method planar --no-reduce k6.txt");
    EXPECT_EQ(not_planar.status, kRuntimeError);
    EXPECT_NE(not_planar.err.find("the graph is not planar"), std::string::npos) << not_planar.err;
    const std::string k4 = write("k4.txt", "0 1\n0 2\n0 3\n1 2\n1 3\n2 3\n");
    EXPECT_EQ(run("-q --method planar --no-reduce " + k4).out, "3\n");
    // --general takes a bipartite graph through the same path: the 4×4 grid has 36 tilings.
    std::string grid;
    for (int row = 0; row < 4; ++row) {
        for (int col = 0; col < 4; ++col) {
            const int v = 4 * row + col;
            if (col + 1 < 4) {
                grid += std::to_string(v) + " " + std::to_string(v + 1) + "\n";
            }
            if (row + 1 < 4) {
                grid += std::to_string(v) + " " + std::to_string(v + 4) + "\n";
            }
        }
    }
    const std::string grid_file = write("grid.txt", grid);
    EXPECT_EQ(run("-q " + grid_file).out, "36\n");
    const Outcome general = run("--json --general " + grid_file);
    ASSERT_EQ(general.status, kOk) << general.err;
    const auto json = nlohmann::json::parse(general.out);
    EXPECT_EQ(json["value"], "36");
    EXPECT_TRUE(json["structure"]["general"].get<bool>());
}

TEST_F(CountMatchingsCli, OddVerticesAndTutteSetsGiveZeroWithAWitness) {
    const Outcome odd = run(write("triangle.txt", "0 1\n1 2\n2 0\n"));
    EXPECT_EQ(odd.status, kOk) << odd.err;
    EXPECT_EQ(odd.out, "0\n");
    EXPECT_NE(odd.err.find("note: an odd number of vertices (3) has no perfect matching"),
              std::string::npos)
        << odd.err;
    // Vertex 70 joined to three triangles: removing it leaves three odd components.
    const std::string hub =
        write("hub.txt", "70 1\n70 4\n70 7\n1 2\n2 3\n3 1\n4 5\n5 6\n6 4\n7 8\n8 9\n9 7\n");
    const Outcome r = run(hub);
    EXPECT_EQ(r.status, kOk) << r.err;
    EXPECT_EQ(r.out, "0\n");
    EXPECT_NE(r.err.find("witness: the Tutte set {70} (1 vertices) leaves 3 odd components"),
              std::string::npos)
        << r.err;
    const auto json = nlohmann::json::parse(run("--json " + hub).out);
    EXPECT_EQ(json["structure"]["tutte_set"]["vertices"], nlohmann::json::array({70}));
    EXPECT_EQ(json["structure"]["tutte_set"]["odd_components"], 3);
}

TEST_F(CountMatchingsCli, HafnianOfASymmetricMatrixAndItsInputErrors) {
    // haf of the all-twos 4×4 matrix (diagonal ignored): 3 matchings of weight 4.
    const std::string mm = write("twos.mtx",
                                 "%%MatrixMarket matrix coordinate integer symmetric\n4 4 7\n"
                                 "1 1 9\n2 1 2\n3 1 2\n4 1 2\n3 2 2\n4 2 2\n4 3 2\n");
    const Outcome r = run("--hafnian " + mm);
    EXPECT_EQ(r.status, kOk) << r.err;
    EXPECT_EQ(r.out, "12\n");
    EXPECT_NE(r.err.find("warning: twos.mtx:3: 1 nonzero diagonal entry ignored"),
              std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find("hafnian of twos.mtx (4×4 symmetric, 12 entries, integer)"),
              std::string::npos)
        << r.err;
    // Without --hafnian the same file is a permanent.
    EXPECT_EQ(run("-q " + mm).out, "288\n");
    const Outcome asymmetric =
        run("--hafnian " + write("a.mtx",
                                 "%%MatrixMarket matrix coordinate integer general\n2 2 2\n"
                                 "1 2 3\n2 1 4\n"));
    EXPECT_EQ(asymmetric.status, kInputError);
    EXPECT_EQ(asymmetric.err,
              "error: a.mtx:3: not symmetric: entry (1, 2) is 3 but its mirror (2, 1) on line 4 "
              "is 4; a hafnian needs a symmetric matrix\n");
    const Outcome odd =
        run("--hafnian " + write("odd.mtx",
                                 "%%MatrixMarket matrix coordinate real symmetric\n3 3 2\n"
                                 "2 1 0.5\n3 2 0.25\n"));
    EXPECT_EQ(odd.status, kOk) << odd.err;
    EXPECT_EQ(odd.out, "0\n");
    EXPECT_NE(odd.err.find("odd number of vertices (3)"), std::string::npos) << odd.err;
    const Outcome cycle = run("--hafnian --cycle-covers " + mm);
    EXPECT_EQ(cycle.status, kUsage);
}

// A dense Ryser count of a few seconds on one CPU thread (pinned to the CPU: on a GPU it would
// end before the signal), checkpointed every 0.1 s.
const char* const kLongRun =
    "--backend cpu --method ryser --threads 1 --checkpoint-every 0.1 random:30,0.5,7";

TEST_F(CountMatchingsCli, SigintWritesTheCheckpointExits130AndResumeFinishesTheCount) {
    const std::string truth = run("-q random:30,0.5,7").out;  // SkipPer: fast
    ASSERT_EQ(truth, "332027199887151024260024\n");
    const Outcome stopped =
        run_and_signal(std::string(kLongRun) + " --checkpoint c.ckpt", "c.ckpt", "INT");
    EXPECT_EQ(stopped.status, 130) << stopped.err;
    EXPECT_EQ(stopped.out, "");
    EXPECT_NE(stopped.err.find("checkpoint written to c.ckpt (resume with --resume)"),
              std::string::npos)
        << stopped.err;
    const Outcome resumed = run(std::string(kLongRun) + " --json --checkpoint c.ckpt --resume");
    ASSERT_EQ(resumed.status, kOk) << resumed.err;
    const auto json = nlohmann::json::parse(resumed.out);
    EXPECT_EQ(json["value"].get<std::string>() + "\n", truth);
    EXPECT_GT(json["resumed_chunks"].get<int>(), 0);
    EXPECT_LT(json["resumed_chunks"].get<int>(), 1024);
}

TEST_F(CountMatchingsCli, SigintInEveryPhaseExits130Promptly) {
    // Each run below takes many seconds here; SIGINT arrives in the phase named (on a much
    // faster machine perhaps in the next one, which must honour it alike). Every phase checks
    // at least every 0.1 s (a sample or a population's stage of these sizes takes up to a
    // second): 5 s from the signal to the exit is generous for a loaded CI machine.
    const std::pair<const char*, const char*> phases[] = {
        {"regular:4096,1024", "0.3"},                                // generating (2 s)
        {"--explain grid:500x500", "1.5"},                           // planning (15 s)
        {"--approx --backend cpu --samples 100 grid:600x600", "1"},  // estimator set-up
        {"--approx --backend cpu --particles 1 --samples 100000 grid:150x150", "4"},  // sampling
    };
    for (const auto& [args, delay] : phases) {
        const Outcome r = shell(quoted(PMCOUNT_COUNT_MATCHINGS) + " " + args +
                                " < /dev/null > stdout.txt 2> stderr.txt & pid=$!; sleep " + delay +
                                "; kill -INT $pid; t0=$(date +%s%N); wait $pid; rc=$?; "
                                "echo $(( ($(date +%s%N) - t0) / 1000000 )) > ms.txt; exit $rc");
        EXPECT_EQ(r.status, 130) << args << ": " << r.err;
        EXPECT_EQ(r.out, "") << args;
        // The handler's line, then the one-line reason (a signal that killed the process
        // before its handler was installed would leave neither).
        EXPECT_NE(r.err.find("count_matchings: interrupted "), std::string::npos)
            << args << ": " << r.err;
        EXPECT_LT(std::stoi(read_file(dir_ / "ms.txt")), 5000) << args;
    }
}

TEST_F(CountMatchingsCli, MaxMemoryRefusesWhatItPredictsPastTheLimitInOneLine) {
    const Outcome planning = run("--explain --max-memory 1M grid:100x100");
    EXPECT_EQ(planning.status, kRuntimeError);
    EXPECT_EQ(planning.err,
              "error: planning needs ~21.1 MiB (10000 vertices, 19800 entries); the memory limit "
              "(--max-memory) is 1 MiB\n");
    // The estimator's populations (it used to grow to 4.4 GB, deaf to the first SIGINT): refused
    // under the default limit, half of the physical memory, at once.
    const Outcome populations = run("--approx --particles 1073741824 --samples 10 grid:4x4");
    EXPECT_EQ(populations.status, kRuntimeError);
    EXPECT_EQ(count_lines(populations.err), 1u) << populations.err;
    EXPECT_EQ(populations.err.rfind("error: the estimator's populations need ~", 0), 0u)
        << populations.err;
    for (const char* size : {"0", "1.5GiB", "64M", "100000000"}) {
        const Outcome r = run(std::string("-q --max-memory ") + size + " grid:4x4");
        EXPECT_EQ(r.status, kOk) << size << ": " << r.err;
        EXPECT_EQ(r.out, "36\n") << size;
    }
    const Outcome help = run("--help");
    EXPECT_NE(help.out.find("--max-memory"), std::string::npos);
    EXPECT_NE(help.out.find("130 interrupted (SIGINT or SIGTERM"), std::string::npos) << help.out;
}

TEST_F(CountMatchingsCli, ARunKilledWithSigkillResumesToTheSameCount) {
    const Outcome killed =
        run_and_signal(std::string(kLongRun) + " --checkpoint k.ckpt", "k.ckpt", "KILL");
    EXPECT_NE(killed.status, kOk);
    EXPECT_EQ(killed.out, "");
    const Outcome resumed = run(std::string(kLongRun) + " --json --checkpoint k.ckpt --resume");
    ASSERT_EQ(resumed.status, kOk) << resumed.err;
    const auto json = nlohmann::json::parse(resumed.out);
    EXPECT_EQ(json["value"], "332027199887151024260024");
    EXPECT_GT(json["resumed_chunks"].get<int>(), 0);
}

// An estimate of about 2.5 s on one CPU thread with a sample budget.
const char* const kLongEstimate =
    "--approx --particles 1 --backend cpu --threads 1 --samples 60000 --seed 5 "
    "--checkpoint-every 0.1 grid:12x12";

TEST_F(CountMatchingsCli, AnEstimateStoppedBySigintResumesToTheUninterruptedEstimate) {
    const Outcome whole = run(std::string(kLongEstimate) + " --json");
    ASSERT_EQ(whole.status, kOk) << whole.err;
    const auto truth = nlohmann::json::parse(whole.out);
    const Outcome stopped =
        run_and_signal(std::string(kLongEstimate) + " --checkpoint e.ckpt", "e.ckpt", "INT");
    EXPECT_EQ(stopped.status, 130) << stopped.err;
    EXPECT_EQ(stopped.out, "");
    EXPECT_NE(stopped.err.find("samples; checkpoint written to e.ckpt (resume with --resume)"),
              std::string::npos)
        << stopped.err;
    const Outcome resumed =
        run(std::string(kLongEstimate) + " --json --checkpoint e.ckpt --resume");
    ASSERT_EQ(resumed.status, kOk) << resumed.err;
    const auto json = nlohmann::json::parse(resumed.out);
    // The same samples in the same order: the same double, and the same interval.
    EXPECT_EQ(json["log10_value"].get<double>(), truth["log10_value"].get<double>());
    EXPECT_EQ(json["log10_ci_low"].get<double>(), truth["log10_ci_low"].get<double>());
    EXPECT_EQ(json["samples"], 60000);
    EXPECT_GT(json["resumed_samples"].get<int>(), 0);
    EXPECT_LT(json["resumed_samples"].get<int>(), 60000);
    // A finished checkpoint with a smaller budget gives that budget's estimate, with a larger
    // one it draws on; another seed or a count is refused.
    const auto smaller = nlohmann::json::parse(
        run("--approx --particles 1 --backend cpu --threads 1 --samples 1000 --seed 5 --json "
            "grid:12x12")
            .out);
    const Outcome part =
        run("--approx --particles 1 --backend cpu --threads 1 --samples 1000 --seed 5 --json "
            "grid:12x12 --checkpoint e.ckpt --resume");
    ASSERT_EQ(part.status, kOk) << part.err;
    EXPECT_EQ(nlohmann::json::parse(part.out)["log10_value"].get<double>(),
              smaller["log10_value"].get<double>());
    const Outcome more =
        run("--approx --particles 1 --backend cpu --threads 1 --samples 61000 --seed 5 --json "
            "grid:12x12 --checkpoint e.ckpt --resume");
    ASSERT_EQ(more.status, kOk) << more.err;
    EXPECT_EQ(nlohmann::json::parse(more.out)["resumed_samples"], 60000);
    for (const std::string& other :
         {std::string("--approx --particles 1 --seed 6 --samples 100 grid:12x12"),
          std::string("grid:12x12"),
          std::string("--approx --seed 5 --samples 100 --particles 8 grid:12x12")}) {
        const Outcome r = run(other + " --backend cpu --checkpoint e.ckpt --resume");
        EXPECT_EQ(r.status, kInputError) << other;
        EXPECT_EQ(count_lines(r.err), 1U) << r.err;
        EXPECT_EQ(r.err.rfind("error: e.ckpt: cannot resume from it: ", 0), 0U) << r.err;
    }
}

TEST_F(CountMatchingsCli, AMismatchedOrDamagedCheckpointIsRefusedInOneLine) {
    ASSERT_EQ(run("--backend cpu --method ryser random:18,0.5,1 --checkpoint c.ckpt").status, kOk);
    const std::string good = read_file(dir_ / "c.ckpt");
    ASSERT_FALSE(good.empty());
    auto refusal = [&](const std::string& args) {
        const Outcome r = run(args + " --checkpoint c.ckpt --resume");
        EXPECT_EQ(r.status, kInputError) << args;
        EXPECT_EQ(r.out, "") << args;
        EXPECT_EQ(count_lines(r.err), 1U) << r.err;
        EXPECT_EQ(r.err.rfind("error: c.ckpt: cannot resume from it: ", 0), 0U) << r.err;
        return r.err;
    };
    EXPECT_NE(refusal("--backend cpu --method ryser random:18,0.5,2").find("another input"),
              std::string::npos);
    EXPECT_NE(refusal("--backend cpu --method sparyser random:18,0.5,1")
                  .find("another precision or engine"),
              std::string::npos);
    EXPECT_NE(refusal("--backend cpu --method ryser --precision double random:18,0.5,1")
                  .find("another precision or engine"),
              std::string::npos);
    write("c.ckpt", good.substr(0, good.size() / 2));
    EXPECT_NE(refusal("--backend cpu --method ryser random:18,0.5,1").find("truncated"),
              std::string::npos);
    std::string flipped = good;
    flipped[good.size() / 2] = static_cast<char>(flipped[good.size() / 2] ^ 1);
    write("c.ckpt", flipped);
    EXPECT_NE(refusal("--backend cpu --method ryser random:18,0.5,1").find("damaged"),
              std::string::npos);
    write("c.ckpt", kFourCycle);
    EXPECT_NE(refusal("--backend cpu --method ryser random:18,0.5,1").find("does not start with"),
              std::string::npos);
    fs::remove(dir_ / "c.ckpt");
    EXPECT_NE(refusal("--backend cpu --method ryser random:18,0.5,1").find("cannot be opened"),
              std::string::npos);
    // The intact file resumes.
    write("c.ckpt", good);
    const Outcome ok =
        run("-q --backend cpu --method ryser random:18,0.5,1 --checkpoint c.ckpt --resume");
    EXPECT_EQ(ok.status, kOk) << ok.err;
    EXPECT_EQ(ok.out, run("-q random:18,0.5,1").out);
    EXPECT_EQ(run("--resume random:18,0.5,1").status, kUsage);
}

// ---- Headers and size lines that declare far more than the file holds ------------------------
// `# undirected 67108864` and three edges once took 6.6 GB and 32 s to print 0, `# bipartite`
// with --hafnian ran out of memory, and Matrix Market size lines of 2^26 took up to 5.5 GB and
// 42 s. Every reading of such a file must answer 0 or refuse it in one line, at the cost of the
// file rather than of its header. The sides here are 2^24, the most a file may declare (more is
// refused in one line: edge_list_test, matrix_market_test).

/// What one such run may take: resident memory, and time on a loaded 2-core CI machine (an idle
/// one needs well under 0.1 s; before the readers kept only the vertices that occur, 2 to 66 s).
constexpr long kDeclaredSizeRss_mib = 500;
constexpr double kDeclaredSizeTime_s = 10;

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kAddressSanitizer = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kAddressSanitizer = true;
#else
constexpr bool kAddressSanitizer = false;
#endif
#else
constexpr bool kAddressSanitizer = false;
#endif

/// Largest resident memory of any program this test process has waited for, in MiB: Linux
/// folds each waited-for grandchild (count_matchings under sh and timeout) into its parent's.
long children_peak_rss_mib() {
    rusage usage{};
    getrusage(RUSAGE_CHILDREN, &usage);
    return usage.ru_maxrss / 1024;
}

struct DeclaredSizeCase {
    const char* name;
    std::string content;
    /// The note of a plain run; empty when every reading refuses the file.
    const char* witness;
    /// The readings that compute the permanent of a non-square matrix whose longer side alone
    /// has vertices no entry touches: zero lines, in no term; these readings answer 1.
    std::vector<std::string> rectangular = {};
};

/// Every reading flag on every case: the answer 0 (stdout "0", a JSON value of 0, or an
/// --approx --explain plan) or one line of error with status 2, within the memory and time
/// above. A 2 GiB address-space limit turns a regression into a quick failure instead of a
/// machine out of memory (not under AddressSanitizer, which reserves terabytes of addresses).
void expect_cheap_zero_or_refusal(
    const std::vector<DeclaredSizeCase>& cases,
    const std::function<Outcome(const std::string&, const std::string&)>& run_after) {
    const std::string limit = kAddressSanitizer ? "" : "ulimit -v 2097152";
    const std::vector<std::string> readings{
        "",       "--hafnian", "--cycle-covers", "--perfect-matchings", "--permanent",
        "--json", "--explain", "--approx",       "--approx --explain",  "--dot d.dot"};
    for (const DeclaredSizeCase& c : cases) {
        for (const std::string& reading : readings) {
            SCOPED_TRACE(std::string(c.name) + " " + reading);
            const auto start = std::chrono::steady_clock::now();
            const Outcome r = run_after(limit, reading + " " + c.name);
            const double seconds =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            EXPECT_LE(seconds, kDeclaredSizeTime_s);
            EXPECT_LE(children_peak_rss_mib(), kDeclaredSizeRss_mib);
            if (r.status == kInputError) {
                EXPECT_EQ(r.out, "");
                EXPECT_EQ(count_lines(r.err), 1U) << r.err;
                EXPECT_EQ(r.err.rfind(std::string("error: ") + c.name, 0), 0U) << r.err;
                if (reading.empty()) {
                    EXPECT_STREQ(c.witness, "") << r.err;
                }
                continue;
            }
            ASSERT_EQ(r.status, kOk) << r.err;
            if (std::find(c.rectangular.begin(), c.rectangular.end(), reading) !=
                c.rectangular.end()) {
                if (reading == "--json") {
                    EXPECT_EQ(nlohmann::json::parse(r.out)["value"], "1") << r.out;
                } else if (reading == "--explain") {
                    EXPECT_EQ(r.out.rfind("plan for permanent of ", 0), 0U) << r.out;
                } else {
                    EXPECT_EQ(r.out, "1\n") << r.err;
                    EXPECT_NE(r.err.find("note: the permanent of the "), std::string::npos)
                        << r.err;
                }
                continue;
            }
            if (reading == "--json") {
                EXPECT_EQ(nlohmann::json::parse(r.out)["value"], "0") << r.out;
            } else if (reading == "--approx --explain") {
                EXPECT_EQ(r.out.rfind("estimate of the ", 0), 0U) << r.out;
            } else {
                EXPECT_EQ(r.out, "0\n") << r.err;
                EXPECT_NE(r.err.find("note: "), std::string::npos) << r.err;
            }
            if (reading.empty()) {
                EXPECT_NE(r.err.find("note: " + std::string(c.witness) +
                                     ": no perfect matching, count is 0\n"),
                          std::string::npos)
                    << r.err;
            }
            if (reading == "--json") {
                EXPECT_EQ(r.err, "");
            }
        }
    }
}

TEST_F(CountMatchingsCli, EdgeListHeadersBeyondTheFileAnswerZeroCheaply) {
    const std::vector<DeclaredSizeCase> cases{
        {"bipartite.txt", "# bipartite 16777216 16777216\n0 1\n1 2\n2 0\n",
         "left vertex 3 has no edge"},
        {"weighted.txt", "# bipartite 16777216 16777216\n0 1 2.5\n1 2 3\n2 0 1\n",
         "left vertex 3 has no edge"},
        // Its permanent: the 3 columns' one injective map into the rows, 2 → 0, 0 → 1, 1 → 2.
        {"tall.txt",
         "# bipartite 16777216 3\n0 1\n1 2\n2 0\n",
         "left vertex 3 has no edge",
         {"--permanent"}},
        {"directed.txt", "# directed 16777216\n0 1\n1 2\n2 0\n", "vertex 3 has no edge"},
        {"triangle.txt", "# undirected 16777216\n0 1\n1 2\n2 0\n", "vertex 3 has no edge"},
        {"path.txt", "# undirected 16777216\n0 1\n1 2\n2 3\n", "vertex 4 has no edge"},
        {"hafnian.txt", "# undirected 16777216\n0 1 2\n1 2 3\n2 0 5\n", "vertex 3 has no edge"},
    };
    for (const DeclaredSizeCase& c : cases) {
        write(c.name, c.content);
    }
    expect_cheap_zero_or_refusal(
        cases, [this](const auto& setup, const auto& args) { return run_after(setup, args); });
    // The drawing is refused with the reason; a general reading names the side.
    const Outcome dot = run("--dot d.dot bipartite.txt");
    EXPECT_EQ(dot.err,
              "error: bipartite.txt: --dot would draw every declared vertex (16777216×16777216 "
              "for 3 entries); left vertex 3 has no edge, so the count is 0 (without --dot)\n");
    EXPECT_NE(run("--hafnian bipartite.txt")
                  .err.find("hafnian of bipartite.txt (33554432 vertices, 3 edges, binary)"),
              std::string::npos);
}

TEST_F(CountMatchingsCli, MatrixMarketSizeLinesBeyondTheFileAnswerZeroCheaply) {
    std::vector<DeclaredSizeCase> cases;
    std::vector<std::string> names;
    for (const std::string field : {"pattern", "integer", "real", "complex"}) {
        const std::string value = field == "pattern"   ? ""
                                  : field == "complex" ? " 1 -2"
                                  : field == "integer" ? " 3"
                                                       : " 2.5";
        for (const std::string storage : {"general", "symmetric"}) {
            // A 3-cycle on rows and columns 1, 2, 3 (symmetric storage: its lower triangle).
            const bool general = storage == "general";
            names.push_back(field + "_" + storage + ".mtx");
            cases.push_back({names.back().c_str(),
                             "%%MatrixMarket matrix coordinate " + field + " " + storage +
                                 "\n16777216 16777216 3\n" + (general ? "1 2" : "2 1") + value +
                                 "\n" + (general ? "2 3" : "3 2") + value + "\n3 1" + value + "\n",
                             "row 4 has no entry"});
        }
    }
    cases.push_back({"array.mtx",
                     "%%MatrixMarket matrix array real general\n16777216 16777216\n1\n2\n3\n", ""});
    cases.push_back({"array_symmetric.mtx",
                     "%%MatrixMarket matrix array integer symmetric\n8192 8192\n1\n2\n3\n", ""});
    // Weighted: read as a permanent, that of a matrix of no columns, 1 (the empty map).
    cases.push_back({"array_no_columns.mtx",
                     "%%MatrixMarket matrix array real general\n16777216 0\n",
                     "row 1 has no entry",
                     {"", "--permanent", "--json", "--explain", "--dot d.dot"}});
    cases.push_back({"many.mtx",
                     "%%MatrixMarket matrix coordinate pattern general\n16777216 16777216 "
                     "4000000000\n1 1\n",
                     ""});
    for (const DeclaredSizeCase& c : cases) {
        write(c.name, c.content);
    }
    expect_cheap_zero_or_refusal(
        cases, [this](const auto& setup, const auto& args) { return run_after(setup, args); });
    EXPECT_EQ(run("array.mtx").err,
              "error: array.mtx:2: truncated file: the size line implies 281474976710656 values, "
              "more than a file of 65 bytes can hold\n");
}

}  // namespace
