// Primes for the multi-modular exact engine.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace pmcount::numeric {

/// Deterministic Miller–Rabin for every 64-bit n (bases 2..37 suffice below 3.3·10^24).
bool is_prime(std::uint64_t n) noexcept;

/// The `count` largest primes below 2^bits (2 ≤ bits ≤ 62), descending. Thread-safe; each list is
/// computed once and cached.
std::vector<std::uint64_t> largest_primes_below(int bits, std::size_t count);

/// The `count` largest primes below 2^62, descending (largest_primes_below(62, count)).
std::vector<std::uint64_t> large_primes(std::size_t count);

/// The `count` largest primes below 2^62 that are 1 modulo `modulus` (1 ≤ modulus ≤ 2^40),
/// descending, each above 2^61: the fields that hold the modulus-th roots of unity.
std::vector<std::uint64_t> large_primes_one_mod(std::uint64_t modulus, std::size_t count);

/// A primitive n-th root of unity modulo the prime p, n dividing p − 1.
std::uint64_t primitive_root_of_unity(std::uint64_t n, std::uint64_t p);

/// Number of bits of log2(prime) that large_primes() guarantees for each prime (> 61.99).
inline constexpr double kLargePrimeLog2 = 61.99;

}  // namespace pmcount::numeric
