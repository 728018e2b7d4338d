// How much memory one run may use. Beyond the machine's memory the system kills the process
// rather than letting an allocation fail cleanly, so every structure that a small input can grow
// past about a gigabyte is predicted before it is allocated and refused past the limit
// (CountOptions::max_memory, EstimateOptions::max_memory, --max-memory; default half of the
// physical memory): the planner's own on huge graphs, the frontier DP's state tables, the planar
// and Pfaffian engines' elimination, the hafnian's tables, the estimator's populations and
// matrix. The readers refuse a stream larger than the default.
#pragma once

#include <cstdint>
#include <limits>
#include <string>

namespace pmcount::detail {

/// Half the physical memory in bytes (4·10^9 where the system does not say).
double memory_budget_bytes();

/// A memory limit as a bound to compare predictions with: infinity for 0 (no limit).
inline double memory_limit(std::uint64_t max_memory) {
    return max_memory == 0 ? std::numeric_limits<double>::infinity()
                           : static_cast<double>(max_memory);
}

/// "11.7 GiB", "850 MiB", "64 KiB" (binary units, as --max-memory reads them; three
/// significant digits).
std::string format_bytes(double bytes);

/// Throws ProblemTooLarge("`needs` ~X (`detail`); the memory limit (--max-memory) is Y") when
/// `bytes` exceed `max_memory` (0: no limit). `needs` reads like "the frontier DP needs".
void require_memory(double bytes, std::uint64_t max_memory, const std::string& needs,
                    const std::string& detail = "");

}  // namespace pmcount::detail
