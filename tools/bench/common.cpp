#include "common.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <sstream>
#include <thread>

#include "pmcount/build_info.hpp"

namespace pmcount::bench {

std::vector<std::string> split(const std::string& text, char separator) {
    std::vector<std::string> parts;
    std::string part;
    std::istringstream in(text);
    while (std::getline(in, part, separator)) {
        part.erase(0, part.find_first_not_of(" \t"));
        part.erase(part.find_last_not_of(" \t") + 1);
        if (!part.empty()) {
            parts.push_back(part);
        }
    }
    return parts;
}

int parse_int(const std::string& text, const char* what) {
    std::size_t used = 0;
    int value = 0;
    try {
        value = std::stoi(text, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (used != text.size() || text.empty()) {
        throw CLI::ValidationError(what, "'" + text + "' is not an integer");
    }
    return value;
}

std::vector<int> parse_orders(const std::string& text) {
    std::vector<int> orders;
    for (const std::string& item : split(text, ',')) {
        const std::vector<std::string> bounds = split(item, ':');
        if (bounds.empty() || bounds.size() > 3) {
            throw CLI::ValidationError("--n", "'" + item + "' is not n or first:last[:step]");
        }
        const int first = parse_int(bounds[0], "--n");
        const int last = bounds.size() > 1 ? parse_int(bounds[1], "--n") : first;
        const int step = bounds.size() > 2 ? parse_int(bounds[2], "--n") : 1;
        if (first < 1 || last < first || step < 1) {
            throw CLI::ValidationError("--n", "'" + item + "' needs 1 <= first <= last, step >= 1");
        }
        for (int n = first; n <= last; n += step) {
            orders.push_back(n);
        }
    }
    if (orders.empty()) {
        throw CLI::ValidationError("--n", "no matrix order given");
    }
    return orders;
}

std::vector<int> parse_threads(const std::string& text, int all_cores) {
    std::vector<int> threads;
    for (const std::string& item : split(text, ',')) {
        const int count = item == "N" ? all_cores : parse_int(item, "--threads");
        if (count < 1) {
            throw CLI::ValidationError("--threads", "thread counts must be at least 1");
        }
        if (std::find(threads.begin(), threads.end(), count) == threads.end()) {
            threads.push_back(count);
        }
    }
    if (threads.empty()) {
        throw CLI::ValidationError("--threads", "no thread count given");
    }
    return threads;
}

Json finite_or_null(double x) {
    return std::isfinite(x) ? Json(x) : Json(nullptr);
}

std::string format_double(double x) {
    char text[32];
    std::snprintf(text, sizeof text, "%.17g", x);
    return text;
}

std::string format_short(double x) {
    char text[32];
    std::snprintf(text, sizeof text, "%.3g", x);
    return text;
}

double median(std::vector<double> values) {
    if (values.empty()) {
        return std::numeric_limits<double>::quiet_NaN();
    }
    std::sort(values.begin(), values.end());
    const std::size_t mid = values.size() / 2;
    return values.size() % 2 == 1 ? values[mid] : 0.5 * (values[mid - 1] + values[mid]);
}

std::string cpu_model() {
    std::ifstream cpuinfo("/proc/cpuinfo");
    std::string line;
    while (std::getline(cpuinfo, line)) {
        const std::size_t colon = line.find(':');
        if (line.rfind("model name", 0) == 0 && colon != std::string::npos) {
            // split() trims the blanks around the name.
            const std::vector<std::string> name = split(line.substr(colon + 1), '\n');
            if (!name.empty()) {
                return name.front();
            }
        }
    }
    return "unknown";
}

std::string utc_now() {
    const std::time_t now = std::time(nullptr);
    std::tm utc{};
    gmtime_r(&now, &utc);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
    return text;
}

Json machine_context(const std::string& command) {
    const BuildInfo info = build_info();
    Json context;
    context["tool"] = "pmcount-bench";
    context["version"] = info.version;
    context["compiler"] = info.compiler;
    context["build_type"] = info.build_type;
    context["openmp"] = info.openmp;
    context["max_threads"] = info.max_threads;
    context["hardware_threads"] = std::thread::hardware_concurrency();
    context["cpu_model"] = cpu_model();
    context["cuda_compiled"] = info.cuda_compiled;
    context["gpus"] = info.devices.size();
    context["date"] = utc_now();
    context["command"] = command;
    return context;
}

std::uint64_t mix64(std::uint64_t x) {
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

std::string shell_quote(const std::string& text) {
    std::string quoted = "'";
    for (const char c : text) {
        quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    }
    return quoted + "'";
}

ProcessOutput run_command(const std::string& command) {
    ProcessOutput result;
    const std::filesystem::path err_path =
        std::filesystem::temp_directory_path() /
        ("pmcount-bench-" + std::to_string(getpid()) + "-stderr.txt");
    FILE* pipe = popen((command + " 2>" + shell_quote(err_path.string())).c_str(), "r");
    if (pipe == nullptr) {
        result.err = std::strerror(errno);
        return result;
    }
    char buffer[4096];
    std::size_t got = 0;
    while ((got = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) {
        result.out.append(buffer, got);
    }
    const int status = pclose(pipe);
    result.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    std::ifstream err_file(err_path);
    result.err.assign(std::istreambuf_iterator<char>(err_file), std::istreambuf_iterator<char>());
    std::error_code ignored;
    std::filesystem::remove(err_path, ignored);
    return result;
}

std::optional<Json> parse_script_output(const ProcessOutput& output, std::string& failure) {
    const std::vector<std::string> lines = split(output.out, '\n');
    std::optional<Json> parsed;
    if (!lines.empty()) {
        parsed = Json::parse(lines.back(), nullptr, false);
        if (parsed->is_discarded() || !parsed->is_object()) {
            parsed.reset();
        }
    }
    if (parsed && parsed->contains("error")) {
        failure = (*parsed)["error"].get<std::string>();
        return std::nullopt;
    }
    if (output.status != 0 || !parsed) {
        const std::vector<std::string> err_lines = split(output.err, '\n');
        failure = "exit status " + std::to_string(output.status) +
                  (err_lines.empty() ? std::string() : ": " + err_lines.back());
        return std::nullopt;
    }
    return parsed;
}

/// count_matchings beside this program (the build's bin/ or the install's), else on PATH.
std::string default_count_matchings() {
    std::error_code error;
    const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", error);
    if (!error) {
        const std::filesystem::path sibling = self.parent_path() / "count_matchings";
        if (std::filesystem::exists(sibling)) {
            return sibling.string();
        }
    }
    return "count_matchings";
}

// ---- Random matrices --------------------------------------------------------------------------

namespace {

/// Kuhn's augmenting-path algorithm (Kuhn 1955) on the nonzero pattern of a square row-major
/// matrix: one depth-first search for an augmenting path per row, O(n · nnz) time, O(n + nnz)
/// memory (adjacency lists, the row matched to each column, the columns visited by the current
/// search). Small and independent of the library's Hopcroft–Karp, which it must not rely on to
/// build the matrices that test it.
class KuhnMatcher {
public:
    KuhnMatcher(const std::vector<double>& entries, int n)
        : neighbours_(static_cast<std::size_t>(n)),
          row_of_col_(static_cast<std::size_t>(n), -1),
          visited_(static_cast<std::size_t>(n), 0) {
        for (int i = 0; i < n; ++i) {
            for (int j = 0; j < n; ++j) {
                if (entries[static_cast<std::size_t>(i) * static_cast<std::size_t>(n) +
                            static_cast<std::size_t>(j)] != 0.0) {
                    neighbours_[static_cast<std::size_t>(i)].push_back(j);
                }
            }
        }
    }

    bool has_perfect_matching() {
        for (std::size_t row = 0; row < neighbours_.size(); ++row) {
            std::fill(visited_.begin(), visited_.end(), 0);
            if (!augment(static_cast<int>(row))) {
                return false;  // a maximum matching misses this row for good
            }
        }
        return true;
    }

private:
    /// Matches `row`, re-matching the rows along an alternating path; recursion depth <= n.
    bool augment(int row) {
        for (const int col : neighbours_[static_cast<std::size_t>(row)]) {
            char& seen = visited_[static_cast<std::size_t>(col)];
            if (seen != 0) {
                continue;
            }
            seen = 1;
            int& owner = row_of_col_[static_cast<std::size_t>(col)];
            if (owner < 0 || augment(owner)) {
                owner = row;
                return true;
            }
        }
        return false;
    }

    std::vector<std::vector<int>> neighbours_;
    std::vector<int> row_of_col_;
    std::vector<char> visited_;
};

/// Rejected draws after which a sparse case gives up: the density is too low for n. A rejection
/// costs about 0.3 µs at n = 24, density 0.05, where 1 draw in 2·10^7 to 6·10^7 is accepted;
/// 10^9 keeps a failure there out of reach (e^-16) and gives up after about 5 minutes.
constexpr std::int64_t max_sparse_redraws = 1'000'000'000;

}  // namespace

/// Row-major entries of the sparse cases: each entry nonzero with probability `density` (one
/// uniform draw), its value 1 (sparse-binary) or 1 − a second draw, uniform in (0, 1]
/// (sparse-real). A matrix without a perfect matching is rejected and the next one drawn from the
/// same stream, so the result is the i.i.d. matrix conditioned on a nonzero pattern with a perfect
/// matching (its permanent is then > 0). A draw is abandoned as soon as a row comes out empty:
/// the same conditional distribution, far fewer draws at low density. `redraws` counts rejections.
std::vector<double> sparse_entries(const std::string& name, int n, double density, bool binary,
                                   Draw& draw, std::int64_t& redraws) {
    std::vector<double> entries(static_cast<std::size_t>(n) * static_cast<std::size_t>(n));
    for (redraws = 0;; ++redraws) {
        if (redraws > max_sparse_redraws) {
            throw std::runtime_error(name + " n=" + std::to_string(n) +
                                     ": no matrix with a perfect matching in " +
                                     std::to_string(max_sparse_redraws) + " draws at density " +
                                     format_short(density) + "; raise --density");
        }
        bool empty_row = false;
        for (int i = 0; i < n && !empty_row; ++i) {
            bool nonzero_in_row = false;
            for (int j = 0; j < n; ++j) {
                double x = 0.0;
                if (draw.uniform01() < density) {
                    x = binary ? 1.0 : 1.0 - draw.uniform01();
                    nonzero_in_row = true;
                }
                entries[static_cast<std::size_t>(i) * static_cast<std::size_t>(n) +
                        static_cast<std::size_t>(j)] = x;
            }
            empty_row = !nonzero_in_row;
        }
        if (!empty_row && KuhnMatcher(entries, n).has_perfect_matching()) {
            return entries;
        }
    }
}


}  // namespace pmcount::bench
