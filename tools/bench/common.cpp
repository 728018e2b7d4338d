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

}  // namespace pmcount::bench
