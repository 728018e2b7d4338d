// Memory limits (core/memory.hpp) and the public default (pmcount/count.hpp).
#include "core/memory.hpp"

#include <unistd.h>

#include <cstdio>
#include <iterator>

#include "pmcount/options.hpp"
#include "pmcount/error.hpp"

namespace pmcount {

namespace detail {

double memory_budget_bytes() {
    const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
    return pages > 0 && page > 0 ? 0.5 * static_cast<double>(pages) * static_cast<double>(page)
                                 : 4e9;
}

std::string format_bytes(double bytes) {
    constexpr const char* kUnits[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    int unit = 0;
    while (bytes >= 1024 && unit + 1 < static_cast<int>(std::size(kUnits))) {
        bytes /= 1024;
        ++unit;
    }
    char text[48];
    std::snprintf(text, sizeof text, unit == 0 ? "%.0f %s" : "%.3g %s", bytes, kUnits[unit]);
    return text;
}

void require_memory(double bytes, std::uint64_t max_memory, const std::string& needs,
                    const std::string& detail) {
    if (bytes > memory_limit(max_memory)) {
        throw ProblemTooLarge(needs + " ~" + format_bytes(bytes) +
                              (detail.empty() ? "" : " (" + detail + ")") +
                              "; the memory limit (--max-memory) is " +
                              format_bytes(static_cast<double>(max_memory)));
    }
}

}  // namespace detail

std::uint64_t default_max_memory() noexcept {
    return static_cast<std::uint64_t>(detail::memory_budget_bytes());
}

}  // namespace pmcount
