// Runs a Gray-code range [0, 2^bits) on OpenMP threads in equal power-of-two chunks.
//
// The chunk layout depends only on `bits`, never on the thread count, and per-chunk
// accumulators are merged in chunk order, so results are bit-for-bit reproducible whatever the
// number of threads. Dynamic scheduling balances uneven chunks (skipping engines, busy cores).
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <functional>
#include <type_traits>
#include <vector>

#include "pmcount/graph.hpp"
#include "pmcount/options.hpp"

namespace pmcount::run {

class Session;

/// How an engine runs: threads and progress reporting.
struct EngineRun {
    int threads = 0;  // 0: all available
    std::function<void(const Progress&)> progress;
    double progress_interval_s = 0.25;
    std::vector<int> gpus;  // GPU engines: the devices to use; empty: every visible one
    /// The count's session (checkpoints, MPI ranks, stop requests); none: plain threads.
    Session* session = nullptr;
    /// A leaf that is the whole graph (the surface Pfaffians', the torus frontier DP's): its
    /// embedding, vertex v being row v.
    const Embedding* embedding = nullptr;
};

/// Each chunk's partial sum as a fixed-size record, so that a Session can write it to a
/// checkpoint or receive it from another rank: save chunk c's sum into `bytes` bytes, load it back.
struct ChunkRecords {
    std::size_t bytes = 0;
    std::function<void(std::uint64_t chunk, unsigned char* out)> save;
    std::function<void(std::uint64_t chunk, const unsigned char* in)> load;
};

/// Whether an accumulator keeps its state in a `sums` vector.
template <class Acc, class = void>
struct HasSums : std::false_type {};
template <class Acc>
struct HasSums<Acc, std::void_t<decltype(std::declval<Acc&>().sums.data())>> : std::true_type {};

/// Records of per-chunk accumulators: trivially copyable ones byte for byte, and those whose
/// state is a `sums` vector (of the same length in every chunk) by its elements.
template <class Acc>
ChunkRecords records_of(std::vector<Acc>& partial) {
    if constexpr (HasSums<Acc>::value) {
        using Element = typename decltype(Acc::sums)::value_type;
        static_assert(std::is_trivially_copyable_v<Element>);
        const std::size_t bytes = partial.empty() ? 0 : partial[0].sums.size() * sizeof(Element);
        return {bytes,
                [&partial, bytes](std::uint64_t c, unsigned char* out) {
                    std::memcpy(out, partial[c].sums.data(), bytes);
                },
                [&partial, bytes](std::uint64_t c, const unsigned char* in) {
                    std::memcpy(partial[c].sums.data(), in, bytes);
                }};
    } else {
        static_assert(std::is_trivially_copyable_v<Acc>);
        return {sizeof(Acc),
                [&partial](std::uint64_t c, unsigned char* out) {
                    std::memcpy(out, &partial[c], sizeof(Acc));
                },
                [&partial](std::uint64_t c, const unsigned char* in) {
                    std::memcpy(&partial[c], in, sizeof(Acc));
                }};
    }
}

/// Threads an EngineRun asks for, resolved (≥ 1).
int resolve_threads(int requested) noexcept;

/// Calls body(i) for every i in [0, count) on `threads` OpenMP threads (dynamic, one at a time).
/// An exception from a body (an interrupt, a throwing progress callback) lets no further body
/// start and is rethrown here, since an exception may not leave an OpenMP region.
void parallel_for(std::int64_t count, int threads, const std::function<void(std::int64_t)>& body);

/// Calls job(i) for every i in [0, jobs) on up to run.threads threads, as parallel_for; each job
/// returns how many of `total` units it finished (`done` were before), and the first thread
/// reports the finished share to run.progress. For the engines that count modulo many primes.
void parallel_units(std::int64_t jobs, std::int64_t total, std::int64_t done, const EngineRun& run,
                    const std::function<std::int64_t(std::int64_t)>& job);

/// Forwards progress to run.progress at most every run.progress_interval_s, with the time since
/// construction. Call report() from one thread only.
class ProgressThrottle {
public:
    explicit ProgressThrottle(const EngineRun& run)
        : run_(run), start_(Clock::now()), last_(start_) {}
    void report(double fraction) {
        if (!run_.progress) {
            return;
        }
        const auto now = Clock::now();
        if (std::chrono::duration<double>(now - last_).count() >= run_.progress_interval_s) {
            last_ = now;
            run_.progress(Progress{fraction, std::chrono::duration<double>(now - start_).count()});
        }
    }

private:
    using Clock = std::chrono::steady_clock;
    const EngineRun& run_;
    Clock::time_point start_;
    Clock::time_point last_;
};

/// Below 2^18 Gray-code steps (well under a millisecond) starting threads costs more than it
/// saves, and a busy core makes the others wait at the barrier (the cost model counts threads
/// from there too).
inline constexpr int kThreadsFromBits = 18;

/// log2 of the chunk length for a range of 2^bits steps: at most 2^10 chunks, at least 2^10 steps
/// per chunk (fewer chunks for small problems, where threading costs more than it gains).
inline int chunk_log2_for(int bits) noexcept {
    return bits <= 20 ? std::min(bits, 10) : bits - 10;
}

/// Calls body(chunk_index, begin, end) for every chunk of [0, 2^bits), in parallel; reports
/// progress from the master thread. Body must not throw. A progress callback may throw to cancel
/// (a user's interrupt): no further chunk starts, the chunks under way finish, and the exception
/// reaches the caller. The session (run.session, or one of this process alone) decides which
/// chunks run here (a resumed checkpoint's and other MPI ranks' chunks are loaded instead) and
/// throws Interrupted after request_stop(); the body polls for a stop (run::StopPoll) and
/// returns at once when one is asked for (that chunk is dropped). Threads start from
/// 2^threads_from_bits steps: below, starting them costs more than it saves when a step takes
/// nanoseconds (a Gray-code step); an engine whose steps are heavier passes fewer bits.
void run_chunks(int bits, const EngineRun& run,
                const std::function<void(std::uint64_t, std::uint64_t, std::uint64_t)>& body,
                const ChunkRecords& records, int threads_from_bits = kThreadsFromBits);

/// Computes a list of chunks at once (run::ChunkWork::compute_batch): a GPU engine's batches.
using BatchCompute = std::function<bool(
    const std::vector<std::uint64_t>& chunks,
    const std::function<void(std::uint64_t chunk, const unsigned char* record)>& finished,
    const std::function<bool()>& keep_going)>;

/// run_chunks for an engine that computes many chunks at once: the `chunks` chunks (records of
/// `record_bytes` bytes) of a loop of 2^bits steps go to `compute` (through run.session when there
/// is one: a resumed checkpoint's and other MPI ranks' chunks are loaded instead), then `load`
/// receives every chunk's record in chunk order. Progress and cancellation as run_chunks.
void run_chunk_batches(int bits, std::uint64_t chunks, std::size_t record_bytes,
                       const EngineRun& run, const BatchCompute& compute,
                       const std::function<void(std::uint64_t, const unsigned char*)>& load);

/// run_chunk_batches for a GPU job (backend::cuda::GpuRyserJob, GpuSparseJob, GpuHafnianJob):
/// its `units` units of `bytes`-byte records are the chunks of a loop of 2^bits steps, and
/// `launch(job)` runs the units put in job.range (units, finished, keep_going) and returns the
/// backend's result. Returns every unit's record in unit order; `result` gets the first launch's
/// result (its work split and compilation) with the later launches' times and batches added.
template <class Job, class Result, class Launch>
std::vector<unsigned char> run_gpu_units(Job& job, int bits, std::uint64_t units, std::size_t bytes,
                                         const EngineRun& run, Launch launch, Result& result) {
    std::vector<unsigned char> records(units * bytes);
    bool launched = false;
    auto compute = [&](const std::vector<std::uint64_t>& chunks, const auto& finished,
                       const auto& keep_going) {
        if (chunks.empty()) {
            return true;
        }
        bool cut = false;
        job.range.units = chunks;
        job.range.finished = finished;
        job.range.keep_going = [&] {
            cut = !keep_going();
            return !cut;
        };
        const Result r = launch(job);
        if (!launched) {
            result = r;
            launched = true;
        } else {
            result.seconds += r.seconds;
            result.setup_seconds += r.setup_seconds;
            result.batches += r.batches;
            for (std::size_t g = 0; g < r.devices.size() && g < result.devices.size(); ++g) {
                result.devices[g].batches += r.devices[g].batches;
                result.devices[g].seconds += r.devices[g].seconds;
            }
        }
        return !cut;
    };
    run_chunk_batches(bits, units, bytes, run, compute,
                      [&](std::uint64_t u, const unsigned char* record) {
                          std::copy(record, record + bytes, records.data() + u * bytes);
                      });
    return records;
}

/// The run of pass `pass` of `passes` (one per prime, say): its progress mapped onto one overall
/// fraction.
inline EngineRun pass_run(const EngineRun& run, std::size_t pass, std::size_t passes) {
    EngineRun sub = run;
    if (run.progress) {
        sub.progress = [&run, pass, passes](const Progress& p) {
            run.progress(
                Progress{(static_cast<double>(pass) + p.fraction) / static_cast<double>(passes),
                         p.elapsed_s});
        };
    }
    return sub;
}

}  // namespace pmcount::run
