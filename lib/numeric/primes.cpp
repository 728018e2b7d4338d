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

}  // namespace pmcount::numeric
