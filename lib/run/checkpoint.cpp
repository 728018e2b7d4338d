#include "run/checkpoint.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#include "core/hash.hpp"
#include "pmcount/error.hpp"

namespace pmcount::run {

namespace {

constexpr const char* kMagic = "pmcount-checkpoint 1\n";

template <class T>
void put(std::string& out, T value) {
    out.append(reinterpret_cast<const char*>(&value), sizeof value);
}

/// Reads the checkpoint's fields in order; any overrun is a truncated file.
class Reader {
public:
    Reader(const std::string& path, const std::string& bytes) : path_(path), bytes_(bytes) {}

    std::string line() {
        const std::size_t end = bytes_.find('\n', at_);
        if (end == std::string::npos) {
            fail("it is truncated (a header line is cut off)");
        }
        std::string text = bytes_.substr(at_, end - at_);
        at_ = end + 1;
        return text;
    }
    template <class T>
    T get() {
        T value;
        need(sizeof value);
        std::memcpy(&value, bytes_.data() + at_, sizeof value);
        at_ += sizeof value;
        return value;
    }
    void copy(unsigned char* out, std::size_t count) {
        need(count);
        if (count == 0) {
            return;  // `out` may be an empty vector's null data()
        }
        std::memcpy(out, bytes_.data() + at_, count);
        at_ += count;
    }
    void need(std::size_t count) const {
        if (count > bytes_.size() - at_) {
            fail("it is truncated (" + std::to_string(bytes_.size()) + " bytes)");
        }
    }
    std::size_t position() const noexcept { return at_; }
    [[noreturn]] void fail(const std::string& problem) const {
        throw CheckpointError(path_, problem);
    }

private:
    const std::string& path_;
    const std::string& bytes_;
    std::size_t at_ = 0;
};

std::string system_error(const char* what) {
    return std::string(what) + ": " + std::strerror(errno);
}

}  // namespace

std::string encode_checkpoint(const Identity& identity, const std::vector<Task>& tasks) {
    std::string out;
    out += identity.version + "\n" + identity.input + "\n" + identity.plan + "\n";
    put<std::uint64_t>(out, tasks.size());
    for (const Task& t : tasks) {
        put<std::uint32_t>(out, static_cast<std::uint32_t>(t.bits));
        put<std::uint64_t>(out, t.chunks);
        put<std::uint64_t>(out, t.record_bytes);
        out.append(reinterpret_cast<const char*>(t.done.data()), t.done.size());
        if (t.packed) {  // a loop read from the checkpoint that this run has not reached
            out.append(reinterpret_cast<const char*>(t.records.data()), t.records.size());
            continue;
        }
        for (std::uint64_t c = 0; c < t.chunks; ++c) {
            if (t.done[c] != 0) {
                out.append(reinterpret_cast<const char*>(t.records.data() + c * t.record_bytes),
                           t.record_bytes);
            }
        }
    }
    // The length line lets a truncated file say so (rather than just failing its checksum).
    std::string file = kMagic + std::to_string(out.size() + sizeof(std::uint64_t)) + "\n" + out;
    put<std::uint64_t>(file, fnv1a(file));
    return file;
}

Checkpoint decode_checkpoint(const std::string& path, const std::string& bytes) {
    Reader in(path, bytes);
    if (bytes.compare(0, std::strlen(kMagic), kMagic) != 0) {
        in.fail("it does not start with \"pmcount-checkpoint 1\"");
    }
    in.line();  // the magic
    const std::string length_line = in.line();
    char* end = nullptr;
    const unsigned long long length = std::strtoull(length_line.c_str(), &end, 10);
    if (length_line.empty() || *end != '\0') {
        in.fail("it is damaged (its length line is not a number)");
    }
    const std::size_t rest = bytes.size() - in.position();
    if (rest < length) {
        in.fail("it is truncated (" + std::to_string(bytes.size()) + " bytes, " +
                std::to_string(length - rest) + " missing)");
    }
    if (rest > length || length < sizeof(std::uint64_t)) {
        in.fail("it is damaged (bytes after its end)");
    }
    const std::size_t body = bytes.size() - sizeof(std::uint64_t);
    std::uint64_t stored = 0;
    std::memcpy(&stored, bytes.data() + body, sizeof stored);
    if (fnv1a(std::string_view(bytes.data(), body)) != stored) {
        in.fail("it is damaged (its checksum does not match its contents)");
    }
    Checkpoint c;
    c.identity.version = in.line();
    c.identity.input = in.line();
    c.identity.plan = in.line();
    const auto tasks = in.get<std::uint64_t>();
    for (std::uint64_t k = 0; k < tasks; ++k) {
        Task t;
        t.bits = static_cast<int>(in.get<std::uint32_t>());
        t.chunks = in.get<std::uint64_t>();
        t.record_bytes = in.get<std::uint64_t>();
        // Records are small (a chunk's partial sums); a loop's chunk count is bounded by the
        // file, which holds a done flag for each. An estimate's stream may have none yet.
        if (t.record_bytes == 0 || t.record_bytes > (std::size_t{1} << 16) || t.bits < 0 ||
            t.bits > 64) {
            in.fail("it is damaged (loop " + std::to_string(k + 1) + " has impossible sizes)");
        }
        in.need(t.chunks);
        t.done.resize(t.chunks);
        in.copy(t.done.data(), t.chunks);
        if (std::any_of(t.done.begin(), t.done.end(), [](unsigned char d) { return d > 1; })) {
            in.fail("it is damaged (loop " + std::to_string(k + 1) + " has a bad chunk flag)");
        }
        // Only the done chunks' records, as the file holds them: the sizes it claims cost
        // nothing until a run opens a loop of those sizes (Task::unpack).
        const std::size_t packed_bytes = t.finished() * t.record_bytes;
        in.need(packed_bytes);
        t.records.resize(packed_bytes);
        in.copy(t.records.data(), packed_bytes);
        t.packed = true;
        c.tasks.push_back(std::move(t));
    }
    if (in.position() != body) {
        in.fail("it is damaged (its loops end before its checksum)");
    }
    return c;
}

std::string read_file(const std::string& path) {
    std::ifstream file(path, std::ios::binary);
    if (!file) {
        throw CheckpointError(path, system_error("it cannot be opened"));
    }
    std::ostringstream bytes;
    bytes << file.rdbuf();
    return bytes.str();
}

void write_atomically(const std::string& path, const std::string& bytes) {
    const std::string temporary = path + ".tmp";
    const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) {
        throw CheckpointError(path, system_error("cannot write the checkpoint"));
    }
    std::size_t written = 0;
    while (written < bytes.size()) {
        const ssize_t n = ::write(fd, bytes.data() + written, bytes.size() - written);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            const std::string why = system_error("cannot write the checkpoint");
            ::close(fd);
            ::unlink(temporary.c_str());
            throw CheckpointError(path, why);
        }
        written += static_cast<std::size_t>(n);
    }
    if (::fsync(fd) != 0 || ::close(fd) != 0) {
        const std::string why = system_error("cannot flush the checkpoint to disk");
        ::unlink(temporary.c_str());
        throw CheckpointError(path, why);
    }
    if (std::rename(temporary.c_str(), path.c_str()) != 0) {
        const std::string why = system_error("cannot move the new checkpoint into place");
        ::unlink(temporary.c_str());
        throw CheckpointError(path, why);
    }
}

std::string identity_mismatch(const Identity& checkpoint, const Identity& run) {
    if (checkpoint.version != run.version) {
        return "it was written by pmcount " + checkpoint.version + ", this is " + run.version;
    }
    if (checkpoint.input != run.input) {
        return "it was written for another input (" + checkpoint.input +
               "; this run: " + run.input + ")";
    }
    if (checkpoint.plan != run.plan) {
        return "it was written for another precision or engine (" + checkpoint.plan +
               "; this run: " + run.plan + ")";
    }
    return {};
}

}  // namespace pmcount::run
