// count_matchings --approx: printing an EstimateResult as text or as one JSON object.
#pragma once

#include <cmath>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "pmcount/approx.hpp"
#include "pmcount/io.hpp"

namespace pmcount::tools {

/// 10^log10 in scientific notation with `digits` significant digits, for any magnitude.
inline std::string from_log10(double log10, int digits = 6) {
    if (std::isinf(log10)) {
        return log10 < 0 ? "0" : "inf";
    }
    double exponent = std::floor(log10);
    double mantissa = std::pow(10.0, log10 - exponent);
    if (mantissa >= 9.9999995) {  // rounding to `digits` would print 10.00000
        mantissa /= 10;
        exponent += 1;
    }
    char text[64];
    std::snprintf(text, sizeof text, "%.*fe%+.0f", digits - 1, mantissa, exponent);
    return text;
}

/// --approx --json: the library's to_json of the estimate with the input's name and warnings;
/// `read_s` the seconds spent reading, `total_s` the seconds so far.
inline nlohmann::json estimate_json(const Input& input, const EstimateResult& r,
                                    const std::string& counted, double read_s, double total_s) {
    nlohmann::json j = nlohmann::json::parse(to_json(r));
    j["input"] = input.source;
    j["counted"] = counted;
    j["warnings"] = input.warnings;
    j["timings"]["read_s"] = read_s;
    j["timings"]["total_s"] = total_s;
    return j;
}

/// "populations of 16384 particles resampled every 16 steps on weight × potential^0.6", or
/// "independent samples".
inline std::string population_text(const PopulationChoice& c) {
    if (c.particles <= 1) {
        return "independent samples";
    }
    std::ostringstream text;
    text << "populations of " << c.particles << " particles resampled every " << c.resample_every
         << " steps on weight × potential^" << c.potential_exponent;
    return text.str();
}

/// "when the 95% interval's half-width reaches 1%, or after 120 s", from the rules in force.
inline std::string stopping_text(const PopulationChoice& c, double confidence) {
    std::vector<std::string> rules;
    std::ostringstream text;
    if (c.samples > 0) {
        rules.push_back("after " + std::to_string(c.samples) + " samples");
    }
    if (c.rel_error > 0) {
        text << "when the " << 100 * confidence << "% interval's half-width reaches "
             << 100 * c.rel_error << "%";
        rules.push_back(text.str());
        text.str("");
    }
    if (c.time_s > 0) {
        text << "after " << c.time_s << " s";
        rules.push_back(text.str());
    }
    std::string all;
    for (std::size_t k = 0; k < rules.size(); ++k) {
        all += (k == 0 ? "" : ", or ") + rules[k];
    }
    return all + (rules.size() > 1 ? ", whichever comes first" : "");
}

/// The estimator that will run: a general graph takes the bethe sweep unless a rasmussen rule is
/// named (the scaling estimators need two sides; docs/estimators.md, "General graphs").
inline std::string estimator_name(const Input& input, const EstimateOptions& o) {
    if (!input.is_general()) {
        return to_string(o.estimator);
    }
    const bool rasmussen =
        o.estimator == Estimator::rasmussen || o.estimator == Estimator::rasmussen_plus;
    return std::string(rasmussen ? to_string(o.estimator) : "bethe") + " (general graph)";
}

/// --approx --explain: how the estimate would draw its samples and when it would stop.
inline nlohmann::json estimate_plan_json(const Input& input, const EstimateOptions& o,
                                         const PopulationChoice& c, const std::string& counted) {
    nlohmann::json j;
    j["input"] = input.source;
    j["counted"] = counted;
    j["explain_only"] = true;
    j["estimator"] = estimator_name(input, o);
    j["particles"] = c.particles;
    j["resample_every"] = c.resample_every;
    j["potential_exponent"] = c.potential_exponent;
    j["choice"] = c.reason;
    // On the CPU under a time limit a speed pilot may halve an automatic P (particles_reason).
    j["time_pilot"] = c.time_pilot && o.backend != Backend::cuda;
    j["stop_samples"] = c.samples;
    j["stop_rel_error"] = c.rel_error;
    j["stop_time_s"] = c.time_s;
    j["seed"] = o.seed;
    return j;
}

inline void print_estimate_plan(const Input& input, const EstimateOptions& o,
                                const PopulationChoice& c, const std::string& counted) {
    std::cout << "estimate of the " << counted << " of " << input.source << " (" << input.rows()
              << "×" << input.cols() << ", " << input.nnz() << " entries)\n"
              << "estimator " << estimator_name(input, o) << ", " << population_text(c) << " ("
              << c.reason << ")\n"
              << "stops " << stopping_text(c, o.confidence) << "\n";
    if (c.time_pilot && o.backend != Backend::cuda) {
        std::cout << "on the CPU a speed pilot first halves the particles while 16 populations "
                     "would take more than half of the time limit\n";
    }
}

/// Value on stdout; with `summary`, the interval and how it was obtained on stderr.
inline void print_estimate(const Input& input, const EstimateResult& r, const std::string& counted,
                           bool summary, double total_s) {
    std::cout << from_log10(r.log10_value) << std::endl;
    if (!summary) {
        return;
    }
    std::cerr << counted << " of " << input.source << " (" << input.rows() << "×" << input.cols()
              << ", " << input.nnz() << " entries): estimate, " << 100 * r.confidence
              << "% interval [" << from_log10(r.log10_ci_low) << ", " << from_log10(r.log10_ci_high)
              << "], relative standard error " << r.rel_std_error << "; " << r.estimator
              << (r.layout.empty() ? "" : " (" + r.layout + ")") << ", " << r.samples
              << " samples"
              << (r.particles > 1 ? " in " + std::to_string(r.populations) + " populations of " +
                                        std::to_string(r.particles)
                                  : std::string())
              << (r.resumed_samples > 0
                      ? " (" + std::to_string(r.resumed_samples) + " from the checkpoint)"
                      : std::string())
              << " (" << 100 * r.zero_fraction << "% zero, stopped by "
              << to_string(r.stopped) << "), "
              << (r.device.empty() ? std::to_string(r.threads) + " thread(s)" : r.device) << ", "
              << total_s << " s\n";
    if (!r.note.empty()) {
        std::cerr << "note: " << r.note << "\n";
    }
}

}  // namespace pmcount::tools
