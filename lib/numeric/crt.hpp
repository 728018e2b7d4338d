// Chinese remaindering into an exact big integer.
#pragma once

#include <cstdint>
#include <vector>

#include "pmcount/big_int.hpp"

namespace pmcount::numeric {

/// The unique V with V ≡ residues[k] (mod primes[k]) for every k and −M/2 < V ≤ M/2, where M is
/// the product of the (distinct, odd) primes. Garner's mixed-radix algorithm, O(k²) word ops.
BigInt crt_symmetric(const std::vector<std::uint64_t>& residues,
                     const std::vector<std::uint64_t>& primes);

/// crt_symmetric over all primes but the last, checked against the last (the spare): InternalError
/// naming `engine` when the spare residue disagrees (a wrong bound or a wrong residue).
BigInt crt_with_spare(const std::vector<std::uint64_t>& residues,
                      const std::vector<std::uint64_t>& primes, const char* engine);

/// The 62-bit primes (numeric::large_primes) for crt_with_spare of an integer V with
/// |V| ≤ 2^bound_log2: enough for a symmetric reconstruction (Π p > 2|V| + 1), and one spare.
std::vector<std::uint64_t> large_primes_with_spare(double bound_log2);

/// V mod p for a BigInt V, in [0, p).
std::uint64_t mod(const BigInt& value, std::uint64_t p);

}  // namespace pmcount::numeric
