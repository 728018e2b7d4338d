// The checkpoint file of a Session (session.hpp).
//
// Layout (integers little-endian as on every machine pmcount builds for; x86-64 and AArch64):
//   "pmcount-checkpoint 1\n"
//   the number of bytes after this line, in decimal, "\n"
//   version "\n" input "\n" plan "\n"                  the run's Identity, one line each
//   u64 task count, then per task:
//     u32 bits, u64 chunks, u64 record bytes, chunks bytes of done flags (0 or 1),
//     the records of the done chunks in chunk order
//   u64 FNV-1a hash of every byte before it
// Written to FILE.tmp, flushed to disk (fsync), renamed over FILE (atomic on POSIX file
// systems), so a crash at any moment leaves either the previous checkpoint or the new one.
#pragma once

#include <string>
#include <vector>

#include "run/session.hpp"

namespace pmcount::run {

struct Checkpoint {
    Identity identity;
    std::vector<Task> tasks;
};

std::string encode_checkpoint(const Identity& identity, const std::vector<Task>& tasks);
/// Throws CheckpointError naming the file and the problem (missing, not a checkpoint, truncated,
/// damaged). Its tasks come back packed (Task::packed): memory follows the file's bytes, not the
/// sizes it claims.
Checkpoint decode_checkpoint(const std::string& path, const std::string& bytes);
/// The file's bytes; CheckpointError when it cannot be read.
std::string read_file(const std::string& path);
/// Temporary file, fsync, rename; CheckpointError when the file cannot be written.
void write_atomically(const std::string& path, const std::string& bytes);

/// The first difference between a checkpoint's identity and this run's, as a sentence ("it was
/// written for another input"), or empty.
std::string identity_mismatch(const Identity& checkpoint, const Identity& run);

}  // namespace pmcount::run
