#include "run/session.hpp"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <exception>
#include <stdexcept>

#include "pmcount/error.hpp"
#include "pmcount/options.hpp"
#include "run/checkpoint.hpp"
#include "run/mpi.hpp"

namespace pmcount::run {

namespace {
// Whether this thread computes chunks that a stop may cut short (compute_chunks' stop_inside).
thread_local bool t_stop_inside = false;
}  // namespace

bool chunk_stop_requested() noexcept {
    return t_stop_inside && detail::stop_requested();
}


double now_s() noexcept {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

std::uint64_t Task::finished() const noexcept {
    return static_cast<std::uint64_t>(std::count(done.begin(), done.end(), 1));
}

void Task::unpack() {
    if (!packed) {
        return;
    }
    std::vector<unsigned char> spread(chunks * record_bytes, 0);
    std::size_t from = 0;
    for (std::uint64_t c = 0; c < chunks; ++c) {
        if (done[c] != 0) {
            std::copy_n(records.begin() + static_cast<std::ptrdiff_t>(from), record_bytes,
                        spread.begin() + static_cast<std::ptrdiff_t>(c * record_bytes));
            from += record_bytes;
        }
    }
    records = std::move(spread);
    packed = false;
}

std::string Task::describe() const {
    return "2^" + std::to_string(bits) + " steps in " + std::to_string(chunks) + " chunks of " +
           std::to_string(record_bytes) + "-byte records";
}

bool compute_chunks(const std::vector<std::uint64_t>& todo, std::size_t record_bytes, int threads,
                    const ChunkWork& work, const ChunkFinished& finished,
                    const std::function<bool()>& tick, bool stop_inside) {
    if (work.compute_batch) {
        return work.compute_batch(todo, finished, [&tick] { return !tick || tick(); });
    }
    // An exception may not leave an OpenMP region (std::terminate): thread 0 keeps tick()'s,
    // the others see `cancelled` and skip the chunks not yet started.
    std::atomic<bool> cancelled{false};
    std::exception_ptr failure;
    const auto count = static_cast<std::int64_t>(todo.size());
    const int team =
        static_cast<int>(std::max<std::int64_t>(1, std::min<std::int64_t>(threads, count)));
#pragma omp parallel num_threads(team)
    {
        std::vector<unsigned char> record(record_bytes);
        t_stop_inside = stop_inside;
#pragma omp for schedule(dynamic, 1)
        for (std::int64_t k = 0; k < count; ++k) {
            if (cancelled.load(std::memory_order_relaxed)) {
                continue;
            }
            const std::uint64_t chunk = todo[static_cast<std::size_t>(k)];
            work.compute(chunk, record.data());
            if (stop_inside && detail::stop_requested()) {
                // Perhaps given up part-way: not a record (a resumed run computes it again).
                cancelled = true;
                continue;
            }
            finished(chunk, record.data());
            if (omp_get_thread_num() == 0 && tick) {
                try {
                    if (!tick()) {
                        cancelled = true;
                    }
                } catch (...) {
                    failure = std::current_exception();
                    cancelled = true;
                }
            }
        }
        t_stop_inside = false;  // the pool's threads run other work later
    }
    if (failure) {
        std::rethrow_exception(failure);
    }
    return !cancelled.load();
}

Session::Session(Identity identity, SessionOptions options)
    : identity_(std::move(identity)), options_(std::move(options)), last_save_(now_s()) {
    if (options_.distributed) {
        rank_ = mpi::rank();
        ranks_ = mpi::size();
    }
    if (options_.resume && options_.checkpoint.empty()) {
        throw InvalidArgument("resuming needs a checkpoint file (--checkpoint FILE)");
    }
    if (!options_.resume) {
        return;
    }
    // Rank 0 reads the file and every rank gets its bytes: all ranks then check the same
    // checkpoint, so they fail alike (here or at a loop that does not match) or go on alike.
    std::string bytes;
    std::string problem;
    if (rank_ == 0) {
        try {
            bytes = read_file(options_.checkpoint);
        } catch (const CheckpointError& e) {
            problem = e.problem();
        }
    }
    if (ranks_ > 1) {
        problem = mpi::broadcast(problem);
        bytes = mpi::broadcast(bytes);
    }
    if (problem.empty()) {
        try {
            Checkpoint c = decode_checkpoint(options_.checkpoint, bytes);
            problem = identity_mismatch(c.identity, identity_);
            tasks_ = std::move(c.tasks);
        } catch (const CheckpointError& e) {
            problem = e.problem();
        }
    }
    if (!problem.empty()) {
        throw CheckpointError(options_.checkpoint, "cannot resume from it: " + problem);
    }
}

Task& Session::open_task(int bits, std::uint64_t chunks, std::size_t record_bytes) {
    const std::size_t index = opened_++;
    if (index < tasks_.size()) {
        const Task& t = tasks_[index];
        if (t.bits != bits || t.chunks != chunks || t.record_bytes != record_bytes) {
            Task mine;
            mine.bits = bits;
            mine.chunks = chunks;
            mine.record_bytes = record_bytes;
            throw CheckpointError(options_.checkpoint, "cannot resume from it: its loop " +
                                                           std::to_string(index + 1) + " has " +
                                                           t.describe() + ", this run's has " +
                                                           mine.describe());
        }
        resumed_chunks_ += t.finished();
        tasks_[index].unpack();
        return tasks_[index];
    }
    Task t;
    t.bits = bits;
    t.chunks = chunks;
    t.record_bytes = record_bytes;
    t.done.assign(chunks, 0);
    t.records.assign(chunks * record_bytes, 0);
    tasks_.push_back(std::move(t));
    return tasks_.back();
}

const Task& Session::open_stream(std::size_t record_bytes) {
    if (opened_ != 0) {
        throw std::logic_error("a session's stream is its only task");
    }
    opened_ = 1;
    if (!tasks_.empty()) {
        const Task& t = tasks_.front();
        if (tasks_.size() != 1 || t.bits != 0 || t.record_bytes != record_bytes ||
            t.finished() != t.chunks) {
            throw CheckpointError(options_.checkpoint, "cannot resume from it: it holds " +
                                                           t.describe() + ", not a stream of " +
                                                           std::to_string(record_bytes) +
                                                           "-byte records");
        }
        resumed_chunks_ = t.chunks;
        tasks_.front().unpack();
        return tasks_.front();
    }
    Task t;
    t.record_bytes = record_bytes;
    tasks_.push_back(std::move(t));
    return tasks_.front();
}

void Session::append(const unsigned char* bytes, std::uint64_t count) {
    if (options_.checkpoint.empty()) {
        return;  // only a checkpoint reads the records (8 bytes an estimate, for ever)
    }
    {
        const std::lock_guard<std::mutex> lock(mutex_);
        Task& t = tasks_.front();
        t.chunks += count;
        t.done.resize(t.chunks, 1);
        t.records.insert(t.records.end(), bytes, bytes + count * t.record_bytes);
    }
    maybe_save();
}

void Session::stop(const std::string& what) {
    save();
    throw Interrupted(
        "interrupted after " + what + "; " +
        (options_.checkpoint.empty()
             ? std::string("no checkpoint was asked for (--checkpoint FILE)")
             : "checkpoint written to " + options_.checkpoint + " (resume with --resume)"));
}

void Session::record(Task& task, std::uint64_t chunk, const unsigned char* bytes) {
    const std::lock_guard<std::mutex> lock(mutex_);
    if (task.done[chunk] == 0) {
        std::copy(bytes, bytes + task.record_bytes, task.record(chunk));
        task.done[chunk] = 1;
    }
}

void Session::save() {
    if (options_.checkpoint.empty() || rank_ != 0) {
        return;
    }
    std::string bytes;
    {
        const std::lock_guard<std::mutex> lock(mutex_);
        bytes = encode_checkpoint(identity_, tasks_);
    }
    write_atomically(options_.checkpoint, bytes);
    last_save_ = now_s();
}

void Session::maybe_save() {
    if (!options_.checkpoint.empty() && now_s() - last_save_ >= options_.checkpoint_interval_s) {
        save();
    }
}

void Session::stopped(const Task& task) {
    stop(std::to_string(task.finished()) + " of " + std::to_string(task.chunks) +
         " chunks of loop " + std::to_string(opened_));
}

void Session::run_task(int bits, std::uint64_t chunks, std::size_t record_bytes, int threads,
                       const ChunkWork& work) {
    Task& task = open_task(bits, chunks, record_bytes);
    std::vector<std::uint64_t> todo;
    for (std::uint64_t c = 0; c < chunks; ++c) {
        if (task.done[c] == 0) {
            todo.push_back(c);
        }
    }
    std::atomic<std::uint64_t> finished_chunks{chunks - todo.size()};
    auto finished = [&](std::uint64_t chunk, const unsigned char* bytes) {
        record(task, chunk, bytes);
        finished_chunks.fetch_add(1, std::memory_order_relaxed);
    };
    // Under MPI only rank 0's stop counts (it tells the others), so that all ranks stop alike.
    const bool distribute = ranks_ > 1 && bits >= kDistributeFromBits;
    const bool may_stop = ranks_ == 1 || distribute;
    auto tick = [&] {
        if (work.progress && rank_ == 0) {
            // (re-issued chunks may finish twice under MPI)
            work.progress(std::min(
                1.0, static_cast<double>(finished_chunks.load()) / static_cast<double>(chunks)));
        }
        maybe_save();
        return !(may_stop && detail::stop_requested());
    };
    bool complete = true;
    if (distribute) {
        // Rank 0's list decides (a rank that resumed nothing still takes part).
        complete = mpi::run_task(task, todo, threads, work, mpi::Coordination{finished, tick});
    } else if (!todo.empty()) {
        // One rank, or a small task that every rank computes alone (the same records everywhere).
        complete = compute_chunks(todo, record_bytes, threads, work, finished, tick, may_stop);
    }
    if (!complete) {
        stopped(task);
    }
    for (std::uint64_t c = 0; c < chunks; ++c) {
        work.load(c, task.record(c));
    }
    if (!todo.empty()) {
        save();  // a finished loop is never computed again
    }
}

void check_run_options(const RunOptions& options) {
    if (options.threads < 0 || options.threads > kMaxThreads) {
        throw InvalidArgument("threads must lie in [0, " + std::to_string(kMaxThreads) +
                              "] (0: every core)");
    }
}

}  // namespace pmcount::run
