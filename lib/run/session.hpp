// The run of one count across interruptions and processes.
//
// Every exponential loop of the exact engines (a Gray-code range, the hafnian recursion's
// subtrees) is split into chunks whose partial sums are merged in chunk order; a loop is a *task*
// and each chunk's partial sum a fixed-size *record*. The session keeps, per task in the order
// the count opens them, which chunks are finished and their records. That one ledger serves
//   - checkpoints: written atomically (temporary file, fsync, rename) every few seconds, at the
//     end of each task and on request_stop(); a resumed run loads the finished records instead
//     of computing them (checkpoint.cpp has the file format);
//   - MPI: rank 0 hands chunks out to the ranks as they ask (mpi.cpp), collects their records and
//     sends every rank the whole task, so all ranks merge the same records in the same order.
// The answer is bit-identical whatever the threads, ranks or interruptions: only the place a
// record is computed changes, never the record or the merge order.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

#include "core/stop.hpp"
#include "pmcount/options.hpp"

namespace pmcount::run {

/// InvalidArgument when `options` asks for what no count or estimate can do: threads outside
/// [0, kMaxThreads].
void check_run_options(const RunOptions& options);

/// Below 2^20 steps (a millisecond or so) a task costs less than the messages that would
/// spread it: every rank computes it alone (the cost model counts ranks from there too).
inline constexpr int kDistributeFromBits = 20;

/// What a checkpoint must match to be resumed: the library version, the input (a hash of its
/// entries and how they are read) and how it is counted (precision, engines per leaf).
struct Identity {
    std::string version;
    std::string input;
    std::string plan;
};

/// One exponential loop: `chunks` chunks with records of `record_bytes` bytes.
struct Task {
    int bits = 0;  // log2 of the loop's length
    std::uint64_t chunks = 0;
    std::size_t record_bytes = 0;
    std::vector<unsigned char> done;  // per chunk: 1 when its record is in `records`
    /// chunks × record_bytes. A task read from a checkpoint holds only its done chunks' records,
    /// in chunk order (`packed`), until the run opens a loop of the same sizes and unpacks it: a
    /// file only claims its sizes, so it costs its own bytes until the run confirms them.
    std::vector<unsigned char> records;
    bool packed = false;

    std::uint64_t finished() const noexcept;
    /// Gives every chunk its record slot (the unfinished ones zero); nothing when not packed.
    void unpack();
    /// "2^39 steps in 1024 chunks of 128-byte records"
    std::string describe() const;
    unsigned char* record(std::uint64_t chunk) noexcept {
        return records.data() + chunk * record_bytes;
    }
};

/// Receives a finished chunk's record (thread-safe).
using ChunkFinished = std::function<void(std::uint64_t chunk, const unsigned char* record)>;

/// What a task's chunks do: compute chunk c and write its record (called concurrently for
/// different chunks, never throws), and load a record into the engine's partial sums.
struct ChunkWork {
    std::function<void(std::uint64_t chunk, unsigned char* record)> compute;
    /// Instead of `compute`, for engines that run many chunks at once (the GPU engines' batches):
    /// computes the listed chunks, handing each record to `finished` and asking `keep_going`
    /// from one thread between its batches (false or an exception: start no further batch; an
    /// exception reaches the caller). Returns false when cut short.
    std::function<bool(const std::vector<std::uint64_t>& chunks, const ChunkFinished& finished,
                       const std::function<bool()>& keep_going)>
        compute_batch;
    std::function<void(std::uint64_t chunk, const unsigned char* record)> load;
    /// Fraction of the task done; called from one thread; may throw to cancel the task (the
    /// chunks under way finish, the exception reaches the caller).
    std::function<void(double fraction)> progress;
};

struct SessionOptions {
    std::string checkpoint;  // empty: no checkpoint
    bool resume = false;
    double checkpoint_interval_s = 10;
    bool distributed = true;  // spread tasks over the MPI ranks (when there are several)
};

class Session {
public:
    /// On resume, rank 0 reads and checks the checkpoint; every rank throws the same
    /// CheckpointError when it cannot be used. Collective under MPI.
    Session(Identity identity, SessionOptions options);

    /// Runs the task's unfinished chunks on `threads` threads of each rank, then loads every
    /// record in chunk order. Throws Interrupted after request_stop() (checkpoint written).
    /// Collective under MPI: every rank opens the same tasks in the same order.
    void run_task(int bits, std::uint64_t chunks, std::size_t record_bytes, int threads,
                  const ChunkWork& work);

    /// Writes the checkpoint now (rank 0; nothing without a checkpoint file).
    void save();

    /// A stream of `record_bytes`-byte records that grows as the run goes (the estimators' sample
    /// logs): one task of finished chunks, the only one of its run. Returns the records a
    /// resumed run finds in the checkpoint (CheckpointError when it holds something else).
    const Task& open_stream(std::size_t record_bytes);
    /// Appends `count` records to the stream on every rank (rank 0 writes the checkpoint when
    /// the interval has passed).
    void append(const unsigned char* bytes, std::uint64_t count);
    /// After request_stop(): writes the checkpoint and throws Interrupted ("interrupted after
    /// `what`; checkpoint written to FILE …").
    [[noreturn]] void stop(const std::string& what);

    int rank() const noexcept { return rank_; }
    int ranks() const noexcept { return ranks_; }

    /// Tasks (loops) in the checkpoint that a resumed run has not reached yet; records of the
    /// tasks it opened and found finished, and of chunks it did not compute.
    std::uint64_t resumed_chunks() const noexcept { return resumed_chunks_; }

private:
    Task& open_task(int bits, std::uint64_t chunks, std::size_t record_bytes);
    void run_local(Task& task, const std::vector<std::uint64_t>& todo, int threads,
                   const ChunkWork& work);
    void record(Task& task, std::uint64_t chunk, const unsigned char* bytes);
    void maybe_save();
    [[noreturn]] void stopped(const Task& task);

    Identity identity_;
    SessionOptions options_;
    int rank_ = 0;
    int ranks_ = 1;
    std::vector<Task> tasks_;  // the checkpoint's tasks (on resume), then this run's
    std::size_t opened_ = 0;   // tasks this run has opened
    std::uint64_t resumed_chunks_ = 0;
    std::mutex mutex_;  // guards tasks_' done/records while a task runs
    double last_save_ = 0;
};

/// Computes the chunks `todo` on `threads` OpenMP threads (dynamic), handing each record to
/// `finished` (from the computing thread; it must be thread-safe). Thread 0 calls tick() after
/// each of its chunks; once tick() returns false or throws, no further chunk starts. Rethrows
/// tick()'s exception; returns false when cut short. With `stop_inside`, a stop request also
/// cuts the chunks under way short (chunk_stop_requested() turns true in their threads; a chunk
/// computed while the request stands is not handed to `finished`, so a resumed run computes it
/// again): a stop then takes effect within an engine's poll interval, not a chunk's length. A
/// work with compute_batch runs them all through it instead (tick() as its keep_going).
bool compute_chunks(const std::vector<std::uint64_t>& todo, std::size_t record_bytes, int threads,
                    const ChunkWork& work, const ChunkFinished& finished,
                    const std::function<bool()>& tick, bool stop_inside);

/// Inside a chunk: true when the chunk should be given up because a stop was requested
/// (core/stop.hpp) and compute_chunks runs this thread's chunks with `stop_inside`. An engine
/// that sees it true returns from the chunk at once; what it leaves in the chunk's sums is
/// dropped. Polled through StopPoll.
bool chunk_stop_requested() noexcept;

/// The chunked loops' poll: every 2^14 steps of work, chunk_stop_requested().
using StopPoll = detail::StopPoll<chunk_stop_requested>;

/// Seconds on a steady clock (for save intervals).
double now_s() noexcept;

}  // namespace pmcount::run
