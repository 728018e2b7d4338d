// The GPU engines' host C++ that needs no GPU, tested where CI runs: the sparse walk's code
// generator (exact/ryser/ryser_codegen.hpp) against golden files and for what its text must say,
// and the GPU hafnian's work split (exact/hafnian/hafnian_plan.hpp) pinned and checked to cover
// every unit once, and the launch policies (the kernels' shapes) pinned. Golden files:
// tests/unit/exact/golden/; PMCOUNT_UPDATE_GOLDEN=1 rewrites them (then review the diff).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "exact/hafnian/hafnian_plan.hpp"
#include "exact/ryser/ryser_codegen.hpp"
#include "exact/ryser/ryser_launch_policy.hpp"

namespace pmcount::backend::cuda {
namespace {

/// A walk job as ryser_gpu.cpp builds one for `a` (n×n, row-major; entries 0 are not stored):
/// y(∅) the row sums less half of each row (base = 2·y(∅) words: the kernels' 2·a), and the
/// Gray columns 0..n−2 as lists of (row, 2·a).
GpuSparseJob walk_job(int n, const std::vector<double>& a) {
    GpuSparseJob job;
    job.n = n;
    job.code = GpuCode::generated;
    for (int i = 0; i < n; ++i) {
        double sum = 0;
        for (int j = 0; j < n; ++j) {
            sum += a[static_cast<std::size_t>(i * n + j)];
        }
        job.base.push_back(sum - 2 * a[static_cast<std::size_t>(i * n + n - 1)]);
    }
    job.col_start.push_back(0);
    for (int j = 0; j + 1 < n; ++j) {
        for (int i = 0; i < n; ++i) {
            const double v = a[static_cast<std::size_t>(i * n + j)];
            if (v != 0) {
                job.col_row.push_back(i);
                job.col_value.push_back(2 * v);
            }
        }
        job.col_start.push_back(static_cast<int>(job.col_row.size()));
    }
    return job;
}

/// A 6×6 with zeros in every row and non-dyadic values (exact hexadecimal literals matter). Each
/// value is one correctly rounded division of integers, so no machine's multiply-add contraction
/// (-march=native with or without FMA) changes its last bit and the golden text.
GpuSparseJob six() {
    std::vector<double> a;
    for (int i = 0; i < 6; ++i) {
        for (int j = 0; j < 6; ++j) {
            a.push_back((i + 2 * j) % 3 == 0 ? 0.0 : (10 * (1 + i) + j) / 100.0);
        }
    }
    return walk_job(6, a);
}

/// A 0-1 skip_binary job of order 5: row masks over the Gray bits, two rows that can be zero.
GpuSparseJob binary_five() {
    GpuSparseJob job =
        walk_job(5, {1, 1, 0, 0, 1, 0, 1, 1, 0, 1, 1, 0, 1, 1, 1, 0, 0, 1, 1, 1, 1, 1, 0, 1, 1});
    job.kernel = GpuSparseKernel::skip_binary;
    job.row_mask = {0x3, 0x6, 0x5, 0xc, 0xb};
    job.test_mask = {0x3, 0xc};
    job.test_count = {1, 2};
    job.test_low = {0x3 | ~std::uint64_t{1}, 0xc | ~std::uint64_t{7}};
    job.test_low_bit = {0x1, 0x4};
    job.free_bits = 0;
    job.sub_bits = 1;
    return job;
}

std::string golden_path(const std::string& name) {
    return std::string(PMCOUNT_SOURCE_DIR) + "/tests/unit/exact/golden/" + name;
}

/// `text` against the golden file `name`; with PMCOUNT_UPDATE_GOLDEN=1 the file is rewritten.
void expect_golden(const std::string& text, const std::string& name) {
    const char* update = std::getenv("PMCOUNT_UPDATE_GOLDEN");
    if (update != nullptr && std::string(update) == "1") {
        std::ofstream(golden_path(name), std::ios::binary) << text;
    }
    std::ifstream file(golden_path(name), std::ios::binary);
    ASSERT_TRUE(file) << golden_path(name) << " missing (PMCOUNT_UPDATE_GOLDEN=1 writes it)";
    std::stringstream golden;
    golden << file.rdbuf();
    EXPECT_EQ(text, golden.str()) << name << " changed; if on purpose, PMCOUNT_UPDATE_GOLDEN=1";
}

/// The integers of `name`'s initializer list in `text`.
std::vector<unsigned long long> int_list(const std::string& text, const std::string& name) {
    const std::regex list("static constexpr (?:int|u64) " + name + R"(\[\] = \{([^}]*)\})");
    std::smatch m;
    EXPECT_TRUE(std::regex_search(text, m, list)) << name;
    std::vector<unsigned long long> values;
    std::stringstream items(m[1].str());
    for (std::string item; std::getline(items, item, ',');) {
        values.push_back(std::stoull(item, nullptr, 0));
    }
    return values;
}

TEST(SparseCodegen, GeneratedSourcesMatchTheGoldenFiles) {
    expect_golden(generated_source(six(), 2), "sparse_walk_6.cu");
    expect_golden(generated_source(six(), 3), "sparse_walk_6_unroll3.cu");
    expect_golden(generated_source(binary_five(), 2), "skip_binary_5.cu");
}

TEST(SparseCodegen, TheTextCarriesEveryValueExactlyAndTheLayersCoverEveryRow) {
    const GpuSparseJob job = six();
    for (const int unroll : {1, 2, 3}) {
        const std::string text = generated_source(job, unroll);
        // Each stored value as a hexadecimal literal: exact, so the GPU sums what the CPU sums.
        for (const double v : job.col_value) {
            char hex[40];
            std::snprintf(hex, sizeof hex, "%a", v);
            EXPECT_NE(text.find(hex), std::string::npos) << hex;
        }
        EXPECT_EQ(int_list(text, "col_start"),
                  std::vector<unsigned long long>(job.col_start.begin(), job.col_start.end()));
        EXPECT_EQ(int_list(text, "col_row"),
                  std::vector<unsigned long long>(job.col_row.begin(), job.col_row.end()));
        // Layers: M + 2 starts, ascending, ending at n; the rows a permutation of 0..n−1, layer
        // j < M holding exactly the rows first touched by Gray column j.
        const auto start = int_list(text, "layer_start");
        const auto rows = int_list(text, "layer_row");
        ASSERT_EQ(start.size(), static_cast<std::size_t>(unroll + 2));
        EXPECT_EQ(start.front(), 0U);
        EXPECT_EQ(start.back(), static_cast<unsigned long long>(job.n));
        std::vector<int> seen(static_cast<std::size_t>(job.n), 0);
        for (const unsigned long long r : rows) {
            ++seen[static_cast<std::size_t>(r)];
        }
        EXPECT_EQ(seen, std::vector<int>(static_cast<std::size_t>(job.n), 1));
        std::vector<bool> touched(static_cast<std::size_t>(job.n), false);
        for (int j = 0; j < unroll; ++j) {
            std::vector<unsigned long long> first;
            for (int e = job.col_start[static_cast<std::size_t>(j)];
                 e < job.col_start[static_cast<std::size_t>(j) + 1]; ++e) {
                const int r = job.col_row[static_cast<std::size_t>(e)];
                if (!touched[static_cast<std::size_t>(r)]) {
                    touched[static_cast<std::size_t>(r)] = true;
                    first.push_back(r);
                }
            }
            EXPECT_EQ(std::vector<unsigned long long>(
                          rows.begin() + start[static_cast<std::size_t>(j)],
                          rows.begin() + start[static_cast<std::size_t>(j) + 1]),
                      first)
                << "layer " << j;
        }
    }
}

TEST(SparseCodegen, TheBinaryTablesAndTheDynamicRows) {
    const GpuSparseJob job = binary_five();
    const std::string text = generated_source(job, 2);
    EXPECT_NE(text.find("kTests = 2;"), std::string::npos);
    EXPECT_NE(text.find("kSubBits = 1;"), std::string::npos);
    // The rows a sub-block of 2^1 indices changes: those with Gray bit 0 (rows 0, 2, 4).
    EXPECT_NE(text.find("kDynamicRows = 0x15ULL;"), std::string::npos) << text;
    EXPECT_EQ(int_list(text, "test_count"), (std::vector<unsigned long long>{1, 2}));
    const auto low = int_list(text, "test_low");
    ASSERT_EQ(low.size(), 2U);
    EXPECT_EQ(low[1], job.test_low[1]);
    // Empty tables are written as {0}: arrays may not be empty.
    EXPECT_NE(generated_source(six(), 2).find("test_mask[] = {0}"), std::string::npos);
}

// ---- The GPU hafnian's work split

TEST(HafnianPlan, GeometryAndBatchesArePinned) {
    struct Row {
        int n, primes;
        std::size_t element_bytes, budget;
        int subtree, expand, root;
        std::uint64_t roots, per_batch;
        std::size_t batches, shared_bytes;
    };
    const std::size_t big = std::size_t{1} << 40;
    const std::vector<Row> rows = {
        {2, 1, 8, big, 1, 0, 1, 1, 1, 1, 0},
        {10, 1, 8, big, 5, 0, 5, 1, 1, 1, 4200},
        {24, 3, 64, big, 5, 7, 12, 1, 1, 3, 87360},
        {40, 1, 8, big, 5, 12, 17, 8, 8, 1, 17640},
        {64, 6, 64, big, 5, 12, 17, 32768, 16, 12288, 221760},
        {64, 1, 8, std::size_t{1} << 30, 5, 12, 17, 32768, 8, 4096, 27720},
    };
    for (const Row& r : rows) {
        const HafnianPlan p =
            make_hafnian_plan(r.n, r.element_bytes, r.primes, -1, 0, r.budget, {});
        const std::string at = "n = " + std::to_string(r.n);
        EXPECT_EQ(p.subtree_levels, r.subtree) << at;
        EXPECT_EQ(p.expand_levels, r.expand) << at;
        EXPECT_EQ(p.root_level, r.root) << at;
        EXPECT_EQ(p.roots, r.roots) << at;
        EXPECT_EQ(p.roots_per_batch, r.per_batch) << at;
        EXPECT_EQ(p.batches.size(), r.batches) << at;
        EXPECT_EQ(p.shared_bytes, r.shared_bytes) << at;
    }
}

TEST(HafnianPlan, BatchesCoverEveryUnitOnceWithinBudgetAndPrime) {
    for (const int n : {2, 12, 30, 44, 56}) {
        for (const int primes : {1, 4}) {
            for (const std::size_t budget : {std::size_t{1} << 24, std::size_t{1} << 34}) {
                const HafnianPlan p = make_hafnian_plan(n, 8, primes, -1, 0, budget, {});
                std::uint64_t next = 0;
                for (const HafnianBatch& b : p.batches) {
                    EXPECT_EQ(b.first_unit, next);
                    EXPECT_EQ(b.first_unit,
                              static_cast<std::uint64_t>(b.prime) * p.roots + b.first_root);
                    EXPECT_GE(b.roots, 1U);
                    EXPECT_LE(b.roots, p.roots_per_batch);
                    EXPECT_LE(b.first_root + b.roots, p.roots);  // one prime per batch
                    next += b.roots;
                }
                EXPECT_EQ(next, p.roots * static_cast<std::uint64_t>(primes));
                EXPECT_TRUE(p.roots_per_batch == 1 || p.device_bytes(primes) <= budget)
                    << "n = " << n;
                EXPECT_EQ(p.root_level, p.subtree_levels + p.expand_levels);
                EXPECT_EQ(p.roots, std::uint64_t{1} << (n / 2 - p.root_level));
            }
        }
    }
    // Given units (a resumed or shared range): exactly those, in runs of consecutive units.
    const std::vector<std::uint64_t> units = {0, 1, 2, 5, 6, 40, 41};
    const HafnianPlan p = make_hafnian_plan(48, 8, 2, -1, 4, std::size_t{1} << 34, units);
    std::vector<std::uint64_t> covered;
    for (const HafnianBatch& b : p.batches) {
        for (std::uint64_t k = 0; k < b.roots; ++k) {
            covered.push_back(b.first_unit + k);
        }
    }
    EXPECT_EQ(covered, units);
    EXPECT_EQ(p.batches.size(), 3U);  // {0, 1, 2}, {5, 6}, {40, 41}
}

// ---- Launch policies: the NVRTC kernels' template arguments, pinned (they were measured)

TEST(LaunchPolicy, DenseAndSparseShapesAndTheHafnianBlockArePinned) {
    using P = RyserLaunchPolicy;
    struct Row {
        GpuMode mode;
        int n, unroll, blocks;
        bool fuse;
    };
    for (const Row& r : std::vector<Row>{{GpuMode::double_plain, 20, 4, 1, true},
                                         {GpuMode::double_plain, 40, 4, 1, true},
                                         {GpuMode::double_plain, 41, 3, 1, false},
                                         {GpuMode::double_compensated, 40, 3, 1, false},
                                         {GpuMode::certified, 44, 3, 1, false},
                                         {GpuMode::double_double, 30, 2, 1, false},
                                         {GpuMode::complex, 30, 2, 1, false},
                                         {GpuMode::modular, 40, 1, 4, false},
                                         {GpuMode::modular, 41, 1, 3, false}}) {
        const KernelShape shape = P::dense_shape(r.n, r.mode);
        EXPECT_EQ(shape.unroll_log2, r.unroll) << static_cast<int>(r.mode) << " " << r.n;
        EXPECT_EQ(shape.min_blocks, r.blocks) << static_cast<int>(r.mode) << " " << r.n;
        EXPECT_EQ(shape.fuse_top, r.fuse) << static_cast<int>(r.mode) << " " << r.n;
    }
    EXPECT_EQ(P::sparse_unroll_log2(GpuMode::double_plain, GpuCode::tables), 4);
    EXPECT_EQ(P::sparse_unroll_log2(GpuMode::double_compensated, GpuCode::tables), 3);
    EXPECT_EQ(P::sparse_unroll_log2(GpuMode::double_compensated, GpuCode::generated), 6);
    EXPECT_EQ(P::sparse_unroll_log2(GpuMode::modular, GpuCode::generated), 2);
    EXPECT_EQ(P::kSkipBinaryMinBlocks, 4);
    EXPECT_EQ(HafnianPolicy::output_block(GpuHafnianMode::double_precision), 16);
    EXPECT_EQ(HafnianPolicy::output_block(GpuHafnianMode::complex), 8);
    EXPECT_EQ(HafnianPolicy::output_block(GpuHafnianMode::modular), 32);
    // Within what the kernels were written for: unrolls 1–6 (a super-block's steps are unrolled
    // code), at least one block per SM, for every order and mode.
    for (int n = 2; n <= 64; ++n) {
        for (const GpuMode mode :
             {GpuMode::double_plain, GpuMode::double_compensated, GpuMode::double_double,
              GpuMode::complex, GpuMode::modular, GpuMode::certified}) {
            const KernelShape shape = P::dense_shape(n, mode);
            EXPECT_TRUE(shape.unroll_log2 >= 1 && shape.unroll_log2 <= 6 && shape.min_blocks >= 1);
            for (const GpuCode code : {GpuCode::tables, GpuCode::generated}) {
                const int m = P::sparse_unroll_log2(mode, code);
                EXPECT_TRUE(m >= 1 && m <= 6);
            }
        }
    }
}

}  // namespace
}  // namespace pmcount::backend::cuda
