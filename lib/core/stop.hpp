// Stop requests (pmcount::request_stop(), from a SIGINT or SIGTERM handler or Python's Ctrl-C)
// and the polls that honour them. Any layer may poll: the flag is one lock-free atomic.
//
// Work that keeps records (the chunked exponential loops, run/session.hpp) gives up its chunks
// under way and the session throws Interrupted after writing its checkpoint; work that keeps none
// (generators, planning, the polynomial engines, brute force, set-ups) polls with StopPoll and
// throws through throw_if_stopped(). The request stands until the public call it stopped has
// thrown (stop_boundary), so that every thread of that call sees it, however many poll.
#pragma once

#include <chrono>
#include <cstdint>
#include <future>
#include <memory>
#include <thread>
#include <utility>

#include "pmcount/error.hpp"

namespace pmcount::detail {

/// True once request_stop() was called (and until the call it stopped has thrown). Polled every
/// 0.1 s of work at most by every phase: generators, the structure front end, the planner, the
/// engines, the estimators' set-up and rounds.
bool stop_requested() noexcept;
/// Withdraws the request.
void clear_stop() noexcept;

/// Throws Interrupted ("interrupted while `what`", e.g. "generating the graph") when a stop
/// was requested.
void throw_if_stopped(const char* what);

/// Runs `work` — one long call into code that cannot poll for a stop itself (Boost's planarity
/// test, which takes minutes on grids of 10^6 vertices) — on a thread of its own while this one
/// polls every 20 ms. After a stop request the call is abandoned: it finishes in the background
/// on what it owns (`work` must own its data, captured by value), and throw_if_stopped(what)
/// ends the caller at once. Exceptions of `work` reach the caller.
template <class Work>
auto run_interruptibly(Work work, const char* what) -> decltype(work()) {
    using Result = decltype(work());
    auto task = std::make_shared<std::packaged_task<Result()>>(std::move(work));
    std::future<Result> result = task->get_future();
    std::thread([task] { (*task)(); }).detach();
    while (result.wait_for(std::chrono::milliseconds(20)) != std::future_status::ready) {
        throw_if_stopped(what);
    }
    return result.get();
}

/// Returns f(); when f throws Interrupted, withdraws the stop request first (the next call then
/// runs). Wraps the library's entry points: a count, an estimate, a generator.
template <class F>
decltype(auto) stop_boundary(F&& f) {
    try {
        return f();
    } catch (const Interrupted&) {
        clear_stop();
        throw;
    }
}

/// Counts a loop's work and asks Requested() once per 2^14 steps: at most a millisecond at
/// order 64 (a Gray-code step costs 1–50 ns), a negligible cost.
template <bool (*Requested)() noexcept = stop_requested>
class StopPoll {
public:
    /// After `steps` more steps of work: true when a poll is due and finds a stop requested.
    bool operator()(std::int64_t steps = 1) noexcept {
        left_ -= steps;
        if (left_ > 0) {
            return false;
        }
        left_ = kSteps;
        return Requested();
    }

private:
    static constexpr std::int64_t kSteps = std::int64_t{1} << 14;
    std::int64_t left_ = kSteps;
};

}  // namespace pmcount::detail
