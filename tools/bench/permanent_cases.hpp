// The permanents suite's cases and matrices (permanent_cases.cpp): the case table, the options
// that pick cases × orders, and each case's seeded matrix, drawn the same way on every platform.
#pragma once

#include <complex>
#include <cstdint>
#include <string>
#include <vector>

#include "common.hpp"
#include "pmcount/pmcount.hpp"

namespace pmcount::bench::permanents {

struct CaseSpec {
    const char* name;
    bool binary;
    bool reducible;            // hidden block-triangular form; front-end runs instead of the grid
    bool sparse;               // random sparse with a perfect matching; engine comparison runs
    const char* quick_orders;  // --quick's orders when --n is not given
    bool hafnian = false;      // a symmetric matrix with an empty diagonal: its hafnian
    bool complex = false;      // complex entries
    bool loop = false;         // with a diagonal: its loop hafnian (hafnian is set too)
};

constexpr CaseSpec known_cases[] = {
    {"dense-real", false, false, false, "6,10,14"},
    {"dense-binary", true, false, false, "6,10,14"},
    {"dense-signed", false, false, false, "6,10,14"},
    {"reducible-binary", true, true, false, "12"},
    {"sparse-binary", true, false, true, "16"},
    {"sparse-real", false, false, true, "16"},
    {"hafnian-binary", true, false, false, "8,12,16", true},
    {"hafnian-real", false, false, false, "8,12,16", true},
    {"hafnian-signed", false, false, false, "8,12,16", true},
    {"hafnian-complex", false, false, false, "8,12,16", true, true},
    {"loop-hafnian-binary", true, false, false, "8,12,16", true, false, true},
    {"loop-hafnian-real", false, false, false, "8,12,16", true, false, true},
    {"loop-hafnian-complex", false, false, false, "8,12,16", true, true, true}};
constexpr const char* known_case_names =
    "dense-real, dense-binary, dense-signed, reducible-binary, sparse-binary, sparse-real, "
    "hafnian-binary, hafnian-real, hafnian-signed, hafnian-complex, loop-hafnian-binary, "
    "loop-hafnian-real, loop-hafnian-complex";

/// The predicted-time limit offered to the no-front-end plan of reducible-binary.
constexpr double no_front_end_limit_s = 60;

/// One matrix to benchmark.
struct Job {
    CaseSpec spec;
    int n;
};

enum class ThewalrusMode { automatic, off, require };

struct BenchOptions {
    std::vector<Job> jobs;  // cases × orders, case by case
    std::vector<int> threads;
    std::vector<pmcount::Precision> precisions;
    int repeat = 1;
    std::uint64_t seed = 1;
    double density = 0.5;            // dense-binary, reducible-binary
    double sparse_density = 0.1;     // sparse-binary, sparse-real (--density overrides both)
    double dense_max_seconds = 600;  // sparse cases: skip an engine predicted to take longer
    std::vector<std::string>
        engines;         // sparse cases: engines to run (empty: all; others predicted)
    int max_block = 26;  // reducible-binary: largest diagonal block
    bool exact = false;
    int dd_reference_max_n = 24;
    int brute_force_max_n = 10;
    int pairings_max_n = 16;  // hafnian cases: brute force over pairings
    ThewalrusMode thewalrus = ThewalrusMode::automatic;
    int thewalrus_max_n = 30;
    double thewalrus_timeout = 0;  // seconds; 0: no limit
    std::string thewalrus_script;
    std::string thewalrus_hafnian_script;
    std::string python;
    std::string out_path;
    // --backend cuda: the dense cases' ryser runs go to the GPUs (engine "ryser-gpu", one run at
    // the highest thread count), with CPU ryser references up to cpu_reference_max_n.
    pmcount::Backend backend = pmcount::Backend::cpu;
    std::vector<int> gpus;  // empty: every visible GPU
    int cpu_reference_max_n = 30;
};

std::vector<CaseSpec> parse_cases(const std::string& text);

std::vector<pmcount::Precision> parse_precisions(const std::string& text);

struct TestMatrix {
    std::string case_name;
    bool binary = false;
    int n = 0;
    std::uint64_t base_seed = 0;  // --seed
    std::uint64_t seed = 0;       // of this matrix's generator, derived from (--seed, case, n)
    pmcount::DenseMatrix<double> real;                   // every real case; what thewalrus gets
    pmcount::DenseMatrix<std::int64_t> integer;          // binary cases: pmcount's integer input
    pmcount::DenseMatrix<std::complex<double>> complex;  // hafnian-complex
    bool hafnian = false;                                // its hafnian, not its permanent
    bool loop = false;  // with hafnian: its loop hafnian (the diagonal as loops)
    std::int64_t nnz = 0;
    std::string hash;                 // of n and the doubles' bit patterns
    std::vector<int> planted_blocks;  // reducible-binary: diagonal block orders; else empty
    bool sparse = false;              // sparse-binary, sparse-real
    double density = 0;               // sparse cases: probability of a nonzero
    std::int64_t redraws = 0;         // sparse cases: matrices rejected for lack of a matching

    bool reducible() const { return !planted_blocks.empty(); }
    /// The engine the grid times: dense Ryser for permanents, the recursion for hafnians.
    const char* main_engine() const {
        return loop ? "loop-hafnian" : (hafnian ? "hafnian" : "ryser");
    }
    pmcount::Method main_method() const {
        return hafnian ? pmcount::Method::hafnian : pmcount::Method::ryser;
    }
};

/// Row-major entries of the dense cases, one uniform draw per entry.
std::vector<double> dense_entries(const CaseSpec& spec, int n, double density, Draw& draw);

/// Row-major entries of the hafnian cases: the upper triangle drawn row by row (one uniform draw
/// per entry, two for complex), mirrored; the diagonal is 0, except in the loop cases, where
/// each row's draws start at its diagonal entry. Complex entries are returned as (re, im) pairs.
/// hafnian-real and loop-hafnian-real draw from [0, 1), the others' real parts from [−1, 1).
std::vector<double> symmetric_entries(const CaseSpec& spec, int n, double density, Draw& draw);

/// Diagonal block orders of reducible-binary: max_block while more than max_block remains, then
/// the remainder; a remainder of 1 or 2 takes lines, one at a time, from the rightmost earlier
/// block still above 3, since blocks of order 1-2 are trivial for every engine.
/// n = 60, max 26: 26 26 8; n = 53: 26 24 3; n = 12, max 5: 5 4 3.
std::vector<int> diagonal_block_orders(int n, int max_block);

/// Row-major entries of reducible-binary: block upper triangular with the diagonal blocks
/// `orders`, rows and columns then shuffled by independent random permutations, so that the front
/// end has to find the blocks. Diagonal block of order b: I + the cyclic shift (i → i+1 mod b),
/// which makes it fully indecomposable for b >= 2, plus 1s with probability `density`; above
/// the block diagonal 1s with probability `density`; below it 0s. Its fine Dulmage–Mendelsohn
/// blocks are exactly the diagonal blocks, and perm = the product of theirs.
/// Draws: one uniform per position on or above the block diagonal, row-major, then the row
/// permutation, then the column permutation.
std::vector<double> reducible_entries(int n, const std::vector<int>& orders, double density,
                                      Draw& draw);

TestMatrix make_matrix(const CaseSpec& spec, int n, const BenchOptions& options);

}  // namespace pmcount::bench::permanents
