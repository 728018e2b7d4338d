#include "input.hpp"

#include <filesystem>
#include <fstream>
#include <variant>
#include <vector>

namespace pmcount::tools {

Input read_named_input(const std::string& path, const ReadOptions& options,
                       const std::string& embedding_path) {
    Input input = is_generator_spec(path) && !std::filesystem::exists(path)
                      ? generated_input(path)
                      : read_input(path, options);
    if (!embedding_path.empty()) {
        read_embedding(embedding_path, input);
    }
    return input;
}

std::string what_is_counted(const Input& input, const std::string& mode) {
    if (!mode.empty()) {
        return mode;
    }
    if (std::holds_alternative<BipartiteGraph>(input.data) ||
        std::holds_alternative<UndirectedGraph>(input.data)) {
        return "perfect matchings";
    }
    if (input.loops) {
        return "loop hafnian";
    }
    if (input.hafnian) {
        return "hafnian";
    }
    if (std::holds_alternative<Digraph>(input.data)) {
        return "cycle covers";
    }
    return "permanent";
}

/// count, except that --permanent of a pattern with unequal sides (given by the file,
/// not 2-coloured) counts its 0-1 matrix's (rectangular) permanent: read as a graph it would
/// count perfect matchings, 0.
CountResult count_as_asked(const Input& input, const std::string& mode,
                           const CountOptions& options) {
    const auto* graph = std::get_if<BipartiteGraph>(&input.data);
    if (mode != "permanent" || graph == nullptr || input.rows() == input.cols() ||
        input.two_coloured) {
        return count(input, options);
    }
    std::vector<Triplet<std::int64_t>> entries;
    entries.reserve(static_cast<std::size_t>(graph->num_edges()));
    for (const auto& [u, v] : graph->edges()) {
        entries.push_back({u, v, 1});
    }
    Input matrix = input;
    matrix.data = SparseMatrix<std::int64_t>(graph->n_left(), graph->n_right(), std::move(entries));
    CountResult r = count(matrix, options);
    r.kind = input.kind();
    return r;
}

void write_dot_file(const std::string& path, const Input& input) {
    if (input.isolated) {
        // The drawing would hold every declared vertex, far more than the file has bytes.
        throw InvalidInput(input.source, 0,
                           "--dot would draw every declared vertex (" +
                               std::to_string(input.rows()) + "×" + std::to_string(input.cols()) +
                               " for " + std::to_string(input.nnz()) + " entries); " +
                               input.isolated->witness + ", so the count is 0 (without --dot)");
    }
    std::ofstream out(path);
    if (!out) {
        throw InvalidArgument("cannot write --dot file '" + path + "'");
    }
    const BipartiteGraph pattern = input.pattern();
    write_dot(out, pattern, dulmage_mendelsohn(pattern));
}

}  // namespace pmcount::tools
