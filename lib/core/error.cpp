#include "pmcount/error.hpp"

#include <utility>

#include "pmcount/types.hpp"

namespace pmcount {

namespace {

std::string located(const std::string& file, std::int64_t line, const std::string& problem) {
    return line > 0 ? file + ":" + std::to_string(line) + ": " + problem : file + ": " + problem;
}

std::string describe_cycle(const std::vector<std::int64_t>& cycle) {
    constexpr std::size_t kShown = 40;
    std::string text = "graph is not bipartite: odd cycle of length " +
                       std::to_string(cycle.size()) + " through vertices";
    for (std::size_t i = 0; i < cycle.size() && i < kShown; ++i) {
        text += ' ' + std::to_string(cycle[i]);
    }
    if (cycle.size() > kShown) {
        text += " ... (" + std::to_string(cycle.size() - kShown) + " more)";
    }
    return text;
}

}  // namespace

InvalidInput::InvalidInput(std::string file, std::int64_t line, std::string problem)
    : Error(located(file, line, problem)),
      file_(std::move(file)),
      line_(line),
      problem_(std::move(problem)) {}

NotBipartite::NotBipartite(std::string file, std::int64_t line,
                           std::vector<std::int64_t> odd_cycle)
    : InvalidInput(std::move(file), line, describe_cycle(odd_cycle)),
      odd_cycle_(std::move(odd_cycle)) {}

const char* to_string(ValueKind kind) noexcept {
    switch (kind) {
        case ValueKind::binary: return "binary";
        case ValueKind::integer: return "integer";
        case ValueKind::real: return "real";
        case ValueKind::complex: return "complex";
    }
    return "unknown";
}

}  // namespace pmcount
