// calibrate_cost_rates (pmcount/calibrate.hpp): the cost model's CPU rates measured on this
// machine. The model's predictions are linear in each rate it is fitted for (a Gray step costs
// step_base + row·W, a hafnian leaf its multiply-adds at a rate, and so on), so a group's
// predictions are a + Σ_k b_k·rate_k per experiment, with a and b read from the model itself:
// the prediction with the group's rates at 0, and with one of them at 1. The formulas stay in one
// place (plan/cost_model.cpp) and the fit needs no copy of them.
#include "pmcount/calibrate.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdio>
#include <ctime>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "generate/uniform.hpp"
#include "plan/cost_model.hpp"
#include "plan/rates.hpp"
#include "pmcount/count.hpp"
#include "pmcount/error.hpp"

namespace pmcount {

namespace {

/// One experiment: a seeded matrix and how it is counted.
struct Experiment {
    std::string name;
    int n = 0;
    Method method = Method::ryser;
    Precision precision = Precision::double_precision;
    /// Counts the matrix with `options` (the method, precision, one thread set).
    std::function<CountResult(const CountOptions&)> count;
};

struct Group {
    std::string name;
    std::vector<std::string> keys;
    /// The experiments for full or quick runs, drawn with `seed`.
    std::function<std::vector<Experiment>(bool quick, unsigned seed)> experiments;
};

/// Seeded draws for one matrix (generate/uniform.hpp: the same on every standard library).
class Draws {
public:
    Draws(unsigned seed, int n, int kind)
        : engine_(seed * 1000003ULL + static_cast<std::uint64_t>(n) * 101 + kind) {}
    /// Uniform in [low, high).
    double uniform(double low, double high) {
        return low + (high - low) * seeded::uniform_unit(engine_);
    }

private:
    std::mt19937_64 engine_;
};

/// A dense real matrix with entries uniform in [0.5, 1) (no cancellation, no zeros).
DenseMatrix<double> dense_real(int n, unsigned seed) {
    Draws draw(seed, n, 1);
    DenseMatrix<double> a(n, n);
    for (int i = 0; i < n; ++i) {
        for (int j = 0; j < n; ++j) {
            a(i, j) = draw.uniform(0.5, 1.0);
        }
    }
    return a;
}

DenseMatrix<std::complex<double>> dense_complex(int n, unsigned seed) {
    Draws draw(seed, n, 2);
    DenseMatrix<std::complex<double>> a(n, n);
    for (int i = 0; i < n; ++i) {
        for (int j = 0; j < n; ++j) {
            a(i, j) = {draw.uniform(-1, 1), draw.uniform(-1, 1)};
        }
    }
    return a;
}

/// 0-1 entries, each 1 with probability `density`; symmetric with a zero diagonal when asked
/// (a graph's adjacency matrix, for the hafnian).
DenseMatrix<std::int64_t> binary(int n, double density, bool symmetric, unsigned seed) {
    Draws draw(seed, n, symmetric ? 3 : 4);
    DenseMatrix<std::int64_t> a(n, n);
    for (int i = 0; i < n; ++i) {
        for (int j = symmetric ? i + 1 : 0; j < n; ++j) {
            a(i, j) = draw.uniform(0, 1) < density ? 1 : 0;
            if (symmetric) {
                a(j, i) = a(i, j);
            }
        }
    }
    return a;
}

/// Sparse real entries uniform in (0, 1] with probability `density`, and a diagonal of them, so
/// that a perfect matching exists.
SparseMatrix<double> sparse_real(int n, double density, unsigned seed) {
    Draws draw(seed, n, 5);
    std::vector<Triplet<double>> entries;
    for (int i = 0; i < n; ++i) {
        for (int j = 0; j < n; ++j) {
            if (i == j || draw.uniform(0, 1) < density) {
                entries.push_back({i, j, 1.0 - draw.uniform(0, 1)});
            }
        }
    }
    return SparseMatrix<double>(n, n, std::move(entries));
}

DenseMatrix<double> symmetric_real(int n, unsigned seed) {
    Draws draw(seed, n, 6);
    DenseMatrix<double> a(n, n);
    for (int i = 0; i < n; ++i) {
        for (int j = i + 1; j < n; ++j) {
            a(i, j) = a(j, i) = draw.uniform(0, 1);
        }
    }
    return a;
}

DenseMatrix<std::complex<double>> symmetric_complex(int n, unsigned seed) {
    Draws draw(seed, n, 7);
    DenseMatrix<std::complex<double>> a(n, n);
    for (int i = 0; i < n; ++i) {
        for (int j = i + 1; j < n; ++j) {
            a(i, j) = a(j, i) = {draw.uniform(-1, 1), draw.uniform(-1, 1)};
        }
    }
    return a;
}

template <class Make>
std::vector<Experiment> each_order(const std::vector<int>& orders, const std::string& what,
                                   Method method, Precision precision, Make make) {
    std::vector<Experiment> out;
    for (const int n : orders) {
        Experiment e;
        e.name = what + " " + std::to_string(n) + "×" + std::to_string(n);
        e.n = n;
        e.method = method;
        e.precision = precision;
        e.count = make(n);
        out.push_back(std::move(e));
    }
    return out;
}

template <class Matrix>
std::function<CountResult(const CountOptions&)> permanent_of(Matrix a) {
    return [a = std::move(a)](const CountOptions& o) { return permanent(a, o); };
}

template <class Matrix>
std::function<CountResult(const CountOptions&)> hafnian_of(Matrix a) {
    return [a = std::move(a)](const CountOptions& o) { return hafnian(a, o); };
}

std::vector<int> orders(bool quick, std::vector<int> full, std::vector<int> small) {
    return quick ? small : full;
}

/// The groups, in the order they are fitted: the dense double group's step cost first, since
/// every other Ryser group holds it.
const std::vector<Group>& groups() {
    static const std::vector<Group> all = [] {
        std::vector<Group> g;
        // A step costs step_base + row·W; the orders that can be timed (2^(n−1) steps, well
        // above the start-up) have W = 24 or 32 only, which cannot tell the two apart, so the
        // base is held and the rows fitted. The error figure's replay (16–128 blocks of 2^10
        // terms from order 18) is told from the steps by its slower growth; the start-up (tens
        // of microseconds) is held.
        g.push_back({"cpu.ryser.double",
                     {"cpu.ryser.row_double", "cpu.ryser.walk_replay_row"},
                     [](bool quick, unsigned seed) {
                         return each_order(
                             orders(quick, {18, 20, 22, 24, 25, 26, 27}, {18, 20, 22, 24, 25}),
                             "dense real", Method::ryser, Precision::double_precision,
                             [seed](int n) { return permanent_of(dense_real(n, seed)); });
                     }});
        g.push_back({"cpu.ryser.double_double",
                     {"cpu.ryser.row_double_double"},
                     [](bool quick, unsigned seed) {
                         return each_order(orders(quick, {18, 20, 22}, {16, 18}), "dense real",
                                           Method::ryser, Precision::double_double, [seed](int n) {
                                               return permanent_of(dense_real(n, seed));
                                           });
                     }});
        g.push_back({"cpu.ryser.complex",
                     {"cpu.ryser.row_complex", "cpu.ryser.walk_replay_row_complex"},
                     [](bool quick, unsigned seed) {
                         return each_order(
                             orders(quick, {18, 20, 22, 24, 25}, {16, 18, 20}), "dense complex",
                             Method::ryser, Precision::double_precision,
                             [seed](int n) { return permanent_of(dense_complex(n, seed)); });
                     }});
        g.push_back({"cpu.ryser.exact", {"cpu.ryser.row_exact"}, [](bool quick, unsigned seed) {
                         return each_order(orders(quick, {24, 26, 27}, {20, 22}), "0-1 density 0.5",
                                           Method::ryser, Precision::exact, [seed](int n) {
                                               return permanent_of(binary(n, 0.5, false, seed));
                                           });
                     }});
        g.push_back({"cpu.sparyser",
                     {"cpu.sparyser.step", "cpu.sparyser.entry"},
                     [](bool quick, unsigned seed) {
                         std::vector<Experiment> out;
                         for (const double density : {0.1, 0.3, 0.5}) {
                             auto more = each_order(
                                 orders(quick, {24, 26, 27}, {20, 22}),
                                 "sparse real density " + std::to_string(density).substr(0, 3),
                                 Method::sparyser, Precision::double_precision,
                                 [seed, density](int n) {
                                     return permanent_of(sparse_real(n, density, seed));
                                 });
                             out.insert(out.end(), more.begin(), more.end());
                         }
                         return out;
                     }});
        g.push_back({"cpu.hafnian.double", {"cpu.hafnian.double"}, [](bool quick, unsigned seed) {
                         return each_order(
                             orders(quick, {30, 34, 36}, {24, 28}), "symmetric real",
                             Method::hafnian, Precision::double_precision,
                             [seed](int n) { return hafnian_of(symmetric_real(n, seed)); });
                     }});
        g.push_back({"cpu.hafnian.double_double",
                     {"cpu.hafnian.double_double"},
                     [](bool quick, unsigned seed) {
                         return each_order(
                             orders(quick, {26, 28, 30, 32}, {20, 24}), "symmetric real",
                             Method::hafnian, Precision::double_double,
                             [seed](int n) { return hafnian_of(symmetric_real(n, seed)); });
                     }});
        g.push_back({"cpu.hafnian.complex", {"cpu.hafnian.complex"}, [](bool quick, unsigned seed) {
                         return each_order(
                             orders(quick, {28, 30, 32}, {20, 24}), "symmetric complex",
                             Method::hafnian, Precision::double_precision,
                             [seed](int n) { return hafnian_of(symmetric_complex(n, seed)); });
                     }});
        g.push_back(
            {"cpu.hafnian.exact", {"cpu.hafnian.exact_lanes"}, [](bool quick, unsigned seed) {
                 return each_order(orders(quick, {32, 36, 38}, {24, 28}), "graph density 0.5",
                                   Method::hafnian, Precision::exact, [seed](int n) {
                                       return hafnian_of(binary(n, 0.5, true, seed));
                                   });
             }});
        g.push_back({"cpu.brute_force", {"cpu.brute_force.node"}, [](bool quick, unsigned seed) {
                         return each_order(
                             orders(quick, {9, 10, 11}, {8, 9}), "dense real", Method::brute_force,
                             Precision::double_precision,
                             [seed](int n) { return permanent_of(dense_real(n, seed)); });
                     }});
        return g;
    }();
    return all;
}

/// The probe's own references are measured, not fitted: the probe on one thread and on two.
const char* const kProbeGroup = "cpu.probe";

CountOptions options_for(const Experiment& e, bool explain) {
    CountOptions o;
    o.method = e.method;
    o.precision = e.precision;
    o.backend = Backend::cpu;
    o.threads = 1;
    o.dulmage_mendelsohn = false;
    o.reductions = false;
    o.explain_only = explain;
    o.max_predicted_seconds = std::numeric_limits<double>::infinity();
    return o;
}

/// The whole matrix as the one leaf of its plan.
const BlockReport& only_leaf(const CountResult& r, const Experiment& e) {
    if (r.structure.leaves.size() != 1) {
        throw InternalError("calibration: " + e.name + " was planned as " +
                            std::to_string(r.structure.leaves.size()) + " leaves, not one");
    }
    return r.structure.leaves.front();
}

/// The model's prediction for `e` under `rates` (the machine-speed probe off).
double predicted(const Experiment& e, const plan::CostRates& rates) {
    const plan::ScopedRates scoped(rates);
    return only_leaf(e.count(options_for(e, true)), e).predicted_s;
}

/// `base` with `key` set to `value`.
plan::CostRates with_rate(const plan::CostRates& base, const std::string& key, double value) {
    CostRate record;
    record.key = key;
    record.value = value;
    return plan::with_records(base, {record});
}

/// Least squares on the relative error: rows u (the model's coefficients over the measured
/// time) against targets t; Gaussian elimination on the normal equations (a few unknowns).
/// Unknowns that come out negative are set to 0 and the rest fitted again.
std::vector<double> fit(const std::vector<std::vector<double>>& u, const std::vector<double>& t) {
    const std::size_t k = u.empty() ? 0 : u.front().size();
    std::vector<bool> free(k, true);
    std::vector<double> x(k, 0);
    for (std::size_t round = 0; round <= k; ++round) {
        std::vector<std::size_t> used;
        for (std::size_t j = 0; j < k; ++j) {
            if (free[j]) {
                used.push_back(j);
            }
        }
        const std::size_t m = used.size();
        std::vector<std::vector<double>> a(m, std::vector<double>(m + 1, 0));
        for (std::size_t e = 0; e < u.size(); ++e) {
            for (std::size_t p = 0; p < m; ++p) {
                for (std::size_t q = 0; q < m; ++q) {
                    a[p][q] += u[e][used[p]] * u[e][used[q]];
                }
                a[p][m] += u[e][used[p]] * t[e];
            }
        }
        for (std::size_t p = 0; p < m; ++p) {
            std::size_t pivot = p;
            for (std::size_t q = p + 1; q < m; ++q) {
                if (std::abs(a[q][p]) > std::abs(a[pivot][p])) {
                    pivot = q;
                }
            }
            std::swap(a[p], a[pivot]);
            if (a[p][p] == 0) {
                throw InternalError("calibration: the experiments do not determine the rates");
            }
            for (std::size_t q = 0; q < m; ++q) {
                if (q != p) {
                    const double f = a[q][p] / a[p][p];
                    for (std::size_t c = p; c <= m; ++c) {
                        a[q][c] -= f * a[p][c];
                    }
                }
            }
        }
        bool negative = false;
        std::fill(x.begin(), x.end(), 0.0);
        for (std::size_t p = 0; p < m; ++p) {
            x[used[p]] = a[p][m] / a[p][p];
            if (x[used[p]] < 0) {
                free[used[p]] = false;
                negative = true;
            }
        }
        if (!negative) {
            return x;
        }
    }
    return x;
}

std::string today() {
    const std::time_t now = std::time(nullptr);
    char text[16];
    std::tm parts{};
    gmtime_r(&now, &parts);
    std::strftime(text, sizeof text, "%Y-%m-%d", &parts);
    return text;
}

std::string number(double x, int digits = 3) {
    char text[32];
    std::snprintf(text, sizeof text, "%.*g", digits, x);
    return text;
}

const CostRate& in_force(const std::vector<CostRate>& all, const std::string& key) {
    for (const CostRate& r : all) {
        if (r.key == key) {
            return r;
        }
    }
    throw InternalError("calibration: no rate " + key);
}

bool chosen(const std::string& group, const std::vector<std::string>& wanted) {
    return wanted.empty() || std::any_of(wanted.begin(), wanted.end(), [&](const auto& w) {
               return group.compare(0, w.size(), w) == 0;
           });
}

}  // namespace

std::vector<std::pair<std::string, std::vector<std::string>>> calibration_groups() {
    std::vector<std::pair<std::string, std::vector<std::string>>> out;
    for (const Group& g : groups()) {
        out.emplace_back(g.name, g.keys);
    }
    out.emplace_back(kProbeGroup,
                     std::vector<std::string>{"cpu.probe.one_thread", "cpu.probe.threads"});
    return out;
}

Calibration calibrate_cost_rates(const CalibrationOptions& options, const std::string& machine,
                                 const std::string& command) {
    for (const std::string& w : options.groups) {
        bool matched = false;
        for (const auto& [name, keys] : calibration_groups()) {
            matched = matched || chosen(name, {w});
        }
        if (!matched) {
            throw InvalidArgument("calibrate: no group of rates starts with '" + w + "'");
        }
    }
    const int repeats = std::max(1, options.repeats);
    const std::vector<CostRate> before_all = cost_rates();
    const plan::ModelSpeedOnly model_only;
    plan::CostRates current = plan::rates();
    Calibration out;
    std::vector<double> speeds;  // the one-thread probe before and after each group
    const auto provenance = [&](const std::string& key, double value, const std::string& group) {
        CostRate r = in_force(before_all, key);
        out.before.push_back(r);
        r.value = value;
        r.machine = machine;
        r.date = today();
        r.command = command;
        r.note = "pmcount-bench calibrate, group " + group +
                 " (docs/benchmarks/calibration/: the runs' JSONL)";
        return r;
    };
    for (const Group& group : groups()) {
        if (!chosen(group.name, options.groups)) {
            continue;
        }
        const std::vector<Experiment> experiments = group.experiments(options.quick, options.seed);
        speeds.push_back(plan::probe_ns(1));
        std::vector<double> measured;
        const std::size_t first_run = out.runs.size();
        // The repeats go round the experiments, not one experiment after another, so that a
        // slow spell of the machine falls on all of them alike rather than on one order.
        std::vector<double> best(experiments.size(), std::numeric_limits<double>::infinity());
        for (int k = 0; k < repeats; ++k) {
            for (std::size_t e = 0; e < experiments.size(); ++e) {
                const Experiment& x = experiments[e];
                best[e] = std::min(best[e], only_leaf(x.count(options_for(x, false)), x).seconds);
            }
        }
        for (std::size_t e = 0; e < experiments.size(); ++e) {
            const Experiment& x = experiments[e];
            measured.push_back(best[e]);
            CalibrationRun run{group.name, x.name, x.n, best[e], predicted(x, current), 0};
            if (options.on_run) {
                options.on_run(run);
            }
            out.runs.push_back(run);
        }
        // The model for each experiment: a (the group's rates at 0) + Σ b_k·rate_k.
        plan::CostRates zero = current;
        for (const std::string& key : group.keys) {
            zero = with_rate(zero, key, 0);
        }
        std::vector<std::vector<double>> u;
        std::vector<double> t;
        for (std::size_t e = 0; e < experiments.size(); ++e) {
            const double a = predicted(experiments[e], zero);
            std::vector<double> row;
            for (const std::string& key : group.keys) {
                row.push_back((predicted(experiments[e], with_rate(zero, key, 1)) - a) /
                              measured[e]);
            }
            u.push_back(row);
            t.push_back(1 - a / measured[e]);
        }
        const std::vector<double> x = fit(u, t);
        speeds.push_back(plan::probe_ns(1));
        for (std::size_t k = 0; k < group.keys.size(); ++k) {
            current = with_rate(current, group.keys[k], x[k]);
        }
        double low = std::numeric_limits<double>::infinity(), high = 0;
        for (std::size_t e = 0; e < experiments.size(); ++e) {
            CalibrationRun& run = out.runs[first_run + e];
            run.fitted_s = predicted(experiments[e], current);
            low = std::min(low, run.fitted_s / run.seconds);
            high = std::max(high, run.fitted_s / run.seconds);
        }
        const std::string range = "n = " + std::to_string(experiments.front().n) + "-" +
                                  std::to_string(experiments.back().n) + " (" +
                                  experiments.front().name + " ... " + experiments.back().name +
                                  "), 1 thread";
        for (std::size_t k = 0; k < group.keys.size(); ++k) {
            CostRate r = provenance(group.keys[k], x[k], group.name);
            r.runs = std::to_string(experiments.size()) + " experiments, the fastest of " +
                     std::to_string(repeats) + " runs each";
            r.fit_range = range;
            r.residuals = "fitted/measured " + number(low) + "-" + number(high);
            out.rates.push_back(r);
        }
    }
    if (chosen(kProbeGroup, options.groups)) {
        for (const int threads : {1, 2}) {
            double best = std::numeric_limits<double>::infinity();
            for (int k = 0; k < repeats; ++k) {
                best = std::min(best, plan::probe_ns(threads));
            }
            const std::string key = threads == 1 ? "cpu.probe.one_thread" : "cpu.probe.threads";
            CostRate r = in_force(before_all, key);
            out.probe_before.push_back(r);
            r.value = best;
            r.machine = machine;
            r.date = today();
            r.command = command;
            r.runs = "the probe, the fastest of " + std::to_string(repeats) + " (each of two runs)";
            r.fit_range = "dense double Ryser of order " + std::to_string(22 + threads) + " on " +
                          std::to_string(threads) + " thread" + (threads > 1 ? "s" : "");
            r.residuals = "measured directly";
            out.probes.push_back(r);
            CalibrationRun run{kProbeGroup,
                               r.fit_range,
                               22 + threads,
                               best * 1e-9 * std::ldexp(1.0, 21 + threads) / threads,
                               0,
                               0};
            if (options.on_run) {
                options.on_run(run);
            }
            out.runs.push_back(run);
        }
    }
    // The model scales its rates by this machine's probe over the reference in force
    // (cpu.probe.one_thread), so a rate is stored at the reference's speed: the fitted one times
    // reference/probe. That holds for any subset of the rates (the others keep theirs, at the
    // same reference). The probe here is the fastest of those taken before and after each group,
    // as each experiment's time is its fastest run: delays only add time, and one probe (the
    // faster of two 30–40 ms counts) scatters by up to 50% on the 2-core machine, where the
    // median of 20 moved by 10% between two calibrations and their fastest by 3%.
    out.reference_probe_ns = in_force(before_all, "cpu.probe.one_thread").value;
    if (speeds.empty() && !out.probes.empty()) {
        out.probe_ns = out.probes.front().value;  // the probe group alone: no rate to scale
    } else if (!speeds.empty()) {
        std::vector<double> sorted = speeds;
        std::sort(sorted.begin(), sorted.end());
        out.probe_ns = sorted.front();
        for (CostRate& r : out.rates) {
            r.value *= out.reference_probe_ns / out.probe_ns;
            r.note += "; at the probe's reference speed (" + number(out.reference_probe_ns) +
                      " ns/step; here the fastest of " + std::to_string(sorted.size()) +
                      " probes " + number(out.probe_ns) + ", median " +
                      number(sorted[sorted.size() / 2]) + ")";
        }
    }
    return out;
}

}  // namespace pmcount
