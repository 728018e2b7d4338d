// Torontonians and loop torontonians: the engine against the definition set by set (brute force
// in double-double), the closed form of a product state, double against double-double within
// the figure, cancelling and near-singular inputs, thread independence, bad input.
#include "exact/torontonian/torontonian.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <random>
#include <string>
#include <vector>

#include "pmcount/count.hpp"
#include "pmcount/error.hpp"
#include "support/engine_run.hpp"
#include "support/float_outcome.hpp"
#include "support/gaussian_states.hpp"

namespace pmcount::exact {
namespace {

using test::error_of;
using test::random_gamma;
using test::random_o;
using test::threads;
using test::value_of;
using C = std::complex<double>;

template <class T>
void expect_near_oracle(const DenseMatrix<T>& o, const std::vector<T>* gamma,
                        const std::string& what) {
    const FloatOutcome oracle = torontonian_brute_force(o, gamma);
    for (const bool dd : {false, true}) {
        const FloatOutcome r = torontonian(o, gamma, dd, threads(2));
        const double diff = std::abs(value_of(r) - value_of(oracle));
        EXPECT_LE(diff, error_of(r) + error_of(oracle)) << what << (dd ? " dd" : " double");
        EXPECT_EQ(value_of(r).imag(), 0.0);
    }
}

TEST(Torontonian, MatchesTheDefinitionOnRandomStates) {
    std::mt19937_64 rng(2018);
    for (int trial = 0; trial < 60; ++trial) {
        const int modes = trial % 9;
        const std::string what = "trial " + std::to_string(trial);
        if (trial % 2 == 0) {
            const auto o = random_o<double>(rng, modes);
            expect_near_oracle<double>(o, nullptr, what + " real");
            const auto g = random_gamma<double>(rng, 2 * modes);
            expect_near_oracle<double>(o, &g, what + " real loop");
        } else {
            const auto o = random_o<C>(rng, modes);
            expect_near_oracle<C>(o, nullptr, what + " complex");
            const auto g = random_gamma<C>(rng, 2 * modes);
            expect_near_oracle<C>(o, &g, what + " complex loop");
        }
    }
}

/// A product state: I − O block diagonal over the modes (mode k's 2×2 block on rows k, k + N),
/// so every term factors and Tor(O) = Π_k (1/√det M_k − 1), lTor(O, γ) = Π_k (e^(q_k/2)/√det M_k
/// − 1) with q_k = γ_kᵀ M_k⁻¹ γ_k*.
TEST(Torontonian, ProductStatesFollowTheClosedForm) {
    std::mt19937_64 rng(7);
    std::uniform_real_distribution<double> u(0.5, 1.0), v(-0.3, 0.3);
    for (const int modes : {1, 5, 12, 17}) {
        const int n2 = 2 * modes;
        DenseMatrix<C> o(n2, n2, C{});
        std::vector<C> gamma(static_cast<std::size_t>(n2));
        long double tor = 1, ltor = 1;
        for (int k = 0; k < modes; ++k) {
            // Every third mode's block scaled far up or down (terms of 10^−40 and 10^6 in one
            // product); a and d are what 1 − o_kk gives back (exactly).
            const double scale = k % 3 != 2 ? 1.0 : (k % 2 == 0 ? 1e40 : 1e-6);
            const double a0 = u(rng) * scale, d0 = u(rng) * scale;
            const double a = 1 - (1 - a0), d = 1 - (1 - d0);
            const C b = C(v(rng), v(rng)) * scale;  // M_k = [[a, conj b], [b, d]], ad − |b|² > 0
            const double det = a * d - std::norm(b);
            ASSERT_GT(det, 0);
            o(k, k) = 1 - a0;
            o(k + modes, k + modes) = 1 - d0;
            o(k + modes, k) = -b;
            o(k, k + modes) = -std::conj(b);
            const double gs = std::sqrt(std::min(scale, 1.0));  // q_k stays of order 1
            const C g0 = C(v(rng), v(rng)) * gs, g1 = C(v(rng), v(rng)) * gs;
            gamma[static_cast<std::size_t>(k)] = g0;
            gamma[static_cast<std::size_t>(k + modes)] = g1;
            // q = γᵀ M⁻¹ γ*, M⁻¹ = [[d, −conj b], [−b, a]]/det
            const C q = (g0 * (d * std::conj(g0) - std::conj(b) * std::conj(g1)) +
                         g1 * (-b * std::conj(g0) + a * std::conj(g1))) /
                        det;
            const long double det_l = static_cast<long double>(a) * d - std::norm(b);
            tor *= 1 / std::sqrt(det_l) - 1;
            ltor *= std::exp(static_cast<long double>(q.real()) / 2) / std::sqrt(det_l) - 1;
        }
        const FloatOutcome r =
            torontonian(o, static_cast<const std::vector<C>*>(nullptr), false, threads(2));
        EXPECT_NEAR(value_of(r).real(), static_cast<double>(tor),
                    error_of(r) + 1e-15 * std::fabs(static_cast<double>(tor)))
            << modes;
        const FloatOutcome l = torontonian(o, &gamma, false, threads(2));
        EXPECT_NEAR(value_of(l).real(), static_cast<double>(ltor),
                    error_of(l) + 1e-15 * std::fabs(static_cast<double>(ltor)))
            << modes;
    }
}

/// O = 0: every term is ±1 and they cancel to 0 exactly (N ≥ 1); the figure is the terms'
/// roundings' bound, far below Σ|term| = 2^N.
TEST(Torontonian, TheVacuumCancelsToZero) {
    for (const int modes : {1, 4, 15}) {
        const DenseMatrix<double> o(2 * modes, 2 * modes, 0.0);
        const FloatOutcome r =
            torontonian(o, static_cast<const std::vector<double>*>(nullptr), false, threads(2));
        EXPECT_EQ(value_of(r).real(), 0.0);
        EXPECT_LE(error_of(r), 1e-13 * std::ldexp(1.0, modes));
    }
    const DenseMatrix<double> empty(0, 0, 0.0);
    EXPECT_EQ(value_of(torontonian(empty, static_cast<const std::vector<double>*>(nullptr), false,
                                   threads(1)))
                  .real(),
              1.0);
}

/// Double against double-double: the double figure (the tracked first-order error) covers the
/// difference and follows it (within 10×, beyond the last rounding); double-double's bound is
/// far smaller.
TEST(Torontonian, TheDoubleFigureHoldsAndIsTight) {
    std::mt19937_64 rng(24);
    for (int trial = 0; trial < 12; ++trial) {
        const int modes = 10 + trial % 5;
        const auto o = random_o<C>(rng, modes, 1.0, trial % 3 == 0 ? 1e-4 : 0.1);
        const auto g = random_gamma<C>(rng, 2 * modes);
        for (const bool loop : {false, true}) {
            const auto* gp = loop ? &g : nullptr;
            const FloatOutcome d = torontonian(o, gp, false, threads(2));
            const FloatOutcome dd = torontonian(o, gp, true, threads(2));
            const double diff = std::abs(value_of(d) - value_of(dd));
            EXPECT_LE(diff, error_of(d)) << trial << loop;
            EXPECT_LE(error_of(d), 10 * diff + 0x1p-50 * std::abs(value_of(dd))) << trial << loop;
            EXPECT_LE(error_of(dd), 1e-12 * error_of(d) + 1e-15 * std::abs(value_of(dd)));
            EXPECT_GT(error_of(d), 0.0);
        }
    }
}

/// A nearly singular I − O: one mode's block with eigenvalue 1e−13. Double loses the pivots'
/// digits and says so (an infinite or large figure), the double-double answer is within its
/// figure of the oracle's.
TEST(Torontonian, NearlySingularInputsAreNotPassedOff) {
    std::mt19937_64 rng(5);
    const int modes = 6;
    DenseMatrix<double> o = random_o<double>(rng, modes, 0.5, 0.3);
    // Mode 2's x and p rows nearly equal: M's rows (2, 2+N) nearly dependent.
    const int a = 2, b = 2 + modes;
    for (int j = 0; j < 2 * modes; ++j) {
        const double m = (j == a ? 1.0 : 0.0) - o(a, j);
        o(b, j) = (j == b ? 1.0 : 0.0) - m * (1 + 1e-13);
        o(j, b) = o(b, j);
    }
    // Keep the matrix symmetric with a positive (tiny) Schur complement on rows a, b.
    const double mab = -o(a, b);
    o(b, b) = 1 - (1 - o(a, a)) * (1 + 1e-13) * (1 + 1e-13) - 1e-12;
    o(a, b) = o(b, a) = -mab;
    const FloatOutcome oracle =
        torontonian_brute_force(o, static_cast<const std::vector<double>*>(nullptr));
    const FloatOutcome d =
        torontonian(o, static_cast<const std::vector<double>*>(nullptr), false, threads(2));
    EXPECT_LE(std::abs(value_of(d) - value_of(oracle)), error_of(d) + error_of(oracle));
    EXPECT_GT(error_of(d) / std::abs(value_of(oracle)), 1e-6);  // the caller must count again
    const CountResult r = pmcount::torontonian(o);
    EXPECT_EQ(r.escalated_from, "double");
    EXPECT_LE(std::fabs(r.value - value_of(oracle).real()), r.abs_error + error_of(oracle));
    EXPECT_LT(r.rel_error, 1e-6);
}

TEST(Torontonian, ReorderingTheModesKeepsTheValue) {
    std::mt19937_64 rng(11);
    const int modes = 9;
    const auto o = random_o<C>(rng, modes);
    std::vector<int> perm(static_cast<std::size_t>(modes));
    for (int k = 0; k < modes; ++k) {
        perm[static_cast<std::size_t>(k)] = (5 * k + 3) % modes;
    }
    DenseMatrix<C> p(2 * modes, 2 * modes);
    const auto row = [&](int i) {
        return i < modes ? perm[static_cast<std::size_t>(i)]
                         : perm[static_cast<std::size_t>(i - modes)] + modes;
    };
    for (int i = 0; i < 2 * modes; ++i) {
        for (int j = 0; j < 2 * modes; ++j) {
            p(i, j) = o(row(i), row(j));
        }
    }
    const auto* none = static_cast<const std::vector<C>*>(nullptr);
    const FloatOutcome x = torontonian(o, none, false, threads(2));
    const FloatOutcome y = torontonian(p, none, false, threads(2));
    EXPECT_LE(std::abs(value_of(x) - value_of(y)), error_of(x) + error_of(y));
}

TEST(Torontonian, TheValueDoesNotDependOnTheThreads) {
    std::mt19937_64 rng(3);
    const auto o = random_o<C>(rng, 15);
    const auto g = random_gamma<C>(rng, 30);
    const FloatOutcome one = torontonian(o, &g, false, threads(1));
    const FloatOutcome two = torontonian(o, &g, false, threads(2));
    EXPECT_EQ(value_of(one), value_of(two));
    EXPECT_EQ(error_of(one), error_of(two));
}

TEST(Torontonian, TheEntryPointsReportWhatTheyRan) {
    std::mt19937_64 rng(99);
    const auto o = random_o<C>(rng, 7);
    const auto g = random_gamma<C>(rng, 14);
    const CountResult r = pmcount::torontonian(o);
    EXPECT_EQ(r.method, "torontonian");
    EXPECT_EQ(r.error_kind, "estimate");
    EXPECT_EQ(r.arithmetic, "double (complex)");
    EXPECT_EQ(r.stats.gray_steps, 128U);  // every set of the 7 modes
    CountOptions brute;
    brute.method = Method::brute_force;
    const CountResult b = pmcount::torontonian(o, brute);
    EXPECT_EQ(b.method, "brute-force");
    EXPECT_LE(std::fabs(r.value - b.value), r.abs_error + b.abs_error);
    CountOptions dd;
    dd.precision = Precision::double_double;
    const CountResult l = pmcount::loop_torontonian(o, g, dd);
    EXPECT_EQ(l.method, "loop-torontonian");
    EXPECT_EQ(l.arithmetic, "double-double (complex)");
    const CountResult lb = pmcount::loop_torontonian(o, g, brute);
    EXPECT_LE(std::fabs(l.value - lb.value), l.abs_error + lb.abs_error);
    CountOptions explain;
    explain.explain_only = true;
    const CountResult e = pmcount::torontonian(o, explain);
    EXPECT_TRUE(e.explained_only);
    EXPECT_NE(e.structure.plan_text.find("2^7 sets of modes"), std::string::npos)
        << e.structure.plan_text;
}

TEST(Torontonian, TermsBeyondDoublesRangeAreRefused) {
    // One mode with I − O = 10^−12·I and γ = 1: its term is e^(10^12)/10^−12.
    DenseMatrix<double> o(2, 2, 0.0);
    o(0, 0) = o(1, 1) = 1 - 1e-12;
    const std::vector<double> gamma{1.0, 1.0};
    EXPECT_THROW(torontonian(o, &gamma, false, threads(1)), InvalidArgument);
    EXPECT_THROW(torontonian(o, &gamma, true, threads(1)), InvalidArgument);
}

TEST(Torontonian, BadInputIsRefusedInOneLine) {
    const auto* none = static_cast<const std::vector<double>*>(nullptr);
    EXPECT_THROW(torontonian(DenseMatrix<double>(3, 3, 0.0), none, false, threads(1)),
                 InvalidArgument);
    EXPECT_THROW(torontonian(DenseMatrix<double>(2, 4, 0.0), none, false, threads(1)),
                 InvalidArgument);
    DenseMatrix<double> asym(4, 4, 0.0);
    asym(0, 1) = 0.1;
    EXPECT_THROW(torontonian(asym, none, false, threads(1)), InvalidArgument);
    DenseMatrix<double> nan(2, 2, 0.0);
    nan(0, 0) = std::nan("");
    EXPECT_THROW(torontonian(nan, none, false, threads(1)), InvalidArgument);
    const std::vector<double> short_gamma(3, 0.0);
    EXPECT_THROW(torontonian(DenseMatrix<double>(4, 4, 0.0), &short_gamma, false, threads(1)),
                 InvalidArgument);
    // I − O indefinite on mode 1 alone (a pivot of −1): named in the message.
    DenseMatrix<double> o(6, 6, 0.0);
    o(1, 1) = 2;
    try {
        torontonian(o, none, false, threads(1));
        FAIL() << "an indefinite I − O was accepted";
    } catch (const InvalidArgument& e) {
        EXPECT_NE(std::string(e.what()).find("modes {1}"), std::string::npos) << e.what();
    }
    EXPECT_THROW(pmcount::torontonian(o), InvalidArgument);
    CountOptions cuda_dd;
    cuda_dd.backend = Backend::cuda;
    cuda_dd.precision = Precision::double_double;
    EXPECT_THROW(pmcount::torontonian(DenseMatrix<double>(2, 2, 0.0), cuda_dd), InvalidArgument);
    CountOptions exact;
    exact.precision = Precision::exact;
    EXPECT_THROW(pmcount::torontonian(DenseMatrix<double>(2, 2, 0.0), exact), InvalidArgument);
}

}  // namespace
}  // namespace pmcount::exact
