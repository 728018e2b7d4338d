#include "count_output.hpp"

#include <iostream>
#include <variant>

namespace pmcount::tools {

namespace {

/// "12×12, 40 entries"; a general graph "12 vertices, 20 edges"; a hafnian's matrix "12×12
/// symmetric, 40 entries".
std::string shape_text(const Input& input) {
    if (std::holds_alternative<UndirectedGraph>(input.data)) {
        return std::to_string(input.rows()) + " vertices, " + std::to_string(input.nnz() / 2) +
               " edges";
    }
    return std::to_string(input.rows()) + "×" + std::to_string(input.cols()) +
           (input.hafnian ? " symmetric, " : ", ") + std::to_string(input.nnz()) + " entries";
}

/// "{3, 7, 9}" (at most 20 shown) with label(item) as text.
template <class Items, class Label>
std::string label_list(const Items& items, Label label) {
    constexpr std::size_t kShown = 20;
    std::string text = "{";
    for (std::size_t i = 0; i < items.size() && i < kShown; ++i) {
        text += (i == 0 ? "" : ", ") + label(items[i]);
    }
    if (items.size() > kShown) {
        text += ", ... " + std::to_string(items.size() - kShown) + " more";
    }
    return text + "}";
}

/// "rows {3, 7, 9} have only the 2 neighbours {1, 4}", labelled as in the file (capped).
std::string hall_witness(const Input& input, const StructureReport& s) {
    auto row = [&](vertex_t r) { return std::to_string(input.row_label(r)); };
    auto col = [&](vertex_t c) { return std::to_string(input.col_label(c)); };
    return "rows " + label_list(s.hall_rows, row) + " have only the " +
           std::to_string(s.hall_cols.size()) + " neighbour(s) " + label_list(s.hall_cols, col);
}

/// A vertex of the general-graph path as the file named it. A bipartite input counted with
/// --general has its rows first, then its columns: their ids when the file's ids were kept (an
/// undirected edge list), else "left 3" / "right 5" (edge lists) or "row 3" / "column 5".
nlohmann::json vertex_label(const Input& input, vertex_t v) {
    if (input.is_general()) {
        return input.row_label(v);
    }
    const bool row = v < input.rows();
    const std::int64_t id = row ? input.row_label(v) : input.col_label(v - input.rows());
    if (!input.left_ids.empty()) {
        return id;
    }
    const bool mtx = input.format == InputFormat::matrix_market;
    return std::string(row ? (mtx ? "row " : "left ") : (mtx ? "column " : "right ")) +
           std::to_string(id);
}

/// "the Tutte set {3, 7} (2 vertices) leaves 4 odd components".
std::string tutte_witness(const Input& input, const StructureReport& s) {
    auto label = [&](vertex_t v) {
        const nlohmann::json j = vertex_label(input, v);
        return j.is_string() ? j.get<std::string>() : j.dump();
    };
    return "the Tutte set " + label_list(s.tutte_set, label) + " (" +
           std::to_string(s.tutte_set.size()) + " vertices) leaves " +
           std::to_string(s.tutte_odd_components) + " odd components when removed";
}

}  // namespace

nlohmann::json count_json(const Input& input, const CountResult& r, const std::string& counted,
                          double read_s, double total_s) {
    nlohmann::json j = nlohmann::json::parse(to_json(r));
    j["input"] = input.source;
    j["format"] = input.format == InputFormat::matrix_market ? "matrix_market" : "edge_list";
    j["counted"] = counted;
    j["rows"] = input.rows();
    j["cols"] = input.cols();
    j["nnz"] = input.nnz();
    j["warnings"] = input.warnings;
    // The witnesses' vertices as the file names them, not as indices.
    nlohmann::json& s = j["structure"];
    if (s.contains("tutte_set")) {
        for (nlohmann::json& v : s["tutte_set"]["vertices"]) {
            v = vertex_label(input, v.get<vertex_t>());
        }
    }
    if (s.contains("hall_violator")) {
        for (nlohmann::json& row : s["hall_violator"]["rows"]) {
            row = input.row_label(row.get<vertex_t>());
        }
        for (nlohmann::json& col : s["hall_violator"]["neighbours"]) {
            col = input.col_label(col.get<vertex_t>());
        }
    }
    j["timings"]["read_s"] = read_s;
    j["timings"]["total_s"] = total_s;
    return j;
}

void print_explanation(const Input& input, const CountResult& r, const std::string& counted) {
    const StructureReport& s = r.structure;
    std::cout << "plan for " << counted << " of " << input.source << " (" << shape_text(input)
              << ", " << to_string(r.kind) << ")\n";
    if (!r.note.empty()) {
        std::cout << "note: " << r.note << "\n";
    }
    if (!s.hall_rows.empty()) {
        std::cout << "witness: " << hall_witness(input, s) << "\n";
    }
    if (s.general && s.tutte_odd_components > 0) {
        std::cout << "witness: " << tutte_witness(input, s) << "\n";
    }
    if (r.method == "loop-hafnian") {
        // No structure front end: the blocks are in the plan text below.
    } else if (s.general) {
        if (s.dulmage_mendelsohn) {
            std::cout << "maximum matching (blossom): " << s.matching_size
                      << " edges; pieces (components, blocks): " << s.block_orders.size()
                      << "; edges in no perfect matching: " << s.dropped_entries << "\n";
        }
        std::cout << "reductions: " << s.eliminated << " forced edges, " << s.merged
                  << " degree-2 contractions (bipartite pieces: Forbert–Marx " << s.split
                  << " split); " << s.leaves.size() << " leaf problem(s)\n";
    } else {
        if (s.dulmage_mendelsohn) {
            std::cout << "maximum matching: " << s.matching_size
                      << "; fine Dulmage–Mendelsohn blocks: " << s.block_orders.size()
                      << "; entries in no perfect matching: " << s.dropped_entries << "\n";
        }
        std::cout << "Forbert–Marx: " << s.eliminated << " eliminated, " << s.merged << " merged, "
                  << s.split << " split; " << s.leaves.size() << " leaf problem(s)\n";
    }
    std::cout << s.plan_text << "predicted total: " << s.predicted_s << " s on " << r.stats.threads
              << " thread(s)\n";
}

void print_count(const Input& input, const CountResult& result, const std::string& counted,
                 bool summary, double total_s) {
    std::cout << result.value_string() << std::endl;
    if (!summary) {
        return;
    }
    std::cerr << counted << " of " << input.source << " (" << shape_text(input) << ", "
              << to_string(result.kind) << "): ";
    if (result.is_exact) {
        std::cerr << "exact";
    } else {
        std::cerr << "relative error ≤ " << result.rel_error
                  << (result.error_kind == "bound" ? " (certified bound)" : " (estimated)");
    }
    std::cerr << "; " << result.method << ", " << result.arithmetic << ", "
              << (result.device.empty() ? std::to_string(result.stats.threads) + " thread(s)"
                                        : result.device)
              << (result.stats.ranks > 1
                      ? " on each of " + std::to_string(result.stats.ranks) + " MPI ranks"
                      : "")
              << (result.stats.resumed_chunks > 0
                      ? ", " + std::to_string(result.stats.resumed_chunks) +
                            " chunks from the checkpoint"
                      : "")
              << ", " << total_s << " s\n";
    if (!result.note.empty()) {
        std::cerr << "note: " << result.note << "\n";
    }
    if (!result.structure.hall_rows.empty()) {
        std::cerr << "witness: " << hall_witness(input, result.structure) << "\n";
    }
    if (result.structure.general && result.structure.tutte_odd_components > 0) {
        std::cerr << "witness: " << tutte_witness(input, result.structure) << "\n";
    }
}

namespace {

std::string matchings_counted(const MatchingsResult& r) {
    switch (r.query) {
        case MatchingQuery::all:
            return "all matchings (Hosoya index)";
        case MatchingQuery::polynomial:
            return "matching polynomial";
        case MatchingQuery::size:
            return "matchings of size " + std::to_string(r.size);
        case MatchingQuery::monomer_dimer:
            return "monomer-dimer partition function at x = " + r.monomer_weight;
    }
    return "";
}

}  // namespace

void print_matchings(const Input& input, const MatchingsResult& r, bool summary, double total_s) {
    if (r.query == MatchingQuery::polynomial) {
        for (const BigInt& c : r.coefficients) {
            std::cout << c.to_string() << "\n";
        }
        std::cout.flush();
    } else {
        std::cout << r.value_string() << std::endl;
    }
    if (!summary) {
        return;
    }
    std::cerr << matchings_counted(r) << " of " << input.source << " (" << r.vertices
              << " vertices, " << r.edges << " edges, " << r.components
              << (r.components == 1 ? " component" : " components") << "): exact; " << r.method
              << ", " << r.arithmetic << ", " << total_s << " s\n";
    if (r.query == MatchingQuery::polynomial) {
        std::cerr << "coefficients m_0 ... m_" << r.coefficients.size() - 1
                  << " (m_k: matchings of k edges); their sum, the Hosoya index, is "
                  << r.numerator.to_string() << "\n";
    }
}

nlohmann::json matchings_json(const Input& input, const MatchingsResult& r, double read_s,
                              double total_s) {
    nlohmann::json j;
    j["input"] = input.source;
    j["counted"] = matchings_counted(r);
    j["query"] = to_string(r.query);
    j["exact"] = true;
    j["value"] = r.value_string();
    if (r.query == MatchingQuery::polynomial) {
        nlohmann::json c = nlohmann::json::array();
        for (const BigInt& x : r.coefficients) {
            c.push_back(x.to_string());
        }
        j["coefficients"] = c;
        j["hosoya_index"] = r.numerator.to_string();
    }
    if (r.query == MatchingQuery::size) {
        j["size"] = r.size;
    }
    if (r.query == MatchingQuery::monomer_dimer) {
        j["monomer_weight"] = r.monomer_weight;
        j["numerator"] = r.numerator.to_string();
        j["denominator"] = r.denominator.to_string();
    }
    j["vertices"] = r.vertices;
    j["edges"] = r.edges;
    j["components"] = r.components;
    j["method"] = r.method;
    j["arithmetic"] = r.arithmetic;
    j["warnings"] = input.warnings;
    j["timings"] = {{"read_s", read_s}, {"count_s", r.seconds}, {"total_s", total_s}};
    return j;
}

void print_version() {
    const BuildInfo info = build_info();
    std::cout << "count_matchings (pmcount) " << info.version << "\n"
              << "compiler: " << info.compiler << ", build " << info.build_type << "\n"
              << "OpenMP: " << info.max_threads << " threads\n"
              << "CUDA: "
              << (info.cuda_compiled ? "built with CUDA " + info.cuda_version : "not built") << "\n"
              << "MPI: " << (info.mpi_library.empty() ? "not built" : info.mpi_library) << "\n";
    if (info.devices.empty()) {
        std::cout << "GPUs: none (" << info.device_status << ")\n";
    }
    for (const auto& d : info.devices) {
        std::cout << "GPU " << d.index << ": " << d.name << " (sm_" << d.compute_major
                  << d.compute_minor << ", " << d.multiprocessors << " SMs, "
                  << d.memory_bytes / (1024 * 1024) << " MiB)\n";
    }
}

}  // namespace pmcount::tools
