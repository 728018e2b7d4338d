// MPI transport of a Session (session.hpp): rank 0 hands a task's chunks out in batches to the
// ranks as they ask, the ranks send back the batches' records, and rank 0 finally sends every
// rank the whole task. Built only with PMCOUNT_ENABLE_MPI and MPI found; otherwise there is one
// rank and nothing here is called.
//
// Protocol of one task (all messages on MPI_COMM_WORLD, rank 0 the only one that receives from
// any source):
//   rank r > 0 → 0   "results + request": the records of its last batch (chunk ids and bytes)
//                    and how many chunks it wants next (its thread count; 1 for GPUs)
//   rank 0 → r       the next batch of chunk ids; an empty batch ends r's part of the task
//   rank 0 → all     broadcast: stopped or not, then every chunk's record
// Rank 0 computes too: a thread of its own takes batches from the same queue. When the queue is
// empty, chunks issued but not finished are issued once more to ranks that ask (a slow rank then
// no longer holds the task up; the first record to arrive is kept, and both are equal). A rank
// that dies ends the MPI job (OpenMPI's default error handler): the run fails, it never returns
// a number short of that rank's chunks.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "pmcount/build_info.hpp"
#include "run/session.hpp"

namespace pmcount::run::mpi {

/// The MPI library compiled in (MPI_Get_library_version's first line); empty without MPI.
std::string library_version();

/// This process's rank and the number of ranks (0 and 1 without MPI or before mpi_start()).
int rank() noexcept;
int size() noexcept;

/// The GPUs of `visible` that this rank uses when the caller named none. With several ranks
/// of one run on a host, each takes a contiguous share (rank r of R with G ≥ R GPUs: indices
/// r·G/R to (r+1)·G/R − 1; with fewer GPUs than ranks, GPU r mod G), so that no GPU serves two
/// ranks while another idles; one rank, or one per host, takes them all.
std::vector<int> gpu_share(const std::vector<int>& visible);
/// The same for a host of `local_size` ranks, this one `local_rank` among them.
std::vector<int> gpu_share(const std::vector<int>& visible, int local_rank, int local_size);
/// The GPUs this process uses: `requested` (--gpus; DeviceError names the first that is not
/// among `visible`), else every visible one, this rank's share of them when `distributed`.
std::vector<int> gpus_to_use(const std::vector<DeviceInfo>& visible,
                             const std::vector<int>& requested, bool distributed);

/// Rank 0's `text` on every rank (collective).
std::string broadcast(const std::string& text);
/// Rank 0's `values` on every rank (collective).
void broadcast(std::vector<std::uint64_t>& values);
/// The whole of a range split in rank order, `counts[r]` values from rank r (`mine` on this
/// rank), on every rank (collective).
std::vector<double> gather_parts(const std::vector<double>& mine,
                                 const std::vector<std::uint64_t>& counts);

/// What rank 0 does besides computing: keep each record, and between messages report progress
/// and write checkpoints (tick; false or an exception: hand out no further chunk).
struct Coordination {
    ChunkFinished finished;
    std::function<bool()> tick;
};

/// Runs the chunks `todo` (rank 0's list; the others pass what they like) of `task` on every
/// rank's `threads` threads. Returns true on every rank when every chunk is finished, all records
/// then in every rank's `task`; false on every rank when rank 0 stopped handing chunks out.
/// Rethrows on rank 0 what its tick() threw (the other ranks return false).
bool run_task(Task& task, const std::vector<std::uint64_t>& todo, int threads,
              const ChunkWork& work, const Coordination& rank0);

}  // namespace pmcount::run::mpi
