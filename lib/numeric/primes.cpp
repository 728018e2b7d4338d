#include "numeric/primes.hpp"

#include <map>
#include <mutex>
#include <string>

#include "numeric/montgomery.hpp"
#include "pmcount/error.hpp"

namespace pmcount::numeric {

bool is_prime(std::uint64_t n) noexcept {
    if (n < 2) {
        return false;
    }
    static constexpr std::uint64_t kBases[] = {2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37};
    for (const std::uint64_t b : kBases) {
        if (n % b == 0) {
            return n == b;
        }
    }
    std::uint64_t d = n - 1;
    int s = 0;
    while ((d & 1) == 0) {
        d >>= 1;
        ++s;
    }
    for (const std::uint64_t a : kBases) {
        std::uint64_t x = pow_mod(a, d, n);
        if (x == 1 || x == n - 1) {
            continue;
        }
        bool composite = true;
        for (int r = 1; r < s; ++r) {
            x = mul_mod(x, x, n);
            if (x == n - 1) {
                composite = false;
                break;
            }
        }
        if (composite) {
            return false;
        }
    }
    return true;
}

std::vector<std::uint64_t> largest_primes_below(int bits, std::size_t count) {
    static std::mutex mutex;
    static std::map<int, std::vector<std::uint64_t>> caches;
    const std::lock_guard<std::mutex> lock(mutex);
    std::vector<std::uint64_t>& cache = caches[bits];
    std::uint64_t candidate = cache.empty() ? (std::uint64_t{1} << bits) - 1 : cache.back() - 2;
    while (cache.size() < count && candidate > 2) {
        if (is_prime(candidate)) {
            cache.push_back(candidate);
        }
        candidate -= 2;
    }
    if (cache.size() < count) {
        throw InvalidArgument("fewer than " + std::to_string(count) + " odd primes below 2^" +
                              std::to_string(bits));
    }
    return {cache.begin(), cache.begin() + static_cast<std::ptrdiff_t>(count)};
}

std::vector<std::uint64_t> large_primes(std::size_t count) { return largest_primes_below(62, count); }

std::vector<std::uint64_t> large_primes_one_mod(std::uint64_t modulus, std::size_t count) {
    if (modulus == 0 || modulus > (std::uint64_t{1} << 40)) {
        throw InvalidArgument("large_primes_one_mod: the modulus must be in [1, 2^40]");
    }
    // Candidates 1 + t·m below 2^62, descending; above 2^61.99 there are about m/φ(m)·2^55
    // primes of the class, far more than any count asked for.
    const std::uint64_t m = modulus % 2 == 0 ? modulus : 2 * modulus;  // odd candidates
    std::vector<std::uint64_t> out;
    const std::uint64_t floor = std::uint64_t{1} << 61;
    for (std::uint64_t candidate = ((std::uint64_t{1} << 62) - 2) / m * m + 1;
         out.size() < count && candidate > floor; candidate -= m) {
        if (is_prime(candidate)) {
            out.push_back(candidate);
        }
    }
    if (out.size() < count) {
        throw InvalidArgument("fewer than " + std::to_string(count) +
                              " primes of 62 bits are 1 modulo " + std::to_string(modulus));
    }
    return out;
}

std::uint64_t primitive_root_of_unity(std::uint64_t n, std::uint64_t p) {
    if (n == 0 || (p - 1) % n != 0) {
        throw InvalidArgument("primitive_root_of_unity: " + std::to_string(n) +
                              " does not divide " + std::to_string(p) + " − 1");
    }
    std::vector<std::uint64_t> factors;  // the primes dividing n
    std::uint64_t rest = n;
    for (std::uint64_t q = 2; q * q <= rest; ++q) {
        if (rest % q == 0) {
            factors.push_back(q);
            while (rest % q == 0) {
                rest /= q;
            }
        }
    }
    if (rest > 1) {
        factors.push_back(rest);
    }
    // h^((p−1)/n) has order dividing n; it is primitive when no n/q power is 1.
    for (std::uint64_t h = 2; h < p; ++h) {
        const std::uint64_t root = pow_mod(h, (p - 1) / n, p);
        bool primitive = true;
        for (const std::uint64_t q : factors) {
            primitive = primitive && pow_mod(root, n / q, p) != 1;
        }
        if (primitive) {
            return root;
        }
    }
    throw InternalError("primitive_root_of_unity: none found");
}

}  // namespace pmcount::numeric
