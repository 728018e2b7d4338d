#include "run/chunked_run.hpp"

#include <omp.h>

#include <atomic>
#include <exception>
#include <vector>

#include "run/session.hpp"

namespace pmcount::run {

int resolve_threads(int requested) noexcept {
    return requested > 0 ? requested : std::max(1, omp_get_max_threads());
}

void parallel_for(std::int64_t count, int threads, const std::function<void(std::int64_t)>& body) {
    std::atomic<bool> failed{false};
    std::exception_ptr failure;
#pragma omp parallel for schedule(dynamic, 1) num_threads(std::max(1, threads))
    for (std::int64_t i = 0; i < count; ++i) {
        if (failed.load(std::memory_order_relaxed)) {
            continue;
        }
        try {
            body(i);
        } catch (...) {
#pragma omp critical(pmcount_parallel_for)
            if (!failure) {
                failure = std::current_exception();
            }
            failed = true;
        }
    }
    if (failure) {
        std::rethrow_exception(failure);
    }
}

void parallel_units(std::int64_t jobs, std::int64_t total, std::int64_t done, const EngineRun& run,
                    const std::function<std::int64_t(std::int64_t)>& job) {
    ProgressThrottle progress(run);
    std::atomic<std::int64_t> finished{done};
    const int threads = static_cast<int>(
        std::min<std::int64_t>(resolve_threads(run.threads), std::max<std::int64_t>(1, jobs)));
    parallel_for(jobs, threads, [&](std::int64_t i) {
        const std::int64_t units = job(i);
        const std::int64_t now = finished.fetch_add(units, std::memory_order_relaxed) + units;
        if (omp_get_thread_num() == 0) {
            progress.report(static_cast<double>(now) /
                            static_cast<double>(std::max<std::int64_t>(1, total)));
        }
    });
}

namespace {

/// Calls f with the count's session, or, for an engine called directly, with a session of this
/// process alone: it keeps the records and stops the loop as a count's would (Interrupted).
template <class F>
void in_session(const EngineRun& run, F&& f) {
    if (run.session != nullptr) {
        f(*run.session);
        return;
    }
    run::SessionOptions alone;
    alone.distributed = false;
    run::Session local({}, alone);
    f(local);
}

}  // namespace

void run_chunks(int bits, const EngineRun& run,
                const std::function<void(std::uint64_t, std::uint64_t, std::uint64_t)>& body,
                const ChunkRecords& records, int threads_from_bits) {
    const int chunk_log2 = chunk_log2_for(bits);
    const std::uint64_t chunk = std::uint64_t{1} << chunk_log2;
    const std::int64_t chunks = std::int64_t{1} << (bits - chunk_log2);
    const int threads =
        bits < threads_from_bits
            ? 1
            : static_cast<int>(std::min<std::int64_t>(resolve_threads(run.threads), chunks));

    ProgressThrottle progress(run);
    run::ChunkWork work;
    work.compute = [&](std::uint64_t c, unsigned char* record) {
        body(c, c * chunk, (c + 1) * chunk);
        records.save(c, record);
    };
    work.load = records.load;
    work.progress = [&progress](double fraction) { progress.report(fraction); };
    in_session(run, [&](run::Session& session) {
        session.run_task(bits, static_cast<std::uint64_t>(chunks), records.bytes, threads, work);
    });
}

void run_chunk_batches(int bits, std::uint64_t chunks, std::size_t record_bytes,
                       const EngineRun& run, const BatchCompute& compute,
                       const std::function<void(std::uint64_t, const unsigned char*)>& load) {
    ProgressThrottle progress(run);
    run::ChunkWork work;
    work.compute_batch = compute;
    work.load = load;
    work.progress = [&progress](double fraction) { progress.report(fraction); };
    in_session(
        run, [&](run::Session& session) { session.run_task(bits, chunks, record_bytes, 1, work); });
}

}  // namespace pmcount::run
