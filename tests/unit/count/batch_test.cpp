// Batches: every item equals its function called alone (values and reports), whatever the
// threads; items' errors name the item; one matrix with many diagonals.
#include <gtest/gtest.h>

#include <complex>
#include <random>
#include <string>
#include <vector>

#include "pmcount/count.hpp"
#include "pmcount/error.hpp"

namespace pmcount {
namespace {

using C = std::complex<double>;

std::vector<DenseMatrix<C>> random_symmetric(std::mt19937_64& rng, int count, int n) {
    std::normal_distribution<double> g;
    std::vector<DenseMatrix<C>> out;
    for (int k = 0; k < count; ++k) {
        DenseMatrix<C> a(n, n);
        for (int i = 0; i < n; ++i) {
            for (int j = 0; j <= i; ++j) {
                a(i, j) = a(j, i) = C(g(rng), g(rng)) / 4.0;
            }
        }
        out.push_back(a);
    }
    return out;
}

TEST(Batch, EveryItemIsItsFunctionAlone) {
    std::mt19937_64 rng(409);
    const auto matrices = random_symmetric(rng, 40, 10);
    for (const int threads : {1, 2}) {
        CountOptions o;
        o.threads = threads;
        const auto loops = loop_hafnian_batch(matrices, o);
        const auto hafs = hafnian_batch(matrices, o);
        const auto perms = permanent_batch(matrices, o);
        ASSERT_EQ(loops.size(), matrices.size());
        for (std::size_t k = 0; k < matrices.size(); ++k) {
            EXPECT_EQ(loops[k].complex_value, loop_hafnian(matrices[k]).complex_value) << k;
            EXPECT_EQ(hafs[k].complex_value, hafnian(matrices[k]).complex_value) << k;
            EXPECT_EQ(perms[k].complex_value, permanent(matrices[k]).complex_value) << k;
            EXPECT_EQ(loops[k].method, "loop-hafnian");
            EXPECT_EQ(loops[k].stats.threads, 1);
        }
    }
    std::vector<DenseMatrix<std::int64_t>> ints;
    for (int n = 0; n < 9; ++n) {
        ints.emplace_back(n, n, std::int64_t{1});
    }
    const auto counts = loop_hafnian_batch(ints);
    const char* involutions[] = {"1", "1", "2", "4", "10", "26", "76", "232", "764"};
    for (int n = 0; n < 9; ++n) {
        EXPECT_EQ(counts[static_cast<std::size_t>(n)].value_string(), involutions[n]);
    }
}

TEST(Batch, ComplexLoopHafniansInLanesAreTheSingleCounts) {
    // Orders 0 to 13 (odd ones padded), groups of eight and fewer, a block-diagonal item, an item
    // with an isolated vertex without a loop (0), and one whose vertex is alone with its loop.
    std::mt19937_64 rng(410);
    std::vector<DenseMatrix<C>> matrices;
    for (int n = 0; n <= 13; ++n) {
        for (const auto& a : random_symmetric(rng, n % 3 == 0 ? 11 : 3, n)) {
            matrices.push_back(a);
        }
    }
    DenseMatrix<C> blocks = random_symmetric(rng, 1, 9)[0];
    for (int i = 0; i < 4; ++i) {
        for (int j = 4; j < 9; ++j) {
            blocks(i, j) = blocks(j, i) = 0.0;
        }
    }
    matrices.push_back(blocks);
    DenseMatrix<C> isolated = random_symmetric(rng, 1, 6)[0];
    for (int j = 0; j < 6; ++j) {
        isolated(2, j) = isolated(j, 2) = 0.0;
    }
    matrices.push_back(isolated);
    isolated(2, 2) = C(0.5, -1.0);
    matrices.push_back(isolated);
    for (const int threads : {1, 2}) {
        CountOptions o;
        o.threads = threads;
        const auto batch = loop_hafnian_batch(matrices, o);
        for (std::size_t k = 0; k < matrices.size(); ++k) {
            const CountResult alone = loop_hafnian(matrices[k]);
            EXPECT_EQ(batch[k].complex_value, alone.complex_value) << k;
            EXPECT_EQ(batch[k].abs_error, alone.abs_error) << k;
            EXPECT_EQ(batch[k].error_kind, alone.error_kind) << k;
            EXPECT_EQ(batch[k].arithmetic, alone.arithmetic) << k;
            EXPECT_EQ(batch[k].method, alone.method) << k;
        }
    }
    // A bad item is named.
    matrices[15](0, 1) = C(9.0, 0.0);  // order 2
    try {
        loop_hafnian_batch(matrices);
        FAIL() << "an asymmetric item was accepted";
    } catch (const InvalidArgument& e) {
        EXPECT_EQ(std::string(e.what()).rfind("item 15: ", 0), 0U) << e.what();
    }
}

TEST(Batch, OneMatrixWithManyDiagonals) {
    std::mt19937_64 rng(7);
    const DenseMatrix<C> a = random_symmetric(rng, 1, 9)[0];
    std::normal_distribution<double> g;
    std::vector<std::vector<C>> diagonals(25, std::vector<C>(9));
    for (auto& d : diagonals) {
        for (auto& x : d) {
            x = C(g(rng), g(rng));
        }
    }
    const auto r = loop_hafnian_batch(a, diagonals);
    for (std::size_t k = 0; k < diagonals.size(); ++k) {
        DenseMatrix<C> b = a;
        for (vertex_t i = 0; i < 9; ++i) {
            b(i, i) = diagonals[k][static_cast<std::size_t>(i)];
        }
        EXPECT_EQ(r[k].complex_value, loop_hafnian(b).complex_value) << k;
    }
    diagonals[3].pop_back();
    try {
        loop_hafnian_batch(a, diagonals);
        FAIL() << "a short diagonal was accepted";
    } catch (const InvalidArgument& e) {
        EXPECT_EQ(std::string(e.what()).rfind("item 3: ", 0), 0U) << e.what();
    }
}

TEST(Batch, TorontoniansAndErrorsNameTheItem) {
    std::vector<DenseMatrix<double>> os;
    for (int k = 0; k < 6; ++k) {
        DenseMatrix<double> o(4, 4, 0.0);
        o(0, 0) = o(2, 2) = 0.5;
        o(1, 1) = o(3, 3) = 0.1 * k;
        os.push_back(o);
    }
    const auto r = torontonian_batch(os);
    for (std::size_t k = 0; k < os.size(); ++k) {
        EXPECT_EQ(r[k].value, torontonian(os[k]).value);
    }
    std::vector<std::vector<double>> gammas(os.size(), std::vector<double>(4, 0.25));
    const auto l = torontonian_batch(os, &gammas);
    EXPECT_EQ(l[2].value, loop_torontonian(os[2], gammas[2]).value);
    gammas.pop_back();
    EXPECT_THROW(torontonian_batch(os, &gammas), InvalidArgument);
    os[4](0, 1) = 0.3;  // not symmetric
    try {
        torontonian_batch(os);
        FAIL() << "an asymmetric item was accepted";
    } catch (const InvalidArgument& e) {
        EXPECT_EQ(std::string(e.what()).rfind("item 4: ", 0), 0U) << e.what();
    }
    std::vector<DenseMatrix<double>> rect{DenseMatrix<double>(2, 3, 1.0)};
    EXPECT_THROW(hafnian_batch(rect), Error);
}

}  // namespace
}  // namespace pmcount
