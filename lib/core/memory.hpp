// How much memory one run may plan to use: half of this machine's physical memory. Beyond it the
// system kills the process rather than letting an allocation fail cleanly, so the planner refuses
// engines predicted past it and the readers refuse inputs larger than it.
#pragma once

#include <unistd.h>

namespace pmcount::detail {

/// Half the physical memory in bytes (4·10^9 where the system does not say).
inline double memory_budget_bytes() {
    const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
    return pages > 0 && page > 0 ? 0.5 * static_cast<double>(pages) * static_cast<double>(page)
                                 : 4e9;
}

}  // namespace pmcount::detail
