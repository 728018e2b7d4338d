#include "numeric/crt.hpp"

#include <algorithm>
#include <string>

#include "numeric/cpp_int_bridge.hpp"
#include "numeric/montgomery.hpp"
#include "numeric/primes.hpp"
#include "pmcount/error.hpp"

namespace pmcount::numeric {

BigInt crt_symmetric(const std::vector<std::uint64_t>& residues,
                     const std::vector<std::uint64_t>& primes) {
    if (residues.size() != primes.size() || primes.empty()) {
        throw InvalidArgument("crt_symmetric: need one residue per prime, at least one");
    }
    // Garner: V = c0 + c1·p0 + c2·p0·p1 + …, each c_k in [0, p_k).
    cpp_int value = residues[0] % primes[0];
    cpp_int modulus = primes[0];
    for (std::size_t k = 1; k < primes.size(); ++k) {
        const std::uint64_t p = primes[k];
        const std::uint64_t value_mod_p = static_cast<std::uint64_t>(value % p);
        const std::uint64_t modulus_mod_p = static_cast<std::uint64_t>(modulus % p);
        const std::uint64_t c =
            mul_mod(sub_mod(residues[k] % p, value_mod_p, p), inverse_mod(modulus_mod_p, p), p);
        value += modulus * c;
        modulus *= p;
    }
    if (2 * value > modulus) {
        value -= modulus;
    }
    return from_cpp_int(value);
}

BigInt crt_with_spare(const std::vector<std::uint64_t>& residues,
                      const std::vector<std::uint64_t>& primes, const char* engine) {
    if (residues.size() != primes.size() || primes.size() < 2) {
        throw InvalidArgument("crt_with_spare: need one residue per prime, at least two");
    }
    const std::vector<std::uint64_t> used_primes(primes.begin(), primes.end() - 1);
    const std::vector<std::uint64_t> used_residues(residues.begin(), residues.end() - 1);
    BigInt value = crt_symmetric(used_residues, used_primes);
    if (mod(value, primes.back()) != residues.back() % primes.back()) {
        throw InternalError(std::string(engine) +
                            ": the spare prime disagrees with the CRT reconstruction");
    }
    return value;
}

std::uint64_t mod(const BigInt& value, std::uint64_t p) {
    const cpp_int v = to_cpp_int(value);
    cpp_int r = v % p;  // sign follows v
    if (r < 0) {
        r += p;
    }
    return static_cast<std::uint64_t>(r);
}

std::vector<std::uint64_t> large_primes_with_spare(double bound_log2) {
    // Π p > 2·|V| + 1 takes ⌊(bound + 1)/62⌋ + 1 primes of more than 62 bits; one more checks.
    const auto needed =
        static_cast<std::size_t>(std::max(0.0, bound_log2 + 1.0) / kLargePrimeLog2) + 1;
    return large_primes(needed + 1);
}

}  // namespace pmcount::numeric
