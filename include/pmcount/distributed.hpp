// Several processes (MPI ranks) counting together: start MPI before the first count, finish it
// at exit. Every rank then calls the same count() with the same input and options; the chunks of
// the exponential loops are handed out by rank 0 as ranks ask for them, and every rank returns
// the same result. In a build without MPI (PMCOUNT_ENABLE_MPI off or MPI not found), or in a
// process not started by mpirun/mpiexec, there is one rank and these functions do nothing.
#pragma once

namespace pmcount {

struct MpiWorld {
    int rank = 0;
    int size = 1;
    /// Ranks on this host (to share its cores and GPUs between them), and this rank's place
    /// among them.
    int local_size = 1;
    int local_rank = 0;
};

/// Initialises MPI (threads: funnelled, calls from the main thread only) when this build has
/// MPI and the process was started by an MPI launcher; idempotent.
MpiWorld mpi_start(int* argc, char*** argv);
/// The world mpi_start() found ({0, 1, 1} before it, or without MPI).
MpiWorld mpi_world() noexcept;
/// Finalises MPI when mpi_start() initialised it. Call once, after the last count.
void mpi_finish() noexcept;
/// Ends every rank's process with `code`: for a failure that one rank saw and the others, waiting
/// for it, cannot.
[[noreturn]] void mpi_abort(int code) noexcept;

}  // namespace pmcount
