// pmcount::to_json (result.hpp): the library's one JSON form of a count and of an estimate,
// which count_matchings --json prints (adding the input's name, shape and ids) and the Python
// package returns from Result.to_json() and Estimate.to_json(). nlohmann/json stays inside the
// library: the public header hands out the dumped text.
#include <cmath>
#include <nlohmann/json.hpp>
#include <string>

#include "pmcount/result.hpp"

namespace pmcount {

namespace {

/// JSON has no infinities or NaN: a non-finite number is null.
nlohmann::json finite_or_null(double x) {
    return std::isfinite(x) ? nlohmann::json(x) : nlohmann::json(nullptr);
}

nlohmann::json structure_json(const StructureReport& s) {
    nlohmann::json j;
    j["dulmage_mendelsohn"] = s.dulmage_mendelsohn;
    j["reductions_enabled"] = s.reductions;
    j["matching_size"] = s.matching_size;
    j["blocks"] = s.block_orders;
    j["dropped_entries"] = s.dropped_entries;
    j["reductions"] = {{"eliminated", s.eliminated}, {"merged", s.merged}, {"split", s.split}};
    nlohmann::json leaves = nlohmann::json::array();
    for (const BlockReport& leaf : s.leaves) {
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
        j["tutte_set"] = {{"vertices", s.tutte_set}, {"odd_components", s.tutte_odd_components}};
    }
    if (!s.hall_rows.empty()) {
        j["hall_violator"] = {{"rows", s.hall_rows}, {"neighbours", s.hall_cols}};
    }
    j["plan"] = s.plan_text;
    return j;
}

}  // namespace

std::string to_json(const CountResult& r) {
    nlohmann::json j;
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
    j["n"] = r.stats.n;
    j["nnz"] = r.stats.nnz;
    j["threads"] = r.stats.threads;
    j["ranks"] = r.stats.ranks;
    j["resumed_chunks"] = r.stats.resumed_chunks;
    j["primes"] = r.stats.primes;
    j["gray_steps"] = r.stats.gray_steps;
    if (!r.note.empty()) {
        j["note"] = r.note;
    }
    j["structure"] = structure_json(r.structure);
    j["explain_only"] = r.explained_only;
    j["timings"] = {{"preprocess_s", r.timings.preprocess_s},
                    {"count_s", r.timings.count_s},
                    {"device_s", r.timings.device_s},
                    {"total_s", r.timings.total_s}};
    if (!r.timings.kernel_cache.empty()) {
        j["timings"]["codegen_s"] = r.timings.codegen_s;
        j["timings"]["compile_s"] = r.timings.compile_s;
        j["timings"]["kernel_cache"] = r.timings.kernel_cache;
    }
    return j.dump();
}

std::string to_json(const EstimateResult& r) {
    nlohmann::json j;
    j["estimator"] = r.estimator;
    j["log10_value"] = finite_or_null(r.log10_value);
    j["log10_ci_low"] = finite_or_null(r.log10_ci_low);
    j["log10_ci_high"] = finite_or_null(r.log10_ci_high);
    if (std::isfinite(r.value)) {
        j["value"] = r.value;
    }
    j["rel_std_error"] = finite_or_null(r.rel_std_error);
    j["confidence"] = r.confidence;
    j["samples"] = r.samples;
    j["resumed_samples"] = r.resumed_samples;
    j["particles"] = r.particles;
    j["particles_reason"] = r.particles_reason;
    if (r.particles > 1) {
        j["populations"] = r.populations;
    }
    j["zero_fraction"] = r.zero_fraction;
    j["effective_samples"] = r.effective_samples;
    j["max_share"] = r.max_share;
    j["log_sd"] = r.log_sd;
    j["stopped"] = to_string(r.stopped);
    j["seed"] = r.seed;
    j["layout"] = r.layout;
    j["backend"] = r.backend;
    if (!r.device.empty()) {
        j["device"] = r.device;
    }
    j["threads"] = r.threads;
    j["ranks"] = r.ranks;
    j["n"] = r.n;
    j["nnz"] = r.nnz;
    if (!r.note.empty()) {
        j["note"] = r.note;
    }
    j["timings"] = {{"estimate_s", r.seconds}, {"sample_s", r.sample_seconds}};
    return j.dump();
}

}  // namespace pmcount
