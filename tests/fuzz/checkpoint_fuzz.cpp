// libFuzzer harness of the checkpoint reader (lib/run/checkpoint.cpp). Each input is tried twice:
// as a whole file, and as the body of one (with the magic line, the length line and the checksum
// around it) so that mutations reach the loops instead of stopping at the checksum. After a
// successful decode it takes the steps of a resuming run: compare identities, describe the loops,
// open each (Task::unpack) and write the checkpoint again. Invariants (a broken one traps):
//   - memory follows the file: no loop holds more record bytes than the file has;
//   - writing what was read gives the same bytes, before and after a loop is opened.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>

#include "core/hash.hpp"
#include "pmcount/error.hpp"
#include "run/checkpoint.hpp"

namespace {

[[noreturn]] void broken(const char* invariant) {
    std::fprintf(stderr, "fuzz invariant broken: %s\n", invariant);
    __builtin_trap();
}

/// A loop this large is opened as a run of those sizes would open it (larger ones are what a
/// run's own loop would cost, not the file).
constexpr std::uint64_t kOpenedBytes = std::uint64_t{1} << 24;

void resume(const std::string& bytes) {
    pmcount::run::Checkpoint c;
    try {
        c = pmcount::run::decode_checkpoint("fuzz.ckpt", bytes);
    } catch (const pmcount::CheckpointError&) {
        return;
    }
    (void)pmcount::run::identity_mismatch(c.identity, {"0.1.0", "input", "plan"});
    for (const pmcount::run::Task& t : c.tasks) {
        if (t.records.size() > bytes.size()) {
            broken("a loop holds more record bytes than the file has");
        }
        (void)t.describe();
    }
    if (pmcount::run::encode_checkpoint(c.identity, c.tasks) != bytes) {
        broken("a checkpoint written again differs from the file");
    }
    for (pmcount::run::Task& t : c.tasks) {
        if (t.chunks * t.record_bytes <= kOpenedBytes) {
            t.unpack();
        }
    }
    if (pmcount::run::encode_checkpoint(c.identity, c.tasks) != bytes) {
        broken("a checkpoint written again after opening its loops differs from the file");
    }
}

/// `body` inside the magic line, the length line and the checksum of a checkpoint file.
std::string framed(const std::string& body) {
    std::string file = "pmcount-checkpoint 1\n" +
                       std::to_string(body.size() + sizeof(std::uint64_t)) + "\n" + body;
    const std::uint64_t checksum = pmcount::fnv1a(file);
    file.append(reinterpret_cast<const char*>(&checksum), sizeof checksum);
    return file;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string bytes(reinterpret_cast<const char*>(data), size);
    resume(bytes);
    resume(framed(bytes));
    return 0;
}
