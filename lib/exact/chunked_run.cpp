#include "exact/chunked_run.hpp"

#include <omp.h>

#include <numeric>
#include <vector>

#include "run/session.hpp"

namespace pmcount::exact {

int resolve_threads(int requested) noexcept {
    return requested > 0 ? requested : std::max(1, omp_get_max_threads());
}

void run_chunks(int bits, const EngineRun& run,
                const std::function<void(std::uint64_t, std::uint64_t, std::uint64_t)>& body,
                const ChunkRecords* records) {
    const int chunk_log2 = chunk_log2_for(bits);
    const std::uint64_t chunk = std::uint64_t{1} << chunk_log2;
    const std::int64_t chunks = std::int64_t{1} << (bits - chunk_log2);
    // Below 2^18 steps (well under a millisecond) starting threads costs more than it saves,
    // and a busy core makes the others wait at the barrier.
    const int threads =
        bits < 18 ? 1
                  : static_cast<int>(std::min<std::int64_t>(resolve_threads(run.threads), chunks));

    ProgressThrottle progress(run);
    run::ChunkWork work;
    work.compute = [&](std::uint64_t c, unsigned char* record) {
        body(c, c * chunk, (c + 1) * chunk);
        if (records != nullptr) {
            records->save(c, record);
        }
    };
    if (run.session != nullptr && records != nullptr) {
        work.load = records->load;
        work.progress = [&progress](double fraction) { progress.report(fraction); };
        run.session->run_task(bits, static_cast<std::uint64_t>(chunks), records->bytes, threads,
                              work);
        return;
    }
    // No session (an engine called directly): every chunk here, on the same scheduler.
    std::vector<std::uint64_t> all(static_cast<std::size_t>(chunks));
    std::iota(all.begin(), all.end(), std::uint64_t{0});
    std::atomic<std::int64_t> done{0};
    run::compute_chunks(
        all, records != nullptr ? records->bytes : 0, threads, work,
        [&done](std::uint64_t, const unsigned char*) {
            done.fetch_add(1, std::memory_order_relaxed);
        },
        [&] {
            progress.report(static_cast<double>(done.load(std::memory_order_relaxed)) /
                            static_cast<double>(chunks));
            return true;
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
    // No session (an engine called directly): a session of this process alone keeps the records.
    run::SessionOptions alone;
    alone.distributed = false;
    run::Session local({}, alone);
    (run.session != nullptr ? *run.session : local).run_task(bits, chunks, record_bytes, 1, work);
}

}  // namespace pmcount::exact
