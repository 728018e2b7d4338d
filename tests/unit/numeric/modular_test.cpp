#include <gtest/gtest.h>

#include <random>

#include "numeric/cpp_int_bridge.hpp"
#include "numeric/crt.hpp"
#include "numeric/montgomery.hpp"
#include "numeric/permanent_bound.hpp"
#include "numeric/primes.hpp"
#include "exact/brute_force.hpp"

namespace pmcount::numeric {
namespace {

TEST(Primes, MillerRabinKnownValues) {
    EXPECT_FALSE(is_prime(0));
    EXPECT_FALSE(is_prime(1));
    EXPECT_TRUE(is_prime(2));
    EXPECT_TRUE(is_prime(37));
    EXPECT_TRUE(is_prime((std::uint64_t{1} << 61) - 1));  // Mersenne prime
    EXPECT_FALSE(is_prime((std::uint64_t{1} << 62) - 1));
    // Carmichael numbers and strong pseudoprimes to several bases.
    for (const std::uint64_t c : {561ULL, 41041ULL, 3215031751ULL, 2152302898747ULL,
                                  3474749660383ULL, 341550071728321ULL,
                                  3825123056546413051ULL}) {
        EXPECT_FALSE(is_prime(c)) << c;
    }
    // Trial division agrees on a range.
    for (std::uint64_t n = 0; n < 5000; ++n) {
        bool prime = n >= 2;
        for (std::uint64_t d = 2; d * d <= n; ++d) {
            if (n % d == 0) {
                prime = false;
                break;
            }
        }
        EXPECT_EQ(is_prime(n), prime) << n;
    }
}

TEST(Primes, LargePrimesAreDistinctLargePrimes) {
    const auto primes = large_primes(40);
    ASSERT_EQ(primes.size(), 40u);
    for (std::size_t k = 0; k < primes.size(); ++k) {
        EXPECT_TRUE(is_prime(primes[k]));
        EXPECT_LT(primes[k], std::uint64_t{1} << 62);
        EXPECT_GT(std::log2(static_cast<double>(primes[k])), kLargePrimeLog2);
        if (k > 0) {
            EXPECT_LT(primes[k], primes[k - 1]);
        }
    }
    EXPECT_EQ(large_primes(3), std::vector<std::uint64_t>(primes.begin(), primes.begin() + 3));
}

TEST(Montgomery, ProductsMatchPlainModularArithmetic) {
    std::mt19937_64 rng(11);
    for (const std::uint64_t p : large_primes(4)) {
        const Montgomery64 mont(p);
        const std::uint64_t r_inverse = inverse_mod(mont.r_power(1), p);
        for (int trial = 0; trial < 2000; ++trial) {
            const std::uint64_t a = rng() % p;
            const std::uint64_t b = rng();  // unreduced factor below 2^64
            const std::uint64_t expected = mul_mod(mul_mod(a, b % p, p), r_inverse, p);
            EXPECT_EQ(mont.mul(a, b), expected);
            const std::uint64_t x = rng() >> 11, y = rng() >> 11;  // two factors < 2^53
            EXPECT_EQ(mont.redc(uint128_t{x} * y), mul_mod(mul_mod(x % p, y % p, p), r_inverse, p));
        }
        EXPECT_EQ(mont.r_power(0), 1u);
        EXPECT_EQ(mul_mod(mont.r_power(3), inverse_mod(mont.r_power(1), p), p), mont.r_power(2));
    }
}

TEST(Modular, SignedReduction) {
    const std::uint64_t p = large_primes(1)[0];
    EXPECT_EQ(reduce_signed(-1, p), p - 1);
    EXPECT_EQ(reduce_signed(0, p), 0u);
    EXPECT_EQ(reduce_signed(std::numeric_limits<std::int64_t>::min(), p),
              (p - (std::uint64_t{1} << 63) % p) % p);
    EXPECT_EQ(sub_mod(3, 5, 7), 5u);
    EXPECT_EQ(add_mod(6, 5, 7), 4u);
    EXPECT_EQ(mul_mod(inverse_mod(12345, p), 12345, p), 1u);
}

TEST(Crt, ReconstructsSignedIntegers) {
    std::mt19937_64 rng(5);
    const auto primes = large_primes(6);
    for (int trial = 0; trial < 300; ++trial) {
        const std::size_t k = 1 + rng() % primes.size();
        const std::vector<std::uint64_t> used(primes.begin(), primes.begin() + static_cast<long>(k));
        cpp_int modulus = 1;
        for (const auto p : used) {
            modulus *= p;
        }
        // A value in (−M/2, M/2].
        cpp_int v = 0;
        for (std::size_t limb = 0; limb < k; ++limb) {
            v = (v << 62) + (rng() >> 2);
        }
        v %= modulus / 2;
        if (rng() % 2) {
            v = -v;
        }
        std::vector<std::uint64_t> residues;
        for (const auto p : used) {
            cpp_int r = v % p;
            if (r < 0) {
                r += p;
            }
            residues.push_back(static_cast<std::uint64_t>(r));
        }
        const BigInt back = crt_symmetric(residues, used);
        EXPECT_EQ(to_cpp_int(back), v);
        for (std::size_t i = 0; i < used.size(); ++i) {
            EXPECT_EQ(mod(back, used[i]), residues[i]);
        }
    }
}

TEST(Crt, PrimesWithSpareReconstructEveryValueUpToTheBound) {
    // ±(2^b − 1) round-trips through crt_with_spare for b up to 400 bits, and no prime is wasted:
    // without the spare, one prime fewer could not hold 2·2^b + 1 values.
    for (int bits = 0; bits <= 400; bits += 7) {
        const std::vector<std::uint64_t> primes = large_primes_with_spare(bits);
        cpp_int product = 1;
        for (std::size_t i = 0; i + 1 < primes.size(); ++i) {
            product *= primes[i];
        }
        const cpp_int largest = (cpp_int(1) << bits) - 1;
        EXPECT_GT(product, 2 * largest + 1) << bits;
        EXPECT_LE(product / primes[primes.size() - 2], 2 * (cpp_int(1) << (bits + 62)) + 1)
            << bits;
        for (const cpp_int& v : {largest, cpp_int(-largest)}) {
            std::vector<std::uint64_t> residues;
            for (const auto p : primes) {
                cpp_int r = v % p;
                residues.push_back(static_cast<std::uint64_t>(r < 0 ? r + p : r));
            }
            EXPECT_EQ(to_cpp_int(crt_with_spare(residues, primes, "test")), v) << bits;
        }
    }
}

TEST(PermanentBound, NeverBelowTheTruthAndTightForAllOnes) {
    std::mt19937_64 rng(3);
    for (int trial = 0; trial < 200; ++trial) {
        const int n = 1 + static_cast<int>(rng() % 7);
        const bool binary = trial % 2 == 0;
        DenseMatrix<std::int64_t> a(n, n);
        for (int i = 0; i < n; ++i) {
            for (int j = 0; j < n; ++j) {
                a(i, j) = binary ? static_cast<std::int64_t>(rng() % 2)
                                 : static_cast<std::int64_t>(rng() % 11) - 5;
            }
        }
        const double bound = permanent_bound_log2(a, binary);
        const BigInt perm = exact::brute_force_exact(a);
        if (perm.is_zero()) {
            continue;
        }
        EXPECT_GE(bound, std::log2(std::fabs(perm.to_double()))) << "trial " << trial;
    }
    // All-ones: Brégman gives exactly n!, the 1-norm bound n^n.
    const DenseMatrix<std::int64_t> ones(10, 10, 1);
    EXPECT_NEAR(permanent_bound_log2(ones, true), std::log2(3628800.0) + 1, 1e-6);
    EXPECT_NEAR(permanent_bound_log2(ones, false), 10 * std::log2(10.0) + 1, 1e-6);
    DenseMatrix<std::int64_t> zero_row = ones;
    for (int j = 0; j < 10; ++j) {
        zero_row(4, j) = 0;
    }
    EXPECT_TRUE(std::isinf(permanent_bound_log2(zero_row, true)));
}

/// Σ over the perfect matchings of {0..n−1} of Π a_uv, by pairing the first free vertex.
cpp_int pairings(const DenseMatrix<std::int64_t>& a, std::vector<char>& used) {
    const int n = a.rows();
    int first = 0;
    while (first < n && used[static_cast<std::size_t>(first)] != 0) {
        ++first;
    }
    if (first == n) {
        return 1;
    }
    used[static_cast<std::size_t>(first)] = 1;
    cpp_int sum = 0;
    for (int v = first + 1; v < n; ++v) {
        if (used[static_cast<std::size_t>(v)] == 0 && a(first, v) != 0) {
            used[static_cast<std::size_t>(v)] = 1;
            sum += a(first, v) * pairings(a, used);
            used[static_cast<std::size_t>(v)] = 0;
        }
    }
    used[static_cast<std::size_t>(first)] = 0;
    return sum;
}

TEST(HafnianBound, NeverBelowTheTruthAndNearTheCompleteGraph) {
    std::mt19937_64 rng(5);
    for (int trial = 0; trial < 300; ++trial) {
        const int n = 2 * (1 + static_cast<int>(rng() % 5));
        const bool binary = trial % 2 == 0;
        DenseMatrix<std::int64_t> a(n, n);
        for (int i = 0; i < n; ++i) {
            a(i, i) = static_cast<std::int64_t>(rng() % 5);  // ignored by the hafnian
            for (int j = i + 1; j < n; ++j) {
                a(i, j) = a(j, i) = binary ? static_cast<std::int64_t>(rng() % 3 != 0)
                                           : static_cast<std::int64_t>(rng() % 11) - 5;
            }
        }
        std::vector<char> used(static_cast<std::size_t>(n), 0);
        const cpp_int haf = abs(pairings(a, used));
        if (haf == 0) {
            continue;
        }
        EXPECT_GE(hafnian_bound_log2(a, binary), std::log2(static_cast<double>(haf)))
            << "trial " << trial;
    }
    // K_12 has 11!! = 10395 perfect matchings; half of Brégman's bound on the all-ones
    // permanent (without the diagonal) is within a bit of it.
    DenseMatrix<std::int64_t> complete(12, 12, 1);
    EXPECT_GE(hafnian_bound_log2(complete, true), std::log2(10395.0));
    EXPECT_LT(hafnian_bound_log2(complete, true), std::log2(10395.0) + 1);
    DenseMatrix<std::int64_t> isolated = complete;
    for (int j = 0; j < 12; ++j) {
        isolated(3, j) = isolated(j, 3) = j == 3 ? 1 : 0;  // only a self-loop: ignored
    }
    EXPECT_TRUE(std::isinf(hafnian_bound_log2(isolated, true)));
}

}  // namespace
}  // namespace pmcount::numeric
