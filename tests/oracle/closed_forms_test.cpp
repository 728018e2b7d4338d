// Closed forms from the issue: K_{n,n} = n!, J − I = derangements, J − I − P = ménage numbers,
// tridiagonal = Fibonacci, all-a = n!·a^n, grid graphs = Kasteleyn; counts beyond 2^64 exactly.
#include <gtest/gtest.h>

#include <cmath>

#include "numeric/cpp_int_bridge.hpp"
#include "pmcount/count.hpp"
#include "support/closed_forms.hpp"

namespace pmcount {
namespace {

std::string str(const test::cpp_int& v) { return v.str(); }

TEST(ClosedForms, CompleteBipartiteIsFactorial) {
    for (int n = 1; n <= 24; ++n) {
        EXPECT_EQ(permanent(test::all_ones(n)).exact.to_string(), str(test::factorial(n))) << n;
    }
}

TEST(ClosedForms, ThirtyFactorialBeyondTwoToThe64) {
    // K_{30,30} as a graph: 30! ≈ 2^107.7 needs more than one 64-bit word.
    std::vector<BipartiteGraph::Edge> edges;
    for (int i = 0; i < 30; ++i) {
        for (int j = 0; j < 30; ++j) {
            edges.emplace_back(i, j);
        }
    }
    const CountResult r = count_perfect_matchings(BipartiteGraph(30, 30, edges));
    EXPECT_TRUE(r.is_exact);
    EXPECT_EQ(r.exact.to_string(), "265252859812191058636308480000000");
}

TEST(ClosedForms, Derangements) {
    for (int n = 1; n <= 22; ++n) {
        EXPECT_EQ(permanent(test::ones_minus_identity(n)).exact.to_string(), str(test::derangements(n)))
            << n;
    }
}

TEST(ClosedForms, MenageNumbers) {
    // U(3..) = 1, 2, 13, 80, 579, 4738, ... (OEIS A000179)
    EXPECT_EQ(str(test::menage(3)), "1");
    EXPECT_EQ(str(test::menage(6)), "80");
    for (int n = 3; n <= 22; ++n) {
        EXPECT_EQ(permanent(test::menage_matrix(n)).exact.to_string(), str(test::menage(n))) << n;
    }
}

TEST(ClosedForms, TridiagonalIsFibonacci) {
    for (int n = 1; n <= 24; ++n) {
        EXPECT_EQ(permanent(test::tridiagonal(n)).exact.to_string(), str(test::fibonacci(n + 1))) << n;
    }
}

TEST(ClosedForms, ConstantMatrixIsFactorialTimesPower) {
    for (const std::int64_t a : {3, -2, 7}) {
        for (int n = 1; n <= 16; ++n) {
            test::cpp_int expected = test::factorial(n);
            for (int k = 0; k < n; ++k) {
                expected *= a;
            }
            EXPECT_EQ(permanent(DenseMatrix<std::int64_t>(n, n, a)).exact.to_string(), str(expected))
                << "a " << a << " n " << n;
        }
    }
    // Real and complex constants: n!·a^n to rounding.
    const int n = 18;
    const double real = permanent(DenseMatrix<double>(n, n, 0.75)).value;
    EXPECT_NEAR(real / (std::tgamma(n + 1.0) * std::pow(0.75, n)), 1.0, 1e-13);
    const std::complex<double> c(0.5, 0.5);
    const std::complex<double> z = permanent(DenseMatrix<std::complex<double>>(n, n, c)).complex_value;
    const std::complex<double> expected = std::tgamma(n + 1.0) * std::pow(c, n);
    EXPECT_LT(std::abs(z - expected) / std::abs(expected), 1e-12);
}

// Entries far outside double range, so that the permanent overflows (or underflows) double
// whichever engine or reduction computes it: n!·a^n from log10 |value|, the sign, and the decimal
// string (value_string used to print "-nane+inf" for the 2×2 case).
TEST(ClosedForms, ConstantMatrixBeyondDoubleRange) {
    struct Engine {
        Method method;
        bool front_end;
    };
    const Engine engines[] = {{Method::automatic, true},    {Method::automatic, false},
                              {Method::brute_force, false}, {Method::ryser, false},
                              {Method::sparyser, false},    {Method::skipper, false}};
    for (const double a : {0.75 * std::ldexp(1.0, 700), -0.75 * std::ldexp(1.0, -700)}) {
        for (const int n : {1, 2, 3, 5, 9}) {
            for (const Engine& e : engines) {
                CountOptions options;
                options.method = e.method;
                options.dulmage_mendelsohn = options.reductions = e.front_end;
                const CountResult r = permanent(DenseMatrix<double>(n, n, a), options);
                const double log10_expected =
                    std::lgamma(n + 1.0) / std::log(10.0) + n * std::log10(std::fabs(a));
                const std::string where = "a " + std::to_string(a) + " n " + std::to_string(n) +
                                          " method " + to_string(e.method) +
                                          (e.front_end ? "" : " --no-dm --no-reduce");
                EXPECT_NEAR(r.log10_abs, log10_expected, 1e-12) << where;
                EXPECT_EQ(r.sign, a < 0 && n % 2 == 1 ? -1 : 1) << where;
                // Orders up to 17 count in certified arithmetic: a proven bound, 1.2e-12 at n = 9.
                EXPECT_LT(r.rel_error, 1e-11) << where;
                const std::string text = r.value_string();
                const std::size_t e_at = text.find('e');
                ASSERT_NE(e_at, std::string::npos) << where << ": " << text;
                EXPECT_EQ(std::stoll(text.substr(e_at + 1)), std::floor(log10_expected))
                    << where << ": " << text;
                const double digits = std::fabs(std::stod(text.substr(0, e_at)));
                EXPECT_NEAR(digits, std::pow(10.0, log10_expected - std::floor(log10_expected)),
                            1e-11)
                    << where << ": " << text;
            }
        }
    }
    // Complex: (1+i)·2^700 everywhere, n = 2: 2·(1+i)^2·2^1400 = 4i·2^1400.
    const std::complex<double> c(std::ldexp(1.0, 700), std::ldexp(1.0, 700));
    const CountResult z = permanent(DenseMatrix<std::complex<double>>(2, 2, c));
    const std::string text = z.value_string();
    EXPECT_EQ(text.substr(0, 2), "0+") << text;
    EXPECT_EQ(text.back(), 'i') << text;
    EXPECT_NEAR(z.log10_abs, std::log10(4.0) + 1400 * std::log10(2.0), 1e-12);
}

TEST(ClosedForms, GridGraphsFollowKasteleyn) {
    for (const auto& [m, n] : {std::pair{2, 2}, {2, 3}, {3, 4}, {4, 4}, {4, 5}, {5, 6}, {6, 6},
                              {4, 8}, {2, 16}, {6, 7}}) {
        const CountResult r = permanent(test::grid_biadjacency(m, n));
        EXPECT_EQ(r.exact.to_string(), std::to_string(test::kasteleyn_grid(m, n))) << m << "×" << n;
    }
    // Odd area: unequal colour classes, no perfect matching: count 0 with a reason and no
    // engine run (the biadjacency matrix's permanent is a rectangular one).
    const DenseMatrix<std::int64_t> b = test::grid_biadjacency(3, 5);
    std::vector<BipartiteGraph::Edge> edges;
    for (vertex_t i = 0; i < b.rows(); ++i) {
        for (vertex_t j = 0; j < b.cols(); ++j) {
            if (b(i, j) != 0) {
                edges.emplace_back(i, j);
            }
        }
    }
    const CountResult odd = count_perfect_matchings(BipartiteGraph(b.rows(), b.cols(), edges));
    EXPECT_TRUE(odd.exact.is_zero());
    EXPECT_EQ(odd.method, "none");
    EXPECT_FALSE(odd.note.empty());
}

}  // namespace
}  // namespace pmcount
