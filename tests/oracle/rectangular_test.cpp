// Rectangular permanents (m ≤ n: the sum over the injective maps of the rows into the columns;
// m > n: that of the transpose) against a brute force over those maps, on seeded random integer,
// real and complex matrices of every shape up to 5×8, in every arithmetic; closed forms
// (the all-ones m×n matrix: n!/(n − m)!), zero lines, 0×n and the transpose rule.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <random>

#include "numeric/cpp_int_bridge.hpp"
#include "pmcount/count.hpp"
#include "support/closed_forms.hpp"

namespace pmcount {
namespace {

using numeric::cpp_int;

/// Σ over the injective maps σ of rows row.. into the columns outside `used` of Π a_{i,σ(i)},
/// times `product`; `magnitude` gathers Σ |terms| (the scale of the sum's rounding).
template <class T, class Acc>
void injective_sum(const DenseMatrix<T>& a, int row, unsigned used, const Acc& product, Acc& sum,
                   long double& magnitude) {
    if (row == a.rows()) {
        sum += product;
        if constexpr (!std::is_same_v<Acc, cpp_int>) {
            magnitude += std::abs(product);
        }
        return;
    }
    for (int col = 0; col < a.cols(); ++col) {
        if ((used >> col & 1U) == 0 && a(row, col) != T{}) {
            injective_sum(a, row + 1, used | 1U << col, Acc(product * Acc(a(row, col))), sum,
                          magnitude);
        }
    }
}

/// The brute force over injective maps of an m×n matrix with m ≤ n.
template <class T, class Acc>
Acc brute_rectangular(const DenseMatrix<T>& a, long double& magnitude) {
    Acc sum = 0;
    magnitude = 0;
    injective_sum(a, 0, 0U, Acc(1), sum, magnitude);
    return sum;
}

template <class T>
DenseMatrix<T> transpose(const DenseMatrix<T>& a) {
    DenseMatrix<T> t(a.cols(), a.rows());
    for (int i = 0; i < a.rows(); ++i) {
        for (int j = 0; j < a.cols(); ++j) {
            t(j, i) = a(i, j);
        }
    }
    return t;
}

/// Random m×n matrix: each entry zero with probability 1/4, else draw(rng).
template <class T, class Draw>
DenseMatrix<T> random_matrix(int m, int n, std::uint64_t seed, Draw draw) {
    std::mt19937_64 rng(seed);
    std::bernoulli_distribution zero(0.25);
    DenseMatrix<T> a(m, n);
    for (int i = 0; i < m; ++i) {
        for (int j = 0; j < n; ++j) {
            a(i, j) = zero(rng) ? T{} : draw(rng);
        }
    }
    return a;
}

CountOptions with(Precision precision, Method method = Method::automatic) {
    CountOptions o;
    o.precision = precision;
    o.method = method;
    return o;
}

/// The shapes m×n, m < n, the brute force runs on (n ≤ 8), each with its transpose.
constexpr std::pair<int, int> kShapes[] = {{1, 1}, {1, 5}, {2, 3}, {2, 7}, {3, 4},
                                           {3, 6}, {4, 5}, {4, 8}, {5, 7}, {5, 8}};

TEST(RectangularPermanent, IntegerMatchesInjectiveMapsExactly) {
    std::uint64_t seed = 1;
    for (const auto& [m, n] : kShapes) {
        for (int trial = 0; trial < 3; ++trial) {
            const auto a = random_matrix<std::int64_t>(m, n, seed++, [](auto& rng) {
                return std::uniform_int_distribution<std::int64_t>(-9, 9)(rng);
            });
            long double unused = 0;
            const std::string expected = brute_rectangular<std::int64_t, cpp_int>(a, unused).str();
            for (const auto& matrix : {a, transpose(a)}) {
                SCOPED_TRACE(std::to_string(matrix.rows()) + "×" + std::to_string(matrix.cols()));
                const CountResult r = permanent(matrix);
                ASSERT_TRUE(r.is_exact);
                EXPECT_EQ(r.exact.to_string(), expected);
                EXPECT_LE(r.stats.n, n);  // the extension's order: the nonzero lines
                // Huge entries: the extension's permanent needs many primes, the quotient too.
                DenseMatrix<std::int64_t> big = matrix;
                for (int i = 0; i < big.rows(); ++i) {
                    for (int j = 0; j < big.cols(); ++j) {
                        big(i, j) *= std::int64_t{1} << 40;
                    }
                }
                EXPECT_EQ(permanent(big).exact.to_string(),
                          cpp_int(cpp_int(expected.c_str()) << (40 * m)).str());
            }
        }
    }
}

TEST(RectangularPermanent, RealWithinItsErrorInEveryArithmetic) {
    std::uint64_t seed = 100;
    for (const auto& [m, n] : kShapes) {
        const auto a = random_matrix<double>(m, n, seed++, [](auto& rng) {
            return std::uniform_real_distribution<double>(-1, 1)(rng);
        });
        long double magnitude = 0;
        const long double expected = brute_rectangular<double, long double>(a, magnitude);
        const long double slack = 64 * magnitude * std::numeric_limits<long double>::epsilon();
        for (const auto& matrix : {a, transpose(a)}) {
            for (const Precision p :
                 {Precision::automatic, Precision::double_double, Precision::certified}) {
                SCOPED_TRACE(std::to_string(matrix.rows()) + "×" + std::to_string(matrix.cols()) +
                             " " + to_string(p));
                const CountResult r = permanent(matrix, with(p));
                ASSERT_FALSE(r.is_exact);
                EXPECT_LE(std::fabs(r.value - expected), r.abs_error + slack);
                EXPECT_LE(r.abs_error, 1e-12 * static_cast<double>(magnitude));
                EXPECT_EQ(r.error_kind, p == Precision::certified ? "bound" : "estimate");
            }
        }
    }
}

TEST(RectangularPermanent, ComplexWithinItsError) {
    std::uint64_t seed = 200;
    for (const auto& [m, n] : kShapes) {
        const auto a = random_matrix<std::complex<double>>(m, n, seed++, [](auto& rng) {
            std::uniform_real_distribution<double> part(-1, 1);
            return std::complex<double>(part(rng), part(rng));
        });
        long double magnitude = 0;
        const auto expected =
            brute_rectangular<std::complex<double>, std::complex<long double>>(a, magnitude);
        const long double slack = 64 * magnitude * std::numeric_limits<long double>::epsilon();
        for (const auto& matrix : {a, transpose(a)}) {
            SCOPED_TRACE(std::to_string(matrix.rows()) + "×" + std::to_string(matrix.cols()));
            const CountResult r = permanent(matrix);
            ASSERT_FALSE(r.is_exact);
            const std::complex<long double> value(r.complex_value.real(), r.complex_value.imag());
            EXPECT_LE(std::abs(value - expected), r.abs_error + slack);
            EXPECT_LE(r.abs_error, 1e-12 * static_cast<double>(magnitude));
        }
    }
}

TEST(RectangularPermanent, AllOnesIsFallingFactorial) {
    // ones(m, n): n!/(n − m)! injective maps; the extension of order 20 has 20! ≈ 2^61 terms.
    for (int n = 1; n <= 20; ++n) {
        for (int m = 0; m <= n; m += (n > 12 ? 7 : 1)) {
            const std::string expected = cpp_int(test::factorial(n) / test::factorial(n - m)).str();
            SCOPED_TRACE(std::to_string(m) + "×" + std::to_string(n));
            EXPECT_EQ(permanent(DenseMatrix<std::int64_t>(m, n, 1)).exact.to_string(), expected);
            EXPECT_EQ(permanent(DenseMatrix<std::int64_t>(n, m, 1)).exact.to_string(), expected);
            const CountResult real = permanent(DenseMatrix<double>(m, n, 1.0));
            ASSERT_FALSE(real.is_exact);
            EXPECT_LE(std::fabs(real.value - std::stod(expected)),
                      real.abs_error + 1e-16 * std::stod(expected));
        }
    }
    // The case: ones((3, 4)) is 24, a floating result for a floating input.
    const CountResult r = permanent(DenseMatrix<double>(3, 4, 1.0));
    EXPECT_FALSE(r.is_exact);
    EXPECT_NEAR(r.value, 24, r.abs_error);
    EXPECT_LE(r.rel_error, 1e-12);
    EXPECT_NE(r.note.find("the permanent of the 3×4 matrix is that of the 4×4 matrix made by "
                          "appending 1 row of ones, divided by 1!"),
              std::string::npos)
        << r.note;
}

TEST(RectangularPermanent, EmptyShortSideIsOne) {
    // 0×n and n×0: one injective map (the empty one), in the input's arithmetic.
    for (const auto& [rows, cols] : {std::pair{0, 5}, std::pair{7, 0}, std::pair{0, 40}}) {
        const CountResult exact = permanent(DenseMatrix<std::int64_t>(rows, cols));
        ASSERT_TRUE(exact.is_exact);
        EXPECT_EQ(exact.exact.to_string(), "1");
        const CountResult real = permanent(DenseMatrix<double>(rows, cols));
        ASSERT_FALSE(real.is_exact);
        EXPECT_EQ(real.value, 1.0);
    }
}

TEST(RectangularPermanent, ZeroLinesAndHallFailures) {
    // A zero row of the short side: every map uses it, the permanent is 0. A zero column of the
    // long side is missed by some maps: [[1, 2, 0], [3, 4, 0]] has permanent 1·4 + 2·3 = 10.
    const DenseMatrix<std::int64_t> zero_row(2, 4,
                                             std::vector<std::int64_t>{1, 2, 3, 4, 0, 0, 0, 0});
    EXPECT_EQ(permanent(zero_row).exact.to_string(), "0");
    EXPECT_EQ(permanent(transpose(zero_row)).exact.to_string(), "0");
    const DenseMatrix<std::int64_t> zero_col(2, 3, std::vector<std::int64_t>{1, 2, 0, 3, 4, 0});
    EXPECT_EQ(permanent(zero_col).exact.to_string(), "10");
    const CountResult t = permanent(transpose(zero_col));
    EXPECT_EQ(t.exact.to_string(), "10");
    EXPECT_NE(t.note.find("is that of its transpose, that of the 2×2 matrix made by dropping "
                          "the 1 zero row(s)"),
              std::string::npos)
        << t.note;
    // Two rows that share one nonzero column: no injective map has a nonzero product.
    const DenseMatrix<double> hall(2, 3, std::vector<double>{0, 1.5, 0, 0, 2.5, 0});
    const CountResult h = permanent(hall);
    EXPECT_EQ(h.value, 0.0);
    const CountResult ht = permanent(transpose(hall));
    EXPECT_EQ(ht.value, 0.0);
    EXPECT_TRUE(ht.structure.hall_rows.empty());  // they would name the transpose's lines
}

TEST(RectangularPermanent, ZeroLinesOfTheLongerSideAreDropped) {
    // 2×60 with three nonzero columns: the extension has order 3, not 60 (2^59 Gray steps).
    DenseMatrix<std::int64_t> a(2, 60);
    a(0, 7) = 2;
    a(0, 30) = 3;
    a(1, 30) = 5;
    a(1, 59) = 7;
    for (const auto& matrix : {a, transpose(a)}) {
        const CountResult r = permanent(matrix);
        EXPECT_EQ(r.exact.to_string(), "45");  // 2·5 + 2·7 + 3·7
        EXPECT_EQ(r.stats.n, 3);
        EXPECT_NE(r.note.find("made by dropping the 57 zero "), std::string::npos) << r.note;
    }
    // Fewer nonzero columns than rows: every injective map meets a zero.
    DenseMatrix<double> b(3, 50);
    b(0, 4) = b(1, 4) = b(2, 9) = 1.5;
    const CountResult r = permanent(b);
    EXPECT_EQ(r.value, 0.0);
    EXPECT_NE(r.note.find("only 2 column(s) have a nonzero entry, fewer than the 3 rows"),
              std::string::npos)
        << r.note;
}

TEST(RectangularPermanent, PerfectMatchingsWithUnequalSidesStayZero) {
    // Counting perfect matchings is not a permanent: a 2×3 graph has none.
    const CountResult r = count_perfect_matchings(BipartiteGraph(2, 3, {{0, 0}, {1, 1}, {1, 2}}));
    EXPECT_EQ(r.exact.to_string(), "0");
    EXPECT_NE(r.note.find("no perfect matching, count is 0"), std::string::npos) << r.note;
    EXPECT_EQ(
        permanent(DenseMatrix<std::int64_t>(2, 3, std::vector<std::int64_t>{1, 0, 0, 0, 1, 1}))
            .exact.to_string(),
        "2");
}

}  // namespace
}  // namespace pmcount
