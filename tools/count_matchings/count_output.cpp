#include "count_output.hpp"

#include <iostream>
#include <variant>

#include "estimate_output.hpp"

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

nlohmann::json structure_json(const Input& input, const StructureReport& s) {
    nlohmann::json j;
    j["dulmage_mendelsohn"] = s.dulmage_mendelsohn;
    j["reductions_enabled"] = s.reductions;
    j["matching_size"] = s.matching_size;
    j["blocks"] = s.block_orders;
    j["dropped_entries"] = s.dropped_entries;
    j["reductions"] = {{"eliminated", s.eliminated}, {"merged", s.merged}, {"split", s.split}};
    nlohmann::json leaves = nlohmann::json::array();
    for (const auto& leaf : s.leaves) {
        leaves.push_back({{"order", leaf.order},
                          {"nnz", leaf.nnz},
                          {"engine", leaf.engine},
                          {"origin", leaf.origin},
                          {"predicted_s", finite_or_null(leaf.predicted_s)},
                          {"seconds", leaf.seconds}});
    }
    j["leaves"] = leaves;
    j["predicted_s"] = finite_or_null(s.predicted_s);
    j["machine_speed_measured"] = s.machine_speed_measured;
    j["general"] = s.general;
    if (s.general && s.tutte_odd_components > 0) {
        nlohmann::json set = nlohmann::json::array();
        for (const auto v : s.tutte_set) {
            set.push_back(vertex_label(input, v));
        }
        j["tutte_set"] = {{"vertices", set}, {"odd_components", s.tutte_odd_components}};
    }
    if (!s.hall_rows.empty()) {
        nlohmann::json rows = nlohmann::json::array(), cols = nlohmann::json::array();
        for (const auto r : s.hall_rows) {
            rows.push_back(input.row_label(r));
        }
        for (const auto c : s.hall_cols) {
            cols.push_back(input.col_label(c));
        }
        j["hall_violator"] = {{"rows", rows}, {"neighbours", cols}};
    }
    j["plan"] = s.plan_text;
    return j;
}

}  // namespace

nlohmann::json count_json(const Input& input, const CountResult& r, const std::string& counted,
                          double read_s, double total_s) {
    nlohmann::json j;
    j["input"] = input.source;
    j["format"] = input.format == InputFormat::matrix_market ? "matrix_market" : "edge_list";
    j["counted"] = counted;
    j["kind"] = to_string(r.kind);
    if (!r.explained_only) {
        j["value"] = r.value_string();
        j["exact"] = r.is_exact;
        j["log10"] = finite_or_null(r.log10_abs);
        j["sign"] = r.sign;
        if (r.kind == ValueKind::complex) {
            j["value_re"] = r.complex_value.real();
            j["value_im"] = r.complex_value.imag();
        }
        if (!r.is_exact) {
            j["rel_error"] = finite_or_null(r.rel_error);
            j["abs_error"] = r.abs_error;
        }
        j["error_kind"] = r.error_kind;
        // "double" when cancellation made the default precision count again (see the note)
        j["escalated_from"] =
            r.escalated_from.empty() ? nlohmann::json(nullptr) : nlohmann::json(r.escalated_from);
    }
    j["method"] = r.method;
    j["backend"] = r.backend;
    if (!r.device.empty()) {
        j["device"] = r.device;
    }
    j["arithmetic"] = r.arithmetic;
    j["rows"] = input.rows();
    j["cols"] = input.cols();
    j["n"] = r.stats.n;
    j["nnz"] = input.nnz();
    j["threads"] = r.stats.threads;
    j["ranks"] = r.stats.ranks;
    j["resumed_chunks"] = r.stats.resumed_chunks;
    j["primes"] = r.stats.primes;
    j["gray_steps"] = r.stats.gray_steps;
    if (!r.note.empty()) {
        j["note"] = r.note;
    }
    j["warnings"] = input.warnings;
    j["structure"] = structure_json(input, r.structure);
    j["explain_only"] = r.explained_only;
    j["timings"] = {{"read_s", read_s},
                    {"preprocess_s", r.timings.preprocess_s},
                    {"count_s", r.timings.count_s},
                    {"device_s", r.timings.device_s},
                    {"total_s", total_s}};
    if (!r.timings.kernel_cache.empty()) {
        j["timings"]["codegen_s"] = r.timings.codegen_s;
        j["timings"]["compile_s"] = r.timings.compile_s;
        j["timings"]["kernel_cache"] = r.timings.kernel_cache;
    }
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
    if (s.general) {
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
