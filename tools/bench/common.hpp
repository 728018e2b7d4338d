// What every pmcount-bench suite shares: argument lists, JSON lines, the machine context,
// seeded matrices drawn the same way on every platform, and running a Python reference script
// (thewalrus) in a child process.
#pragma once

#include <cstdint>
#include <fstream>
#include <iostream>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace pmcount::bench {

using Json = nlohmann::ordered_json;  // keeps keys in the order written: case, engine, ... first

namespace exit_code {
constexpr int ok = 0;
constexpr int usage = 1;
constexpr int check_failed = 2;
constexpr int runtime_error = 3;
}  // namespace exit_code

// ---- Argument lists -----------------------------------------------------------------------------

/// The items of `text` between separators, trimmed; empty items dropped.
std::vector<std::string> split(const std::string& text, char separator);
/// An int, or CLI::ValidationError naming the option `what`.
int parse_int(const std::string& text, const char* what);
/// "20,24,28", "20:28:2" (inclusive, step defaults to 1) or a mix of both (option --n).
std::vector<int> parse_orders(const std::string& text);
/// Thread counts; "N" stands for every core. Duplicates are dropped, order is kept (the first
/// count is the baseline of the speedup ratios).
std::vector<int> parse_threads(const std::string& text, int all_cores);

// ---- Output -------------------------------------------------------------------------------------

/// One JSON object per line on stdout, and appended to --out when given.
class Emitter {
public:
    explicit Emitter(const std::string& out_path) {
        if (!out_path.empty()) {
            file_.open(out_path, std::ios::app);
            if (!file_) {
                throw std::runtime_error("cannot open --out file '" + out_path + "'");
            }
        }
    }
    void line(const Json& object) {
        const std::string text = object.dump();
        // Flushed per line so that a long run can be followed (and survives being interrupted).
        std::cout << text << std::endl;
        if (file_.is_open()) {
            file_ << text << std::endl;
        }
    }

private:
    std::ofstream file_;
};

/// JSON has no infinities: an unbounded estimate is written as null.
Json finite_or_null(double x);
/// 17 significant digits (round-trips every double) / 3 for human notes.
std::string format_double(double x);
std::string format_short(double x);
/// The median (the mean of the middle two for an even count); NaN for no values.
double median(std::vector<double> values);

// ---- Machine context ----------------------------------------------------------------------------

std::string cpu_model();
std::string utc_now();
/// The fields of a suite's {"context": …} line that describe the build and the machine: tool,
/// version, compiler, build type, OpenMP, threads, CPU model, CUDA, GPUs, date, command.
Json machine_context(const std::string& command);

// ---- Seeded matrices ----------------------------------------------------------------------------

/// SplitMix64's finaliser (Steele, Lea, Flood 2014): spreads (seed, case, n) into unrelated seeds.
std::uint64_t mix64(std::uint64_t x);

/// FNV-1a, 64 bits.
class Fnv1a {
public:
    void add(const void* bytes, std::size_t size) {
        const auto* p = static_cast<const unsigned char*>(bytes);
        for (std::size_t i = 0; i < size; ++i) {
            hash_ = (hash_ ^ p[i]) * 0x100000001b3ULL;
        }
    }
    std::uint64_t value() const { return hash_; }

private:
    std::uint64_t hash_ = 0xcbf29ce484222325ULL;
};

/// Random bits → values, made by hand: mt19937_64's output is fixed by the standard, but the
/// <random> distributions are not (their algorithms differ between standard libraries). With
/// these the same seed gives the same matrix everywhere.
class Draw {
public:
    explicit Draw(std::uint64_t seed) : engine_(seed) {}
    /// The top 53 bits scaled to [0, 1).
    double uniform01() { return static_cast<double>(engine_() >> 11) * 0x1p-53; }
    /// Uniform in [0, bound), bound >= 1, by rejection (no modulo bias).
    std::uint64_t below(std::uint64_t bound) {
        constexpr std::uint64_t top = std::numeric_limits<std::uint64_t>::max();
        const std::uint64_t limit = top - top % bound;  // a multiple of bound
        std::uint64_t x = engine_();
        while (x >= limit) {
            x = engine_();
        }
        return x % bound;
    }
    /// A uniform permutation of 0..n-1 (Fisher–Yates).
    std::vector<int> permutation(int n) {
        std::vector<int> p(static_cast<std::size_t>(n));
        for (int i = 0; i < n; ++i) {
            p[static_cast<std::size_t>(i)] = i;
        }
        for (int i = n - 1; i > 0; --i) {
            const auto j = below(static_cast<std::uint64_t>(i) + 1);
            std::swap(p[static_cast<std::size_t>(i)], p[j]);
        }
        return p;
    }

private:
    std::mt19937_64 engine_;
};

/// Row-major entries of the sparse cases: each entry nonzero with probability `density` (one
/// uniform draw), its value 1 (sparse-binary) or 1 − a second draw, uniform in (0, 1]
/// (sparse-real). A matrix without a perfect matching is rejected and the next one drawn from the
/// same stream, so the result is the i.i.d. matrix conditioned on a nonzero pattern with a perfect
/// matching (its permanent is then > 0). A draw is abandoned as soon as a row comes out empty:
/// the same conditional distribution, far fewer draws at low density. `redraws` counts rejections.
std::vector<double> sparse_entries(const std::string& name, int n, double density, bool binary,
                                   Draw& draw, std::int64_t& redraws);

// ---- Reference scripts --------------------------------------------------------------------------

std::string shell_quote(const std::string& text);

struct ProcessOutput {
    int status = -1;  // exit status, -1 when it did not exit normally
    std::string out;
    std::string err;
};

/// count_matchings beside this program (the build's bin/ or the install's), else on PATH.
std::string default_count_matchings();

/// Runs a shell command; its stdout is returned, its stderr goes through a temporary file so that
/// Python's tracebacks reach the report instead of interleaving with our JSON.
ProcessOutput run_command(const std::string& command);

/// The last JSON object printed by the script, or why there is none (its {"error": …}, or the
/// exit status and the last line of its stderr).
std::optional<Json> parse_script_output(const ProcessOutput& output, std::string& failure);

}  // namespace pmcount::bench
