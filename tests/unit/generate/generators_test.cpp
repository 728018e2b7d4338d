// Generators: shapes, degrees, determinism, spec parsing, and counts against closed forms
// (Kasteleyn's grid formula, Aztec diamond, MacMahon's hexagon formula, n! for K_{n,n}).
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>
#include <thread>

#include "core/hash.hpp"
#include "pmcount/count.hpp"
#include "pmcount/error.hpp"
#include "pmcount/generate.hpp"
#include "support/lattice_counts.hpp"

namespace pmcount {
namespace {

std::string count_of(const BipartiteGraph& g) {
    return count_perfect_matchings(g).exact.to_string();
}

std::string str(const boost::multiprecision::cpp_int& v) {
    return v.str();
}

void expect_degrees(const BipartiteGraph& g, vertex_t degree) {
    for (vertex_t u = 0; u < g.n_left(); ++u) {
        EXPECT_EQ(g.right_neighbours(u).size(), static_cast<std::size_t>(degree)) << "left " << u;
    }
    for (vertex_t v = 0; v < g.n_right(); ++v) {
        EXPECT_EQ(g.left_neighbours(v).size(), static_cast<std::size_t>(degree)) << "right " << v;
    }
}

TEST(Generators, GridShapeAndCounts) {
    const BipartiteGraph g = grid_graph(3, 5);
    EXPECT_EQ(g.n_left(), 8);
    EXPECT_EQ(g.n_right(), 7);
    EXPECT_EQ(g.num_edges(), 3 * 4 + 2 * 5);
    EXPECT_EQ(g.duplicates_merged(), 0);
    EXPECT_EQ(count_of(grid_graph(3, 5)), "0");  // unequal sides
    for (int m = 1; m <= 6; ++m) {
        for (int n = m; n <= 6; ++n) {
            EXPECT_EQ(count_of(grid_graph(m, n)), str(test::kasteleyn_grid_exact(m, n)))
                << m << "x" << n;
        }
    }
    EXPECT_EQ(count_of(grid_graph(0, 4)), "1");  // the empty board has one (empty) tiling
}

TEST(Generators, KasteleynFormulaMatchesOeisA004003) {
    // A004003: domino tilings of the 2k×2k board, k = 1..6.
    const char* expected[] = {"2", "36", "6728", "12988816", "258584046368", "53060477521960000"};
    for (int k = 1; k <= 6; ++k) {
        EXPECT_EQ(str(test::kasteleyn_grid_exact(2 * k, 2 * k)), expected[k - 1]) << k;
    }
}

TEST(Generators, Torus) {
    const BipartiteGraph g = torus_graph(4, 6);
    EXPECT_EQ(g.n_left(), 12);
    EXPECT_EQ(g.num_edges(), 2 * 4 * 6);
    expect_degrees(g, 4);
    const BipartiteGraph thin = torus_graph(2, 4);  // wrap edges of the side 2 coincide
    EXPECT_EQ(thin.num_edges(), 4 + 2 * 4);
    EXPECT_THROW(torus_graph(3, 4), InvalidArgument);
    EXPECT_THROW(torus_graph(4, 0), InvalidArgument);
}

TEST(Generators, HexagonMatchesMacMahon) {
    for (const auto& [a, b, c] : {std::array{1, 1, 1}, std::array{2, 2, 2}, std::array{1, 2, 3},
                                  std::array{2, 3, 2}, std::array{3, 3, 2}, std::array{0, 3, 4}}) {
        const BipartiteGraph g = hexagon_graph(a, b, c);
        EXPECT_EQ(g.n_left(), a * b + b * c + c * a);
        EXPECT_EQ(g.n_right(), a * b + b * c + c * a);
        EXPECT_EQ(count_of(g), str(test::macmahon(a, b, c))) << a << "," << b << "," << c;
    }
    EXPECT_EQ(str(test::macmahon(2, 2, 2)), "20");
    EXPECT_EQ(str(test::macmahon(3, 3, 3)), "980");
}

TEST(Generators, AztecDiamond) {
    for (int k = 0; k <= 4; ++k) {
        const BipartiteGraph g = aztec_diamond_graph(k);
        EXPECT_EQ(g.n_left(), k * (k + 1));
        EXPECT_EQ(g.n_right(), k * (k + 1));
        EXPECT_EQ(count_of(g), str(test::aztec_diamond_count(k))) << k;
    }
}

TEST(Generators, LogClosedFormsAgreeWithTheExactCounts) {
    // Against the exact products of tests/support (computed in 100-digit floating point) and the
    // literal A004003 value for the 8×8 board; long double logs, to 1e-15 relative.
    auto close = [](long double a, long double b) { return std::fabs(a - b) <= 1e-15L * std::fabs(b); };
    EXPECT_TRUE(close(log_grid_tilings(8, 8), std::log(12988816.0L)));
    for (const auto& [m, n] : {std::pair{2, 3}, std::pair{6, 7}, std::pair{10, 10}}) {
        const auto exact = static_cast<long double>(test::kasteleyn_grid_exact<100>(m, n));
        EXPECT_TRUE(close(log_grid_tilings(m, n), std::log(exact))) << m << "x" << n;
    }
    EXPECT_EQ(log_grid_tilings(3, 5), -std::numeric_limits<long double>::infinity());
    const auto hexagon = static_cast<long double>(test::macmahon(4, 5, 6));
    EXPECT_TRUE(close(log_hexagon_tilings(4, 5, 6), std::log(hexagon)));
    EXPECT_TRUE(close(log_aztec_tilings(10), 55 * std::log(2.0L)));
}

TEST(Generators, CompleteBipartite) {
    const char* factorials[] = {"1", "1", "2", "6", "24", "120", "720", "5040"};
    for (int n = 0; n <= 7; ++n) {
        EXPECT_EQ(complete_bipartite_graph(n).num_edges(), n * n);
        EXPECT_EQ(count_of(complete_bipartite_graph(n)), factorials[n]) << n;
    }
}

TEST(Generators, RandomBipartiteIsSeededAndHasTheRightDensity) {
    const BipartiteGraph a = random_bipartite_graph(200, 0.1, 7);
    EXPECT_EQ(a.edges(), random_bipartite_graph(200, 0.1, 7).edges());
    EXPECT_NE(a.edges(), random_bipartite_graph(200, 0.1, 8).edges());
    // 40000 Bernoulli(0.1) trials: mean 4000, standard deviation 60; 5 deviations allowed.
    EXPECT_NEAR(static_cast<double>(a.num_edges()), 4000.0, 300.0);
    EXPECT_EQ(random_bipartite_graph(20, 0, 1).num_edges(), 0);
    EXPECT_EQ(random_bipartite_graph(20, 1, 1).num_edges(), 400);
    EXPECT_THROW(random_bipartite_graph(20, 1.5, 1), InvalidArgument);
}

TEST(Generators, RandomRegularIsSimpleRegularAndSeeded) {
    for (const auto& [n, d] :
         {std::pair{30, 3}, std::pair{50, 7}, std::pair{8, 7}, std::pair{5, 5}, std::pair{10, 0}}) {
        const BipartiteGraph g = random_regular_bipartite_graph(n, d, 11);
        EXPECT_EQ(g.duplicates_merged(), 0) << n << "," << d;
        expect_degrees(g, d);
        EXPECT_EQ(g.edges(), random_regular_bipartite_graph(n, d, 11).edges());
    }
    EXPECT_NE(random_regular_bipartite_graph(30, 3, 1).edges(),
              random_regular_bipartite_graph(30, 3, 2).edges());
    EXPECT_THROW(random_regular_bipartite_graph(4, 5, 1), InvalidArgument);
}

/// FNV-1a of the sides and the sorted edge list: a fingerprint of a generated graph.
std::uint64_t fingerprint(const BipartiteGraph& g) {
    std::uint64_t h = fnv1a_value(fnv1a_value(kFnvOffset, g.n_left()), g.n_right());
    for (const auto& [u, v] : g.edges()) {
        h = fnv1a_value(fnv1a_value(h, u), v);
    }
    return h;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

TEST(Generators, SeededSpecsGiveTheGraphsOnRecord) {
    // The graphs behind the counts that tests, docs and benchmark records quote: fingerprints
    // taken before the generators were made linear in their output (a changed stream, switch
    // or lattice numbering would change them).
    const std::pair<const char*, std::uint64_t> on_record[] = {
        {"random:18,0.5,1", 0x1648ef67f11c3295},      {"random:30,0.5,7", 0xef5b508117e1fb05},
        {"random:30,0.2", 0x880a9fe8ecba44bd},        {"random:36,0.5,1", 0x3b9af71aea763e0f},
        {"random:40,0.9,5", 0x5995c0edecb0da12},      {"random:48,0.1,7", 0x9ff4b64bfe1d1af4},
        {"random:56,0.1,1", 0xe6fb56913766d7ff},      {"random:200,0.1,7", 0xef6562b288cbb3af},
        {"random:4096,0.0002,5", 0x61ef95161357a298}, {"regular:30,3,9", 0x60095b925465b0f5},
        {"regular:40,3,11", 0x6c41c854a9fbb345},      {"regular:10,3,4", 0x1e7f87a51875bb75},
        {"regular:600,300,2", 0xf879da9897434a1d},    {"hexagon:4,5,6", 0x2f748bf9bd2fc4fc},
        {"hexagon:50,60,70", 0xeabbef0c4ea08b94},     {"aztec:5", 0x736bb245ed2ad6a5},
    };
    for (const auto& [spec, expected] : on_record) {
        EXPECT_EQ(fingerprint(generate_graph(spec)), expected) << spec;
    }
}

TEST(Generators, LargeSpecsTakeTimeLinearInTheirOutput) {
    // Each took 29 s to minutes when the time grew with n² (random) or with refused switches
    // (regular, d near n); each is under 3 s on the 2-core development machine. The limit is
    // generous for a loaded CI machine; quadratic behaviour would still exceed it many times.
    constexpr double kLimit_s = 30;
    for (const char* spec : {"random:100000,0", "random:100000,0.0004", "regular:1000,999",
                             "regular:2048,2047", "regular:2048,1024", "hexagon:600,600,600"}) {
        const auto start = std::chrono::steady_clock::now();
        const BipartiteGraph g = generate_graph(spec);
        EXPECT_LT(seconds_since(start), kLimit_s) << spec;
        EXPECT_EQ(g.duplicates_merged(), 0) << spec;
    }
}

TEST(Generators, GapsDrawTheSameDistributionAsThePairStream) {
    // Beyond order 4096 random:N,P draws the gaps between edges: G(n, n, p) all the same. Each
    // degree is Binomial(n, p); over 10^4 rows their mean and variance are n·p and n·p·(1 − p)
    // up to a few of their standard errors.
    const vertex_t n = 10000;
    const double p = 0.004;
    const BipartiteGraph g = random_bipartite_graph(n, p, 3);
    for (const bool by_row : {true, false}) {
        double sum = 0, squares = 0;
        for (vertex_t x = 0; x < n; ++x) {
            const double d = static_cast<double>(by_row ? g.right_neighbours(x).size()
                                                        : g.left_neighbours(x).size());
            sum += d;
            squares += d * d;
        }
        const double mean = sum / n, variance = squares / n - mean * mean;
        const double expected_variance = n * p * (1 - p);
        // Standard errors: √(var/n) = 0.063 for the mean; about var·√(2/n) = 0.57 for the
        // variance. Five of each allowed.
        EXPECT_NEAR(mean, n * p, 0.32) << (by_row ? "rows" : "columns");
        EXPECT_NEAR(variance, expected_variance, 2.9) << (by_row ? "rows" : "columns");
    }
    // The first and last rows are reached alike (a gap that overshot or stopped early would
    // thin one end): 2·10^4 expected edges in each tenth of the rows, sd 141; 5 sd allowed.
    for (const vertex_t first : {0, 9000}) {
        edge_t edges = 0;
        for (vertex_t u = first; u < first + 1000; ++u) {
            edges += static_cast<edge_t>(g.right_neighbours(u).size());
        }
        EXPECT_NEAR(static_cast<double>(edges), 40000.0, 710.0) << first;
    }
    EXPECT_EQ(random_bipartite_graph(5000, 0, 1).num_edges(), 0);
    EXPECT_EQ(random_bipartite_graph(5000, 1, 1).num_edges(), edge_t{5000} * 5000);
    EXPECT_EQ(fingerprint(random_bipartite_graph(n, p, 3)), fingerprint(g));
}

TEST(Generators, DenseRegularGraphsAreComplementsAndRegular) {
    for (const auto& [n, d] : {std::pair{300, 200}, std::pair{1000, 999}, std::pair{9, 5}}) {
        const BipartiteGraph g = random_regular_bipartite_graph(n, d, 4);
        EXPECT_EQ(g.duplicates_merged(), 0) << n << "," << d;
        expect_degrees(g, d);
        EXPECT_EQ(fingerprint(random_regular_bipartite_graph(n, d, 4)), fingerprint(g));
        EXPECT_NE(fingerprint(random_regular_bipartite_graph(n, d, 5)), fingerprint(g));
    }
}

TEST(Generators, AStopRequestInterruptsGeneration) {
    // Asked before: the first check throws, and the request is withdrawn with it.
    for (const char* spec : {"random:30,0.5", "random:20000,0.001", "regular:300,10",
                             "grid:100x100", "hexagon:20,20,20", "complete:100", "aztec:50"}) {
        request_stop();
        EXPECT_THROW(generate_graph(spec), Interrupted) << spec;
        EXPECT_NO_THROW(generate_graph("grid:2x2")) << "the request outlived " << spec;
    }
    // Asked during a generation of seconds (the stream's checks are 65536 draws apart, well
    // under 0.1 s): it ends long before it would have finished.
    for (const char* spec : {"regular:4096,1024", "random:100000,0.0004"}) {
        const auto start = std::chrono::steady_clock::now();
        std::thread stopper([] {
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
            request_stop();
        });
        double stopped_at = -1;
        try {
            generate_graph(spec);
        } catch (const Interrupted& e) {
            stopped_at = seconds_since(start);
            EXPECT_NE(std::string(e.what()).find("interrupted while generating the graph"),
                      std::string::npos)
                << e.what();
        }
        stopper.join();
        clear_stop_request();
        EXPECT_GE(stopped_at, 0) << spec << " was not interrupted";
        EXPECT_LT(stopped_at, 1.0) << spec;  // its whole generation takes 0.6–2 s here
    }
}

TEST(Generators, SpecsMatchTheFunctions) {
    EXPECT_EQ(generate_graph("grid:4x6").edges(), grid_graph(4, 6).edges());
    EXPECT_EQ(generate_graph("torus:4x4").edges(), torus_graph(4, 4).edges());
    EXPECT_EQ(generate_graph("hexagon:2,3,4").edges(), hexagon_graph(2, 3, 4).edges());
    EXPECT_EQ(generate_graph("aztec:5").edges(), aztec_diamond_graph(5).edges());
    EXPECT_EQ(generate_graph("complete:6").edges(), complete_bipartite_graph(6).edges());
    EXPECT_EQ(generate_graph("random:30,0.2,9").edges(),
              random_bipartite_graph(30, 0.2, 9).edges());
    EXPECT_EQ(generate_graph("random:30,0.2").edges(), random_bipartite_graph(30, 0.2, 1).edges());
    EXPECT_EQ(generate_graph("regular:30,3,9").edges(),
              random_regular_bipartite_graph(30, 3, 9).edges());
    EXPECT_EQ(generated_input("grid:2x2").source, "grid:2x2");
}

TEST(Generators, MalformedSpecsAreInputErrors) {
    EXPECT_TRUE(is_generator_spec("grid:3x3"));
    EXPECT_TRUE(is_generator_spec("grid:"));
    EXPECT_FALSE(is_generator_spec("grid.txt"));
    EXPECT_FALSE(is_generator_spec("datasets/grid:3x3"));
    for (const char* bad :
         {"grid:3", "grid:3x", "grid:ax3", "grid:3x3x3", "torus:3x3", "hexagon:1,2", "aztec:-1",
          "complete:", "random:10", "random:10,2", "random:10,0.5,x", "regular:10,11",
          "regular:10,3,1,2", "planet:3", "grid:99999999999x2"}) {
        EXPECT_THROW(generate_graph(bad), InvalidInput) << bad;
    }
    try {
        generate_graph("torus:3x3");
    } catch (const InvalidInput& e) {
        EXPECT_EQ(e.file(), "torus:3x3");
        EXPECT_NE(std::string(e.what()).find("even"), std::string::npos) << e.what();
    }
}

TEST(Generators, HugeSpecsAreRefusedBeforeBuilding) {
    // Each would need gigabytes (or more than a vertex id holds): refused at once, by size.
    for (const char* huge : {"grid:100000x100000", "torus:4096x4096", "hexagon:7000,7000,6000",
                             "aztec:20000", "complete:100000", "random:100000,0.5",
                             "regular:10000000,5000"}) {
        const auto start = std::chrono::steady_clock::now();
        try {
            generate_graph(huge);
            ADD_FAILURE() << huge << " was generated";
        } catch (const InvalidInput& e) {
            EXPECT_EQ(e.file(), huge);
            EXPECT_NE(std::string(e.what())
                          .find("at most 16777216 vertices a side and 16777216 edges are "
                                "supported"),
                      std::string::npos)
                << e.what();
        }
        EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(),
                  1.0)
            << huge;
    }
    // A grid within the limits (4·10^6 cells, 8·10^6 edges) is generated.
    EXPECT_EQ(generate_graph("grid:2000x2000").n_left(), 2000 * 1000);
}

/// Runs count_matchings with `args`; returns the exit status and standard output.
std::pair<int, std::string> count_matchings(const std::string& args) {
    const std::string command = std::string(PMCOUNT_COUNT_MATCHINGS) + " " + args + " 2>/dev/null";
    FILE* pipe = popen(command.c_str(), "r");
    std::string out;
    char buffer[256];
    while (std::fgets(buffer, sizeof buffer, pipe) != nullptr) {
        out += buffer;
    }
    const int status = pclose(pipe);
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

TEST(GeneratorsCli, SpecsAreInputsAndFilesTakePrecedence) {
    EXPECT_EQ(count_matchings("-q grid:4x4"), (std::pair<int, std::string>{0, "36\n"}));
    EXPECT_EQ(count_matchings("-q hexagon:2,2,2"), (std::pair<int, std::string>{0, "20\n"}));
    EXPECT_EQ(count_matchings("-q grid:4").first, 2);
    EXPECT_EQ(count_matchings("-q torus:3x3").first, 2);
    // A file named like a spec is read as a file.
    const auto dir = std::filesystem::temp_directory_path() / "pmcount_generators_cli";
    std::filesystem::create_directories(dir);
    std::ofstream(dir / "grid:9x9") << "# bipartite 1 1\n0 0\n";
    EXPECT_EQ(count_matchings("-q '" + (dir / "grid:9x9").string() + "'"),
              (std::pair<int, std::string>{0, "1\n"}));
    const auto cwd = std::filesystem::current_path();
    std::filesystem::current_path(dir);
    EXPECT_EQ(count_matchings("-q grid:9x9"), (std::pair<int, std::string>{0, "1\n"}));
    std::filesystem::current_path(cwd);
    std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace pmcount
