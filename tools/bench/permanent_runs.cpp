#include "permanent_runs.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

namespace pmcount::bench::permanents {

// ---- Measurements -------------------------------------------------------------------------------

double seconds(const Measurement& m) {
    return median(m.samples);
}

std::string precision_name(pmcount::Precision precision) {
    return pmcount::to_string(precision);
}

bool same_bits(double a, double b) {
    std::uint64_t a_bits = 0;
    std::uint64_t b_bits = 0;
    std::memcpy(&a_bits, &a, sizeof a);
    std::memcpy(&b_bits, &b, sizeof b);
    return a_bits == b_bits;
}

bool identical(const Measurement& a, const Measurement& b) {
    if (a.is_exact || b.is_exact) {
        return a.is_exact && b.is_exact && a.exact == b.exact;
    }
    return same_bits(a.value, b.value) && same_bits(a.value_im, b.value_im) &&
           same_bits(a.abs_error, b.abs_error);
}

void record(Measurement& m, const pmcount::CountResult& r) {
    m.is_exact = r.is_exact;
    m.exact = r.exact;
    m.value = r.is_exact ? r.exact.to_double() : r.value;
    m.value_im = r.is_exact ? 0.0 : r.complex_value.imag();
    m.multiply_adds = r.stats.multiply_adds;
    m.value_text = r.value_string();
    m.rel_error = r.is_exact ? 0.0 : r.rel_error;
    m.abs_error = r.is_exact ? 0.0 : r.abs_error;
    m.arithmetic_detail = r.arithmetic;
    m.threads_used = r.stats.threads;
    m.note = r.note;
    m.method_ran = r.method;
    m.structure = r.structure;
    m.result_json = pmcount::to_json(r);
    m.device = r.backend == "cpu" ? "cpu" : r.device;
}

pmcount::CountOptions count_options(const RunSpec& spec) {
    pmcount::CountOptions options;
    options.method = spec.method;
    options.precision = spec.precision;
    options.threads = spec.threads;
    options.dulmage_mendelsohn = spec.dulmage_mendelsohn;
    options.reductions = spec.reductions;
    options.max_predicted_seconds = spec.max_predicted_seconds;
    options.backend = spec.backend;
    options.gpus = spec.gpus;
    options.gpu_kernels = spec.gpu_kernels;
    return options;
}

pmcount::CountResult count(const TestMatrix& matrix, const pmcount::CountOptions& options) {
    if (matrix.loop) {
        return matrix.binary               ? pmcount::loop_hafnian(matrix.integer, options)
               : matrix.complex.rows() > 0 ? pmcount::loop_hafnian(matrix.complex, options)
                                           : pmcount::loop_hafnian(matrix.real, options);
    }
    if (matrix.hafnian) {
        return matrix.binary               ? pmcount::hafnian(matrix.integer, options)
               : matrix.complex.rows() > 0 ? pmcount::hafnian(matrix.complex, options)
                                           : pmcount::hafnian(matrix.real, options);
    }
    return matrix.binary ? pmcount::permanent(matrix.integer, options)
                         : pmcount::permanent(matrix.real, options);
}

void predict(const TestMatrix& matrix, const RunSpec& spec, Measurement& m) {
    pmcount::CountOptions options = count_options(spec);
    options.explain_only = true;
    try {
        const double predicted = count(matrix, options).structure.predicted_s;
        m.predicted_seconds = predicted;
        if (spec.predict_only) {
            m.skipped = "not in --engines";
        } else if (!(predicted <= spec.skip_above_predicted_s)) {
            m.skipped = "predicted " + format_short(predicted) + " s > --dense-max-seconds " +
                        format_short(spec.skip_above_predicted_s);
        }
    } catch (const pmcount::Error& e) {
        m.run_error = std::string("planning: ") + e.what();
    }
}

std::vector<Measurement> run_pmcount(const TestMatrix& matrix, const std::vector<RunSpec>& specs) {
    std::vector<Measurement> measurements(specs.size());
    int rounds = 0;
    for (std::size_t k = 0; k < specs.size(); ++k) {
        measurements[k].engine = specs[k].engine;
        measurements[k].arithmetic = precision_name(specs[k].precision);
        measurements[k].threads = specs[k].threads;
        measurements[k].reference_only = specs[k].reference_only;
        measurements[k].front_end = specs[k].front_end;
        measurements[k].max_predicted_seconds = specs[k].max_predicted_seconds;
        rounds = std::max(rounds, specs[k].repeats);
    }
    for (int round = 0; round < rounds; ++round) {
        for (std::size_t k = 0; k < specs.size(); ++k) {
            Measurement& m = measurements[k];
            if (round >= specs[k].repeats || !m.run_error.empty() || !m.refused.empty() ||
                !m.skipped.empty()) {
                continue;
            }
            if (round == 0 && specs[k].predict) {
                predict(matrix, specs[k], m);
                if (!m.skipped.empty() || !m.run_error.empty()) {
                    std::cerr << "  " << matrix.case_name << " n=" << matrix.n << " " << m.label()
                              << ": " << (m.skipped.empty() ? "error: " + m.run_error : m.skipped)
                              << "\n";
                    continue;
                }
            }
            const pmcount::CountOptions options = count_options(specs[k]);
            try {
                const auto start = std::chrono::steady_clock::now();
                const pmcount::CountResult r = count(matrix, options);
                const double wall =
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
                Measurement run;
                record(run, r);
                if (m.samples.empty()) {
                    record(m, r);
                    m.codegen_seconds = r.timings.codegen_s;
                    m.compile_seconds = r.timings.compile_s;
                    m.kernel_cache = r.timings.kernel_cache;
                } else if (!identical(m, run)) {
                    m.mismatches.push_back("repeat " + std::to_string(round + 1) + " gave " +
                                           run.value_text + ", repeat 1 gave " + m.value_text);
                }
                m.samples.push_back(wall);
                m.engine_samples.push_back(r.timings.count_s);
                m.device_samples.push_back(r.timings.device_s);
            } catch (const pmcount::ProblemTooLarge& e) {
                // Under a finite limit the refusal is the outcome being measured.
                if (std::isfinite(m.max_predicted_seconds)) {
                    m.refused = e.what();
                } else {
                    m.run_error = e.what();
                }
            } catch (const pmcount::Error& e) {
                m.run_error = e.what();
            }
            std::cerr << "  " << matrix.case_name << " n=" << matrix.n << " " << m.label()
                      << (m.front_end.empty() ? "" : " front end " + m.front_end) << " repeat "
                      << round + 1 << ": "
                      << (!m.run_error.empty() ? "error: " + m.run_error
                          : !m.refused.empty() ? "refused: " + m.refused
                                               : format_short(m.samples.back()) + " s")
                      << (m.predicted_seconds && m.run_error.empty()
                              ? " (predicted " + format_short(*m.predicted_seconds) + " s)"
                              : std::string())
                      << "\n";
        }
    }
    for (Measurement& m : measurements) {
        if (m.samples.size() > 1) {
            ++m.checks;
            m.references.push_back("its own repeats (bit-identical)");
        }
    }
    return measurements;
}

std::vector<RunSpec> plan_runs(const TestMatrix& matrix, const BenchOptions& options) {
    using pmcount::Method;
    using pmcount::Precision;
    std::vector<RunSpec> specs;
    std::vector<Precision> arithmetics;
    for (const Precision precision : options.precisions) {
        // A complex matrix has no double-double arithmetic; plain-double is a GPU mode.
        if (matrix.complex.rows() == 0 || precision == Precision::double_precision) {
            arithmetics.push_back(precision);
        }
    }
    if (matrix.binary && options.exact) {
        arithmetics.push_back(Precision::exact);
    }
    const std::string engine = matrix.main_engine();
    const Method method = matrix.main_method();
    const int most_threads = *std::max_element(options.threads.begin(), options.threads.end());
    for (const Precision precision : arithmetics) {
        if (options.backend == pmcount::Backend::cuda) {
            RunSpec gpu{engine + "-gpu", method, precision, most_threads, options.repeat, false};
            gpu.backend = pmcount::Backend::cuda;
            gpu.gpus = options.gpus;
            specs.push_back(gpu);
            if (matrix.n <= options.cpu_reference_max_n) {
                specs.push_back({engine, method, precision, most_threads, 1, true});
            }
            continue;
        }
        for (const int threads : options.threads) {
            specs.push_back({engine, method, precision, threads, options.repeat, false});
        }
    }
    if (matrix.hafnian) {
        // What a user gets: the default plan (structure front end, the cheapest engine; with
        // --backend cuda the default backend, which takes a GPU when it is predicted faster).
        RunSpec planner{"planner", Method::automatic, arithmetics.front(), most_threads, 1, false};
        if (options.backend == pmcount::Backend::cuda) {
            planner.backend = pmcount::Backend::automatic;
        }
        specs.push_back(planner);
    }
    const bool has_dd = std::find(arithmetics.begin(), arithmetics.end(),
                                  Precision::double_double) != arithmetics.end();
    if (!has_dd && matrix.complex.rows() == 0 && matrix.n <= options.dd_reference_max_n) {
        specs.push_back({engine, method, Precision::double_double, most_threads, 1, true});
    }
    if (matrix.n <= (matrix.hafnian ? options.pairings_max_n : options.brute_force_max_n)) {
        specs.push_back(
            {"brute-force", Method::brute_force, Precision::double_precision, 1, 1, true});
        if (matrix.binary && options.exact) {
            specs.push_back({"brute-force", Method::brute_force, Precision::exact, 1, 1, true});
        }
    }
    return specs;
}

std::vector<RunSpec> plan_front_end_runs(const TestMatrix& matrix, const BenchOptions& options) {
    using pmcount::Method;
    using pmcount::Precision;
    std::vector<RunSpec> specs;
    for (const int threads : options.threads) {
        specs.push_back({"planner", Method::automatic, Precision::exact, threads, options.repeat,
                         false, true, true, "dm+reductions"});
    }
    const int most_threads = *std::max_element(options.threads.begin(), options.threads.end());
    specs.push_back(
        {"dm+ryser", Method::ryser, Precision::exact, most_threads, 1, true, true, false, "dm"});
    specs.push_back({"ryser", Method::ryser, Precision::exact, most_threads, 1, true, false, false,
                     "none", no_front_end_limit_s});
    if (matrix.n <= options.brute_force_max_n) {
        specs.push_back({"brute-force", Method::brute_force, Precision::exact, 1, 1, true, false,
                         false, "none"});
    }
    return specs;
}

std::vector<RunSpec> plan_sparse_runs(const TestMatrix& matrix, const BenchOptions& options) {
    using pmcount::Method;
    using pmcount::Precision;
    std::vector<Precision> arithmetics{matrix.binary ? Precision::exact
                                                     : Precision::double_precision};
    if (!matrix.binary && std::find(options.precisions.begin(), options.precisions.end(),
                                    Precision::double_double) != options.precisions.end()) {
        arithmetics.push_back(Precision::double_double);
    }
    constexpr std::pair<const char*, Method> engines[] = {
        {"ryser", Method::ryser}, {"sparyser", Method::sparyser}, {"skipper", Method::skipper}};
    std::vector<RunSpec> specs;
    const int most_threads = *std::max_element(options.threads.begin(), options.threads.end());
    auto whole_matrix = [&](const char* name, Method method, Precision precision, int threads) {
        RunSpec spec{name, method, precision, threads, options.repeat, false};
        spec.dulmage_mendelsohn = false;
        spec.reductions = false;
        spec.front_end = "none";
        spec.predict = true;
        spec.skip_above_predicted_s = options.dense_max_seconds;
        return spec;
    };
    // --backend cuda: the sparse GPU engines with table and generated kernels, at the highest
    // thread count (the host threads do not matter to them), next to the CPU engines.
    struct GpuEngine {
        const char* name;
        Method method;
        pmcount::GpuKernels kernels;
    };
    constexpr GpuEngine gpu_engines[] = {
        {"sparyser-gpu", Method::sparyser, pmcount::GpuKernels::tables},
        {"sparyser-gpu-generated", Method::sparyser, pmcount::GpuKernels::generated},
        {"skipper-gpu", Method::skipper, pmcount::GpuKernels::tables},
        {"skipper-gpu-generated", Method::skipper, pmcount::GpuKernels::generated}};
    for (const Precision precision : arithmetics) {
        for (const int threads : options.threads) {
            for (const auto& [name, method] : engines) {
                specs.push_back(whole_matrix(name, method, precision, threads));
            }
        }
        if (options.backend == pmcount::Backend::cuda) {
            for (const GpuEngine& g : gpu_engines) {
                if (g.method == Method::skipper && !matrix.binary) {
                    continue;  // on real matrices the GPU SkipPer runs the SpaRyser walk
                }
                RunSpec spec = whole_matrix(g.name, g.method, precision, most_threads);
                spec.backend = pmcount::Backend::cuda;
                spec.gpus = options.gpus;
                spec.gpu_kernels = g.kernels;
                specs.push_back(std::move(spec));
            }
        }
    }
    RunSpec planner{"planner", Method::automatic, arithmetics.front(), most_threads, 1, false};
    planner.front_end = "dm+reductions";
    planner.predict = true;
    planner.skip_above_predicted_s = options.dense_max_seconds;
    specs.push_back(std::move(planner));
    if (!options.engines.empty()) {
        for (RunSpec& spec : specs) {
            spec.predict_only = std::find(options.engines.begin(), options.engines.end(),
                                          spec.engine) == options.engines.end();
        }
    }
    if (matrix.n <= options.brute_force_max_n) {
        specs.push_back({"brute-force", Method::brute_force, arithmetics.front(), 1, 1, true, false,
                         false, "none"});
    }
    return specs;
}

}  // namespace pmcount::bench::permanents
