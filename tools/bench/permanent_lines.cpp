#include "permanent_lines.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "permanent_checks.hpp"

namespace pmcount::bench::permanents {

// ---- Report -------------------------------------------------------------------------------------

Json structure_json(const std::string& result_json) {
    return Json::parse(result_json)["structure"];
}

Json measurement_line(const TestMatrix& matrix, const Measurement& m) {
    Json j;
    j["case"] = matrix.case_name;
    j["engine"] = m.engine;
    j["device"] = m.device;
    j["arithmetic"] = m.arithmetic;
    j["threads"] = m.threads;
    j["n"] = matrix.n;
    j["nnz"] = matrix.nnz;
    if (!m.front_end.empty()) {
        j["front_end"] = m.front_end;
    }
    if (matrix.sparse) {
        j["density"] = matrix.density;
        j["redraws"] = matrix.redraws;
    }
    if (!m.skipped.empty()) {
        j["predicted_seconds"] = finite_or_null(m.predicted_seconds.value_or(0));
        j["skipped"] = m.skipped;
        j["check"] = "skipped";
        j["seed"] = matrix.base_seed;
        j["matrix_seed"] = matrix.seed;
        j["matrix_hash"] = matrix.hash;
        return j;
    }
    if (m.ran() && m.threads_used != m.threads) {
        j["threads_used"] = m.threads_used;
    }
    if (!m.note.empty()) {
        j["note"] = m.note;
    }
    if (!m.refused.empty()) {
        j["max_predicted_seconds"] = m.max_predicted_seconds;
        j["refused"] = m.refused;
        j["check"] = "refused";
        j["seed"] = matrix.base_seed;
        j["matrix_seed"] = matrix.seed;
        j["matrix_hash"] = matrix.hash;
        return j;
    }
    if (!m.ran()) {
        j["error_message"] = m.run_error;
        j["check"] = "ERROR";
        return j;
    }
    j["seconds"] = seconds(m);
    if (m.predicted_seconds) {
        j["predicted_seconds"] = finite_or_null(*m.predicted_seconds);
    }
    j["samples"] = m.samples;
    if (!m.kernel_cache.empty()) {
        j["codegen_seconds"] = m.codegen_seconds;
        j["compile_seconds"] = m.compile_seconds;
        j["kernel_cache"] = m.kernel_cache;
    }
    if (!m.engine_samples.empty()) {
        j["engine_seconds"] = median(m.engine_samples);
    }
    if (m.device != "cpu" && !m.device_samples.empty()) {
        // Kernels and transfers only (run-time compilation and set-up excluded), against the
        // FP64 roofline measured in this run: 2n FP64 instructions per Gray step (SUPERMAN's
        // count), 2^(n−1) steps.
        const double device_seconds = median(m.device_samples);
        j["device_seconds"] = device_seconds;
        if (m.fp64_rate > 0 && device_seconds > 0) {
            j["fp64_rate"] = m.fp64_rate;
            // Hafnians: the multiply-adds the engine reports (all primes' in exact arithmetic,
            // whose 32-bit integer multiply-adds are counted at the FP64 rate; four FP64
            // multiply-adds per complex one).
            const double per_multiply_add = matrix.complex.rows() > 0 ? 4.0 : 1.0;
            const double work = matrix.hafnian ? per_multiply_add * m.multiply_adds
                                               : std::ldexp(2.0 * matrix.n, matrix.n - 1);
            if (matrix.hafnian) {
                j["multiply_adds"] = m.multiply_adds;
            }
            j["roofline_fraction"] = work / (m.fp64_rate * device_seconds);
        }
    }
    if (m.timed_out) {
        j["timed_out"] = true;
        j["note"] = m.arithmetic_detail;
        j["value"] = nullptr;
        return j;
    }
    j["value"] = m.value_text;
    j["rel_error"] = m.pmcount ? finite_or_null(m.rel_error) : Json(nullptr);
    j["error"] = m.observed_error ? finite_or_null(*m.observed_error) : Json(nullptr);
    j["error_reference"] = m.observed_reference;
    j["check"] = !m.mismatches.empty() ? "MISMATCH" : (m.checks > 0 ? "ok" : "unchecked");
    std::string references;
    for (const std::string& r : m.references) {
        references += (references.empty() ? "" : "; ") + r;
    }
    j["reference"] = references;
    if (!m.mismatches.empty()) {
        j["mismatches"] = m.mismatches;
    }
    if (m.reference_only) {
        j["role"] = "reference";
    }
    if (matrix.reducible() && m.pmcount) {
        j["planted_blocks"] = matrix.planted_blocks;
        j["structure"] = structure_json(m.result_json);
    }
    if (matrix.sparse && m.engine == "planner") {
        j["chosen_method"] = m.method_ran;
        j["structure"] = structure_json(m.result_json);
    }
    j["arithmetic_detail"] = m.arithmetic_detail;
    j["seed"] = matrix.base_seed;
    j["matrix_seed"] = matrix.seed;
    j["matrix_hash"] = matrix.hash;
    return j;
}

Json ratio_line(const TestMatrix& matrix, const Measurement& measured,
                const Measurement& baseline) {
    auto name = [](const Measurement& m) {
        return m.family() + "(threads=" + std::to_string(m.threads) + ")";
    };
    Json j;
    j["case"] = matrix.case_name;
    j["n"] = matrix.n;
    j["ratio"] = name(measured) + " vs " + name(baseline);
    j["speedup"] = seconds(baseline) / seconds(measured);
    if (baseline.timed_out) {
        j["speedup_is_lower_bound"] = true;  // the baseline was stopped, unfinished
    }
    return j;
}

std::vector<Json> ratio_lines(const TestMatrix& matrix, const std::vector<Measurement>& all,
                              const std::string& baseline_arithmetic) {
    std::vector<Json> lines;
    auto grid = [](const Measurement& m) { return m.pmcount && !m.reference_only && m.ran(); };
    for (const Measurement& m : all) {
        if (!grid(m)) {
            continue;
        }
        // Thread scaling against the family's first thread count (the first of --threads).
        const auto first = std::find_if(all.begin(), all.end(), [&](const Measurement& x) {
            return grid(x) && x.family() == m.family();
        });
        if (&*first != &m) {
            lines.push_back(ratio_line(matrix, m, *first));
        }
        // The price of a more accurate arithmetic at equal threads.
        if (m.arithmetic != baseline_arithmetic) {
            for (const Measurement& base : all) {
                if (grid(base) && base.engine == m.engine && base.threads == m.threads &&
                    base.arithmetic == baseline_arithmetic) {
                    lines.push_back(ratio_line(matrix, m, base));
                }
            }
        }
    }
    // GPU against CPU on the same matrix and arithmetic (the CPU runs are references here).
    for (const Measurement& m : all) {
        if (!grid(m) || m.device == "cpu") {
            continue;
        }
        for (const Measurement& cpu : all) {
            if (cpu.pmcount && cpu.ran() && cpu.device == "cpu" &&
                cpu.engine == matrix.main_engine() && cpu.arithmetic == m.arithmetic) {
                lines.push_back(ratio_line(matrix, m, cpu));
            }
        }
    }
    std::vector<const Measurement*> walrus;
    for (const Measurement& m : all) {
        if (!m.pmcount && m.ran()) {
            walrus.push_back(&m);
        }
    }
    for (const Measurement& m : all) {
        // thewalrus's double against each of our arithmetics (exact included: the speedup a
        // user gets for the exact integer) at its thread count; the permanent's serial
        // methods against the baseline arithmetic at every thread count.
        if (!grid(m) || m.engine != matrix.main_engine() ||
            (!matrix.hafnian && m.arithmetic != baseline_arithmetic)) {
            continue;
        }
        for (const Measurement* other : walrus) {
            if (matrix.hafnian && m.threads != other->threads) {
                continue;
            }
            Json line = ratio_line(matrix, m, *other);
            if (!other->timed_out) {
                line["rel_difference"] = relative_difference(value_of(*other), value_of(m));
            }
            lines.push_back(std::move(line));
        }
    }
    if (walrus.size() == 2) {
        Json line = ratio_line(matrix, *walrus[0], *walrus[1]);
        line["rel_difference"] = relative_difference(value_of(*walrus[0]), value_of(*walrus[1]));
        lines.push_back(std::move(line));
    }
    return lines;
}

std::vector<Json> sparse_ratio_lines(const TestMatrix& matrix,
                                     const std::vector<Measurement>& all) {
    auto timed = [](const Measurement& m) {
        return m.pmcount && !m.reference_only &&
               (m.ran() ||
                (!m.skipped.empty() && m.predicted_seconds && std::isfinite(*m.predicted_seconds)));
    };
    auto find = [&](const std::string& engine, const std::string& arithmetic,
                    int threads) -> const Measurement* {
        const auto it = std::find_if(all.begin(), all.end(), [&](const Measurement& m) {
            return timed(m) && m.engine == engine && m.arithmetic == arithmetic &&
                   m.threads == threads;
        });
        return it == all.end() ? nullptr : &*it;
    };
    auto time_of = [](const Measurement& m) { return m.ran() ? seconds(m) : *m.predicted_seconds; };
    auto name = [](const Measurement& m) {
        return (m.ran() ? "" : "predicted ") + m.family() +
               "(threads=" + std::to_string(m.threads) + ")";
    };
    auto line = [&](const Measurement& measured, const Measurement& baseline) {
        Json j;
        j["case"] = matrix.case_name;
        j["n"] = matrix.n;
        j["density"] = matrix.density;
        j["ratio"] = name(measured) + " vs " + name(baseline);
        j["speedup"] = time_of(baseline) / time_of(measured);
        j["basis"] = measured.ran() && baseline.ran() ? "measured" : "predicted";
        if (measured.predicted_seconds && baseline.predicted_seconds) {
            j["predicted_speedup"] =
                finite_or_null(*baseline.predicted_seconds / *measured.predicted_seconds);
        }
        return j;
    };
    constexpr std::pair<const char*, const char*> pairs[] = {
        {"skipper", "ryser"},
        {"sparyser", "ryser"},
        {"skipper", "sparyser"},
        {"sparyser-gpu-generated", "sparyser-gpu"},
        {"skipper-gpu-generated", "skipper-gpu"},
        {"sparyser-gpu-generated", "sparyser"},
        {"skipper-gpu", "skipper"},
        {"skipper-gpu-generated", "skipper"}};
    std::vector<Json> lines;
    for (const Measurement& m : all) {
        // Each (arithmetic, threads) once: at its ryser measurement, which every grid point has.
        if (!timed(m) || m.engine != "ryser") {
            continue;
        }
        for (const auto& [fast, slow] : pairs) {
            const Measurement* measured = find(fast, m.arithmetic, m.threads);
            const Measurement* baseline = find(slow, m.arithmetic, m.threads);
            if (measured != nullptr && baseline != nullptr) {
                lines.push_back(line(*measured, *baseline));
            }
        }
    }
    for (const Measurement& planner : all) {
        if (planner.engine != "planner" || !planner.ran()) {
            continue;
        }
        for (const char* engine : {"ryser", "sparyser", "skipper"}) {
            if (const Measurement* other = find(engine, planner.arithmetic, planner.threads)) {
                Json j = line(planner, *other);
                j["chosen_method"] = planner.method_ran;
                lines.push_back(std::move(j));
            }
        }
    }
    return lines;
}

}  // namespace pmcount::bench::permanents
