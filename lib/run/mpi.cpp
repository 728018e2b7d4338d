#include "run/mpi.hpp"

#include <algorithm>
#include <cstdlib>
#include <stdexcept>

#include "pmcount/distributed.hpp"
#include "pmcount/error.hpp"

#if PMCOUNT_WITH_MPI
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <deque>
#include <exception>
#include <mutex>
#include <thread>
#endif

namespace pmcount {

namespace {
MpiWorld g_world;
#if PMCOUNT_WITH_MPI
bool g_started = false;  // this library initialised MPI (and finalises it)
#endif

/// Started by an MPI launcher (Open MPI, MPICH/Hydra, PMIx-based launchers, Slurm's srun)?
bool launched_by_mpi() {
    for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK", "MPI_LOCALNRANKS"}) {
        if (std::getenv(name) != nullptr) {
            return true;
        }
    }
    return false;
}

#if !PMCOUNT_WITH_MPI
int env_int(const char* name, int fallback) {
    const char* text = std::getenv(name);
    return text != nullptr && std::atoi(text) > 0 ? std::atoi(text) : fallback;
}
#endif
}  // namespace

MpiWorld mpi_world() noexcept {
    return g_world;
}

#if PMCOUNT_WITH_MPI

MpiWorld mpi_start(int* argc, char*** argv) {
    int initialised = 0;
    MPI_Initialized(&initialised);
    if (initialised == 0 && !launched_by_mpi()) {
        return g_world;  // a plain process: one rank, no MPI start-up cost
    }
    if (initialised == 0) {
        int provided = 0;
        MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided);
        g_started = true;
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &g_world.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &g_world.size);
    MPI_Comm local;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, g_world.rank, MPI_INFO_NULL, &local);
    MPI_Comm_size(local, &g_world.local_size);
    MPI_Comm_rank(local, &g_world.local_rank);
    MPI_Comm_free(&local);
    return g_world;
}

void mpi_finish() noexcept {
    if (g_started) {
        MPI_Finalize();
        g_started = false;
    }
    g_world = MpiWorld{};
}

void mpi_abort(int code) noexcept {
    if (g_world.size > 1) {
        MPI_Abort(MPI_COMM_WORLD, code);
    }
    std::exit(code);
}

#else

MpiWorld mpi_start(int*, char***) {
    // Without MPI a launcher's ranks would each count everything alone: say so through the
    // world's size of one, and leave the local size so threads are not oversubscribed.
    g_world.local_size = launched_by_mpi() ? env_int("OMPI_COMM_WORLD_LOCAL_SIZE", 1) : 1;
    return g_world;
}
void mpi_finish() noexcept {
    g_world = MpiWorld{};
}
void mpi_abort(int code) noexcept {
    std::exit(code);
}

#endif

namespace run::mpi {

int rank() noexcept {
    return g_world.rank;
}

std::vector<int> gpu_share(const std::vector<int>& visible, int local_rank, int local_size) {
    const auto gpus = static_cast<int>(visible.size());
    if (local_size <= 1 || gpus == 0 || local_rank < 0 || local_rank >= local_size) {
        return visible;
    }
    if (gpus < local_size) {
        return {visible[static_cast<std::size_t>(local_rank % gpus)]};
    }
    const auto first = static_cast<std::size_t>(local_rank * gpus / local_size);
    const auto last = static_cast<std::size_t>((local_rank + 1) * gpus / local_size);
    return {visible.begin() + static_cast<std::ptrdiff_t>(first),
            visible.begin() + static_cast<std::ptrdiff_t>(last)};
}

std::vector<int> gpus_to_use(const std::vector<DeviceInfo>& visible,
                             const std::vector<int>& requested, bool distributed) {
    std::vector<int> indices;
    for (const DeviceInfo& d : visible) {
        indices.push_back(d.index);
    }
    for (const int g : requested) {
        if (std::find(indices.begin(), indices.end(), g) == indices.end()) {
            throw DeviceError("GPU " + std::to_string(g) + " is not visible (" +
                              std::to_string(indices.size()) + " visible)");
        }
    }
    if (!requested.empty()) {
        return requested;
    }
    return distributed ? gpu_share(indices) : indices;
}

std::vector<int> gpu_share(const std::vector<int>& visible) {
    return g_world.size > 1 ? gpu_share(visible, g_world.local_rank, g_world.local_size) : visible;
}
int size() noexcept {
    return g_world.size;
}

#if PMCOUNT_WITH_MPI

namespace {

constexpr int kTagRequest = 17;  // worker → 0: results of the last batch, and a request
constexpr int kTagBatch = 18;    // 0 → worker: the next batch

void check(int status, const char* what) {
    if (status != MPI_SUCCESS) {
        // The default error handler aborts first; this is for one that returns.
        char text[MPI_MAX_ERROR_STRING];
        int length = 0;
        MPI_Error_string(status, text, &length);
        throw std::runtime_error(std::string("MPI ") + what + ": " + std::string(text, length));
    }
}

/// Rank 0's queue of a task's chunks, shared by its own compute thread and the main thread that
/// answers the other ranks.
class Queue {
public:
    Queue(const std::vector<std::uint64_t>& todo, std::uint64_t chunks)
        : todo_(todo.begin(), todo.end()), issued_(chunks, 0) {}

    /// `want` chunks or more: fresh ones first, in guided sizes (an eighth of the rest's share
    /// per rank, so that few messages carry a long task and the last batches are short), then
    /// chunks issued once and not finished yet (re-issued to a rank that would otherwise idle).
    /// Empty: nothing left for this rank.
    std::vector<std::uint64_t> take(std::size_t want, const Task& task, std::mutex& records) {
        const std::lock_guard<std::mutex> lock(mutex_);
        std::vector<std::uint64_t> batch;
        if (closed_) {
            return batch;
        }
        const std::size_t guided = todo_.size() / (8 * static_cast<std::size_t>(g_world.size));
        const std::size_t size = std::max(want, guided - guided % std::max<std::size_t>(want, 1));
        while (batch.size() < size && !todo_.empty()) {
            batch.push_back(todo_.front());
            issued_[todo_.front()] = 1;
            todo_.pop_front();
        }
        if (batch.empty()) {
            const std::lock_guard<std::mutex> guard(records);
            for (std::uint64_t c = 0; c < issued_.size() && batch.size() < want; ++c) {
                if (issued_[c] == 1 && task.done[c] == 0) {
                    issued_[c] = 2;
                    batch.push_back(c);
                }
            }
        }
        return batch;
    }
    /// Hands out nothing more (a stop).
    void close() {
        const std::lock_guard<std::mutex> lock(mutex_);
        closed_ = true;
    }

private:
    std::mutex mutex_;
    std::deque<std::uint64_t> todo_;
    std::vector<unsigned char> issued_;  // 0 never, 1 once, 2 twice
    bool closed_ = false;
};

/// Chunks a rank asks for at a time: one per thread; one for a batch computation (GPUs),
/// which runs whatever it gets as one launch sequence, so that the guided sizes shrink to a
/// single chunk at the end and a re-issued straggler costs at most one chunk's time.
std::size_t chunks_wanted(int threads, const ChunkWork& work) {
    return work.compute_batch ? 1 : static_cast<std::size_t>(std::max(1, threads));
}

/// Worker side: ask, compute, send back, until an empty batch.
void serve_as_worker(Task& task, int threads, const ChunkWork& work) {
    std::vector<unsigned char> message;  // [u64 want][u64 count][count × (u64 chunk, record)]
    std::vector<std::uint64_t> results;
    std::vector<unsigned char> records;
    for (;;) {
        message.assign(2 * sizeof(std::uint64_t), 0);
        const std::uint64_t want = chunks_wanted(threads, work);
        const std::uint64_t count = results.size();
        std::memcpy(message.data(), &want, sizeof want);
        std::memcpy(message.data() + sizeof want, &count, sizeof count);
        for (std::size_t k = 0; k < results.size(); ++k) {
            const auto* id = reinterpret_cast<const unsigned char*>(&results[k]);
            message.insert(message.end(), id, id + sizeof(std::uint64_t));
            message.insert(
                message.end(), records.begin() + static_cast<std::ptrdiff_t>(k * task.record_bytes),
                records.begin() + static_cast<std::ptrdiff_t>((k + 1) * task.record_bytes));
        }
        check(MPI_Send(message.data(), static_cast<int>(message.size()), MPI_BYTE, 0, kTagRequest,
                       MPI_COMM_WORLD),
              "send");
        MPI_Status status;
        check(MPI_Probe(0, kTagBatch, MPI_COMM_WORLD, &status), "probe");
        int bytes = 0;
        MPI_Get_count(&status, MPI_BYTE, &bytes);
        std::vector<std::uint64_t> batch(static_cast<std::size_t>(bytes) / sizeof(std::uint64_t));
        check(MPI_Recv(batch.data(), bytes, MPI_BYTE, 0, kTagBatch, MPI_COMM_WORLD,
                       MPI_STATUS_IGNORE),
              "receive");
        if (batch.empty()) {
            return;
        }
        // A stop cuts the batch short (a launcher signals every rank); rank 0 re-issues what
        // is missing, or stops the task.
        std::mutex finished;
        records.clear();
        results.clear();
        compute_chunks(
            batch, task.record_bytes, threads, work,
            [&](std::uint64_t chunk, const unsigned char* record) {
                const std::lock_guard<std::mutex> lock(finished);
                results.push_back(chunk);
                records.insert(records.end(), record, record + task.record_bytes);
            },
            [] { return !detail::stop_requested(); }, true);
    }
}

}  // namespace

std::string library_version() {
    char text[MPI_MAX_LIBRARY_VERSION_STRING];
    int length = 0;
    MPI_Get_library_version(text, &length);
    const std::string all(text, static_cast<std::size_t>(length));
    const std::size_t end = all.find_first_of(",\n");
    return all.substr(0, end);
}

std::string broadcast(const std::string& text) {
    std::uint64_t length = text.size();
    check(MPI_Bcast(&length, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD), "broadcast");
    std::string out = text;
    out.resize(length);
    check(MPI_Bcast(out.data(), static_cast<int>(length), MPI_CHAR, 0, MPI_COMM_WORLD),
          "broadcast");
    return out;
}

void broadcast(std::vector<std::uint64_t>& values) {
    check(MPI_Bcast(values.data(), static_cast<int>(values.size()), MPI_UINT64_T, 0,
                    MPI_COMM_WORLD),
          "broadcast");
}

std::vector<double> gather_parts(const std::vector<double>& mine,
                                 const std::vector<std::uint64_t>& counts) {
    std::vector<int> sizes, offsets;
    int total = 0;
    for (const std::uint64_t c : counts) {
        sizes.push_back(static_cast<int>(c));
        offsets.push_back(total);
        total += static_cast<int>(c);
    }
    std::vector<double> whole(static_cast<std::size_t>(total));
    check(MPI_Allgatherv(mine.data(), static_cast<int>(mine.size()), MPI_DOUBLE, whole.data(),
                         sizes.data(), offsets.data(), MPI_DOUBLE, MPI_COMM_WORLD),
          "gather");
    return whole;
}

bool run_task(Task& task, const std::vector<std::uint64_t>& todo, int threads,
              const ChunkWork& work, const Coordination& rank0) {
    std::uint64_t stopped = 0;
    std::exception_ptr failure;
    if (g_world.rank != 0) {
        serve_as_worker(task, threads, work);
    } else {
        std::mutex records;  // Coordination::finished locks its own; this guards task.done reads
        Queue queue(todo, task.chunks);
        auto finished = [&](std::uint64_t chunk, const unsigned char* record) {
            const std::lock_guard<std::mutex> lock(records);
            rank0.finished(chunk, record);
        };
        // Rank 0's own threads, fed by the same queue; MPI stays on this (the main) thread. A
        // re-issued chunk that another rank finished meanwhile is skipped (its record, left
        // unwritten, is dropped by `finished`, which keeps the first).
        ChunkWork local_work = work;
        local_work.compute = [&](std::uint64_t chunk, unsigned char* record) {
            {
                const std::lock_guard<std::mutex> lock(records);
                if (task.done[chunk] != 0) {
                    return;
                }
            }
            work.compute(chunk, record);
        };
        bool local_done = false;
        std::mutex local_mutex;
        std::thread local([&] {
            for (;;) {
                const auto batch = queue.take(chunks_wanted(threads, work), task, records);
                if (batch.empty()) {
                    break;
                }
                if (!compute_chunks(
                        batch, task.record_bytes, threads, local_work, finished,
                        [] { return !detail::stop_requested(); }, true)) {
                    break;
                }
            }
            const std::lock_guard<std::mutex> lock(local_mutex);
            local_done = true;
        });
        int workers = g_world.size - 1;
        std::vector<unsigned char> message;
        auto last_tick = std::chrono::steady_clock::now();
        for (;;) {
            {
                const std::lock_guard<std::mutex> lock(local_mutex);
                if (workers == 0 && local_done) {
                    break;
                }
            }
            const auto now = std::chrono::steady_clock::now();
            if (stopped == 0 && now - last_tick >= std::chrono::milliseconds(50)) {
                last_tick = now;
                try {
                    if (!rank0.tick()) {
                        stopped = 1;
                    }
                } catch (...) {
                    failure = std::current_exception();
                    stopped = 1;
                }
                if (stopped != 0) {
                    queue.close();
                }
            }
            int waiting = 0;
            MPI_Status status;
            check(MPI_Iprobe(MPI_ANY_SOURCE, kTagRequest, MPI_COMM_WORLD, &waiting, &status),
                  "probe");
            if (waiting == 0) {
                std::this_thread::sleep_for(std::chrono::microseconds(200));
                continue;
            }
            int bytes = 0;
            MPI_Get_count(&status, MPI_BYTE, &bytes);
            message.resize(static_cast<std::size_t>(bytes));
            check(MPI_Recv(message.data(), bytes, MPI_BYTE, status.MPI_SOURCE, kTagRequest,
                           MPI_COMM_WORLD, MPI_STATUS_IGNORE),
                  "receive");
            std::uint64_t want = 0, count = 0;
            std::memcpy(&want, message.data(), sizeof want);
            std::memcpy(&count, message.data() + sizeof want, sizeof count);
            const unsigned char* at = message.data() + 2 * sizeof(std::uint64_t);
            for (std::uint64_t k = 0; k < count; ++k) {
                std::uint64_t chunk = 0;
                std::memcpy(&chunk, at, sizeof chunk);
                finished(chunk, at + sizeof chunk);
                at += sizeof chunk + task.record_bytes;
            }
            const auto batch = queue.take(static_cast<std::size_t>(want), task, records);
            check(MPI_Send(batch.data(), static_cast<int>(batch.size() * sizeof(std::uint64_t)),
                           MPI_BYTE, status.MPI_SOURCE, kTagBatch, MPI_COMM_WORLD),
                  "send");
            if (batch.empty()) {
                --workers;
            }
        }
        local.join();
        if (stopped == 0) {
            try {
                rank0.tick();  // the final progress and checkpoint
            } catch (...) {
                failure = std::current_exception();
                stopped = 1;
            }
        }
    }
    check(MPI_Bcast(&stopped, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD), "broadcast");
    if (failure) {
        std::rethrow_exception(failure);
    }
    if (stopped != 0) {
        return false;
    }
    // Every rank gets every record (in 1 GiB pieces: MPI counts are ints).
    constexpr std::size_t kPiece = std::size_t{1} << 30;
    for (std::size_t at = 0; at < task.records.size(); at += kPiece) {
        const std::size_t n = std::min(kPiece, task.records.size() - at);
        check(MPI_Bcast(task.records.data() + at, static_cast<int>(n), MPI_BYTE, 0, MPI_COMM_WORLD),
              "broadcast");
    }
    std::fill(task.done.begin(), task.done.end(), 1);
    return true;
}

#else

std::string library_version() {
    return {};
}
std::string broadcast(const std::string& text) {
    return text;
}
void broadcast(std::vector<std::uint64_t>&) {}
std::vector<double> gather_parts(const std::vector<double>& mine,
                                 const std::vector<std::uint64_t>&) {
    return mine;
}

bool run_task(Task&, const std::vector<std::uint64_t>&, int, const ChunkWork&,
              const Coordination&) {
    throw std::logic_error("run::mpi::run_task without MPI");
}

#endif

}  // namespace run::mpi
}  // namespace pmcount
