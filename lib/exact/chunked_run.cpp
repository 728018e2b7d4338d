#include "exact/chunked_run.hpp"

#include <omp.h>

#include <exception>

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
    if (run.session != nullptr && records != nullptr) {
        run::ChunkWork work;
        work.compute = [&](std::uint64_t c, unsigned char* record) {
            body(c, c * chunk, (c + 1) * chunk);
            records->save(c, record);
        };
        work.load = records->load;
        work.progress = [&progress](double fraction) { progress.report(fraction); };
        run.session->run_task(bits, static_cast<std::uint64_t>(chunks), records->bytes, threads,
                              work);
        return;
    }
    std::atomic<std::int64_t> done{0};
    // An exception may not leave an OpenMP region (std::terminate): the reporting thread keeps
    // it, the others see `cancelled` and skip the chunks not yet started.
    std::atomic<bool> cancelled{false};
    std::exception_ptr failure;

#pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
    for (std::int64_t c = 0; c < chunks; ++c) {
        if (cancelled.load(std::memory_order_relaxed)) {
            continue;
        }
        const std::uint64_t begin = static_cast<std::uint64_t>(c) * chunk;
        body(static_cast<std::uint64_t>(c), begin, begin + chunk);
        const std::int64_t finished = done.fetch_add(1, std::memory_order_relaxed) + 1;
        if (omp_get_thread_num() == 0) {
            try {
                progress.report(static_cast<double>(finished) / static_cast<double>(chunks));
            } catch (...) {
                failure = std::current_exception();
                cancelled = true;
            }
        }
    }
    if (failure) {
        std::rethrow_exception(failure);
    }
}

}  // namespace pmcount::exact
