#include "core/stop.hpp"

#include <atomic>
#include <string>

#include "pmcount/options.hpp"
#include "pmcount/error.hpp"

namespace pmcount {

namespace {
// Set from a signal handler: a lock-free atomic is async-signal-safe.
std::atomic<bool> g_stop{false};
static_assert(std::atomic<bool>::is_always_lock_free);
}  // namespace

void request_stop() noexcept {
    g_stop.store(true, std::memory_order_relaxed);
}
void clear_stop_request() noexcept {
    g_stop.store(false, std::memory_order_relaxed);
}

namespace detail {

bool stop_requested() noexcept {
    return g_stop.load(std::memory_order_relaxed);
}
void clear_stop() noexcept {
    g_stop.store(false, std::memory_order_relaxed);
}

void throw_if_stopped(const char* what) {
    if (stop_requested()) {
        throw Interrupted(std::string("interrupted while ") + what);
    }
}

}  // namespace detail
}  // namespace pmcount
