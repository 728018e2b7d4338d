// --precision certified: on near-singular matrices whose rows cancel, the interval value ±
// abs_error holds the exact permanent every time, checked in exact rational arithmetic against
// the exact engine's count of a scaled integer copy (entries of 50 bits, so the row sums y round
// at every Gray step). The default precision's result holds its figure every time too: on the
// matrices whose permanent cancels to almost nothing it counts again (CountResult::escalated_from):
// these orders run certified from the start, so the recount is in double-double. The explicit double and double-double estimates are held to
// their figures on all 400 too (they hold; nothing proves that they must, so a miss here is a
// finding about the estimate, not noise).
#include <gtest/gtest.h>

#include <boost/multiprecision/cpp_int.hpp>
#include <cmath>
#include <complex>
#include <cstdint>
#include <iostream>
#include <random>
#include <string>
#include <vector>

#include "pmcount/count.hpp"
#include "pmcount/error.hpp"
#include "pmcount/matrix.hpp"
#include "support/cancelling_matrices.hpp"

namespace pmcount {
namespace {

using test::cancelling_matrix;
using test::exact_permanent;
using test::holds;
using test::kEntryBits;
using test::nearly_singular_matrix;
using test::scaled_copy;

/// Of --precision double and dd, asked for explicitly (kept, no escalation): how many results
/// miss the exact permanent by more than their error figure.
int explicit_misses(const DenseMatrix<double>& a, const BigInt& exact, int n) {
    int misses = 0;
    for (const Precision p : {Precision::double_precision, Precision::double_double}) {
        CountOptions o;
        o.backend = Backend::cpu;
        o.precision = p;
        const CountResult r = permanent(a, o);
        EXPECT_EQ(r.error_kind, "estimate");
        EXPECT_EQ(r.escalated_from, "");
        if (!holds(exact, n, r.value, r.abs_error)) {
            ++misses;
            ADD_FAILURE() << to_string(p) << " misses: " << r.value << " ± " << r.abs_error
                          << ", exact " << exact.to_string() << " · 2^-" << kEntryBits * n;
        }
    }
    return misses;
}

TEST(Certified, TheIntervalHoldsTheExactPermanentOfEveryCancellingMatrix) {
    int estimate_misses = 0;
    double worst_ratio = 0;  // certified bound / actual error
    for (std::uint64_t seed = 0; seed < 200; ++seed) {
        const int n = 6 + static_cast<int>(seed % 9);  // 6 … 14
        const DenseMatrix<std::int64_t> m = cancelling_matrix(n, 1000 + seed);
        const BigInt exact = exact_permanent(m);
        const DenseMatrix<double> a = scaled_copy(m);
        CountOptions o;
        o.backend = Backend::cpu;
        o.precision = Precision::certified;
        const CountResult certified = permanent(a, o);
        ASSERT_FALSE(certified.is_exact);
        EXPECT_EQ(certified.error_kind, "bound");
        EXPECT_TRUE(holds(exact, n, certified.value, certified.abs_error))
            << "seed " << seed << ", n " << n << ": " << certified.value << " ± "
            << certified.abs_error << ", exact " << exact.to_string() << " · 2^-" << kEntryBits * n;
        estimate_misses += explicit_misses(a, exact, n);
        o.precision = Precision::automatic;
        const CountResult standard = permanent(a, o);
        EXPECT_TRUE(holds(exact, n, standard.value, standard.abs_error))
            << "seed " << seed << ", default precision: " << standard.value << " ± "
            << standard.abs_error;
        const double truth = std::ldexp(exact.to_double(), -kEntryBits * n);
        const double actual = std::fabs(certified.value - truth);
        if (actual > 0) {
            worst_ratio = std::max(worst_ratio, actual / certified.abs_error);
        }
    }
    std::cout << "double's and double-double's estimates missed " << estimate_misses
              << " times on 200; the certified bound's tightest use: " << worst_ratio << "\n";
    EXPECT_EQ(estimate_misses, 0);  // every precision holds its figure (issue: "zero failures")
}

TEST(Certified, TheDefaultPrecisionCountsAgainWhenCancellationEatsTheDigits) {
    int escalated = 0, estimate_misses = 0;
    double worst_rel_error = 0;
    for (std::uint64_t seed = 0; seed < 200; ++seed) {
        const int n = 6 + static_cast<int>(seed % 9);  // 6 … 14
        const DenseMatrix<std::int64_t> m = nearly_singular_matrix(n, 5000 + seed);
        const BigInt exact = exact_permanent(m);
        const DenseMatrix<double> a = scaled_copy(m);
        CountOptions o;
        o.backend = Backend::cpu;
        const CountResult r = permanent(a, o);
        EXPECT_TRUE(holds(exact, n, r.value, r.abs_error))
            << "seed " << seed << ", n " << n << ": " << r.value << " ± " << r.abs_error << " ("
            << r.arithmetic << "), exact " << exact.to_string() << " · 2^-" << kEntryBits * n;
        if (r.escalated_from == "double") {
            // Orders up to 17 ran certified at once (walk_error.hpp's kCertifiedWalkLog2):
            // only double-double adds digits to that.
            ++escalated;
            EXPECT_NE(r.arithmetic.find("double-double"), std::string::npos) << r.arithmetic;
            EXPECT_NE(r.note.find("cancellation"), std::string::npos) << r.note;
        }
        o.precision = Precision::certified;
        const CountResult certified = permanent(a, o);
        EXPECT_TRUE(holds(exact, n, certified.value, certified.abs_error)) << "seed " << seed;
        estimate_misses += explicit_misses(a, exact, n);
        o.precision = Precision::double_precision;
        worst_rel_error = std::max(worst_rel_error, permanent(a, o).rel_error);
    }
    std::cout << escalated << " of 200 counted again in double-double; the explicit "
              << "double and double-double estimates missed " << estimate_misses
              << " times (double's largest relative error figure: " << worst_rel_error << ")\n";
    // The permanents are ~2^-46/n of the terms: every one is past kCancellationRelError.
    EXPECT_EQ(escalated, 200);
    EXPECT_EQ(estimate_misses, 0);
}

TEST(Certified, TheDefaultPrecisionKeepsDoubleWithoutCancellation) {
    std::mt19937_64 rng(77);
    DenseMatrix<double> a(12, 12);
    for (int i = 0; i < 12; ++i) {
        for (int j = 0; j < 12; ++j) {
            a(i, j) = static_cast<double>(rng() >> 11) * 0x1p-53 - 0.5;
        }
    }
    CountOptions o;
    o.backend = Backend::cpu;
    const CountResult r = permanent(a, o);
    EXPECT_EQ(r.escalated_from, "");
    EXPECT_EQ(r.error_kind, "estimate");
    EXPECT_LT(r.rel_error, 1e-10);
}

TEST(Certified, RefusesWhatItCannotCertify) {
    DenseMatrix<double> a(3, 3, 0.5);
    CountOptions o;
    o.precision = Precision::certified;
    o.method = Method::sparyser;
    EXPECT_THROW(permanent(a, o), InvalidArgument);
    o.method = Method::automatic;
    DenseMatrix<std::complex<double>> c(2, 2, std::complex<double>(1.0, 1.0));
    o.backend = Backend::cpu;
    EXPECT_THROW(permanent(c, o), InvalidArgument);
    // Exact inputs keep their exact count; a certified run of one is an interval around it.
    const CountResult r = permanent(a, o);
    EXPECT_EQ(r.error_kind, "bound");
    EXPECT_LE(std::fabs(r.value - 6 * 0.125), r.abs_error + 1e-300);
    EXPECT_GT(r.abs_error, 0);
}

}  // namespace
}  // namespace pmcount
