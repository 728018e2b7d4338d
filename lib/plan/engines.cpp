#include "plan/engines.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <string_view>

#include "core/memory.hpp"
#include "exact/brute_force.hpp"
#include "exact/frontier/frontier.hpp"
#include "exact/hafnian/hafnian.hpp"
#include "exact/hafnian/hafnian_gpu.hpp"
#include "exact/planar/pfaffian.hpp"
#include "exact/planar/planar.hpp"
#include "exact/ryser/ryser_gpu.hpp"
#include "exact/ryser/ryser_kernel.hpp"
#include "exact/ryser/sparse_ryser.hpp"
#include "pmcount/error.hpp"

namespace pmcount::plan {

namespace {

using exact::SparseVariant;
constexpr double kUnitRoundoff = 0x1p-53;

template <class T>
DenseMatrix<T> dense(const SparseMatrix<T>& a) {
    return a.to_dense();
}

DenseMatrix<double> real_dense(const SparseMatrix<double>& a) {
    return a.to_dense();
}

// ---- direct: orders 1 and 2 by their defining formula
// --------------------------------------------

bool direct_applies(const LeafFacts& f) {
    return f.order >= 1 && f.order <= 2;
}
double direct_predict(const LeafFacts&) {
    return 1e-8;
}

exact::ExactOutcome direct_exact(const SparseMatrix<std::int64_t>& a, const run::EngineRun&) {
    const auto m = dense(a);
    exact::ExactOutcome out;
    out.arithmetic = "exact integers";
    out.value = a.rows() == 1
                    ? BigInt(m(0, 0))
                    : BigInt(m(0, 0)) * BigInt(m(1, 1)) + BigInt(m(0, 1)) * BigInt(m(1, 0));
    return out;
}

template <class T>
exact::FloatOutcome direct_float(const SparseMatrix<T>& a) {
    const auto m = dense(a);
    exact::FloatOutcome out;
    out.arithmetic = "direct formula";
    if (a.rows() == 1) {
        out.mantissa = m(0, 0);
        return out;
    }
    const std::complex<double> p(m(0, 0) * m(1, 1)), q(m(0, 1) * m(1, 0));
    out.mantissa = p + q;
    out.abs_error_mantissa = 2 * kUnitRoundoff * (std::abs(p) + std::abs(q));
    return out;
}

exact::FloatOutcome direct_real(const SparseMatrix<double>& a, Precision, const run::EngineRun&) {
    return direct_float(a);
}
exact::FloatOutcome direct_complex(const SparseMatrix<std::complex<double>>& a,
                                   const run::EngineRun&) {
    return direct_float(a);
}

// ---- brute force: the oracle, only on request
// ----------------------------------------------------

bool brute_applies(const LeafFacts& f) {
    return f.order <= exact::kMaxBruteForceOrder;
}
double brute_predict(const LeafFacts& f) {
    return brute_force_seconds(f.order);
}

exact::ExactOutcome brute_exact(const SparseMatrix<std::int64_t>& a, const run::EngineRun&) {
    exact::ExactOutcome out;
    out.value = exact::brute_force_exact(dense(a));
    out.arithmetic = "exact integers";
    return out;
}

exact::FloatOutcome brute_float(std::complex<double> value) {
    exact::FloatOutcome out;
    out.mantissa = value;
    out.abs_error_mantissa = kUnitRoundoff * std::abs(value);  // double-double inside, one rounding
    out.arithmetic = "double-double";
    return out;
}

exact::FloatOutcome brute_real(const SparseMatrix<double>& a, Precision, const run::EngineRun&) {
    return brute_float(exact::brute_force(real_dense(a)));
}
exact::FloatOutcome brute_complex(const SparseMatrix<std::complex<double>>& a,
                                  const run::EngineRun&) {
    return brute_float(exact::brute_force(dense(a)));
}

/// Whether every stored value is 0 or 1 (the engines' 0-1 paths).
bool binary_values(const SparseMatrix<std::int64_t>& a) {
    return std::all_of(a.values().begin(), a.values().end(),
                       [](std::int64_t v) { return v == 0 || v == 1; });
}

// ---- dense Ryser
// ---------------------------------------------------------------------------------

bool ryser_applies(const LeafFacts& f) {
    return f.order <= exact::kMaxRyserOrder;
}
double ryser_predict(const LeafFacts& f) {
    return ryser_seconds(f);
}

exact::ExactOutcome ryser_exact(const SparseMatrix<std::int64_t>& a, const run::EngineRun& run) {
    const auto m = dense(a);
    const bool binary = binary_values(a);
    return exact::ryser_exact(m, binary, run);
}
exact::FloatOutcome ryser_real(const SparseMatrix<double>& a, Precision precision,
                               const run::EngineRun& run) {
    return exact::ryser_real(real_dense(a), precision, run);
}
exact::FloatOutcome ryser_complex(const SparseMatrix<std::complex<double>>& a,
                                  const run::EngineRun& run) {
    return exact::ryser_complex(dense(a), run);
}

// ---- SpaRyser and SkipPer
// -------------------------------------------------------------------------

template <SparseVariant V>
double sparse_predict(const LeafFacts& f) {
    return V == SparseVariant::skipper ? skipper_seconds(f) : sparyser_seconds(f);
}

template <SparseVariant V>
exact::ExactOutcome sparse_exact(const SparseMatrix<std::int64_t>& a, const run::EngineRun& run) {
    const bool binary = binary_values(a);
    return exact::sparse_ryser_exact(dense(a), binary, V, run);
}
template <SparseVariant V>
exact::FloatOutcome sparse_real(const SparseMatrix<double>& a, Precision precision,
                                const run::EngineRun& run) {
    return exact::sparse_ryser_real(real_dense(a), precision, V, run);
}
template <SparseVariant V>
exact::FloatOutcome sparse_complex(const SparseMatrix<std::complex<double>>& a,
                                   const run::EngineRun& run) {
    return exact::sparse_ryser_complex(dense(a), V, run);
}

// ---- SpaRyser and SkipPer on GPUs
// -----------------------------------------------------------------------

template <SparseVariant V, exact::GpuKernelCode C>
bool gpu_sparse_applies(const LeafFacts& f) {
    static const bool available = exact::gpu_available();
    const GpuKernels wanted =
        C == exact::GpuKernelCode::generated ? GpuKernels::generated : GpuKernels::tables;
    return available && f.order >= 2 && f.order <= exact::kMaxRyserOrder &&
           (f.arithmetic != Arithmetic::exact || f.gpu_exact_fits) &&
           (f.gpu_kernels == GpuKernels::automatic || f.gpu_kernels == wanted);
}
template <SparseVariant V, exact::GpuKernelCode C>
double gpu_sparse_predict(const LeafFacts& f) {
    return gpu_sparse_seconds(f, V == SparseVariant::skipper, C == exact::GpuKernelCode::generated);
}
template <SparseVariant V, exact::GpuKernelCode C>
exact::ExactOutcome gpu_sparse_exact(const SparseMatrix<std::int64_t>& a,
                                     const run::EngineRun& run) {
    return exact::sparse_ryser_exact_gpu(dense(a), binary_values(a), V, C, run);
}
template <SparseVariant V, exact::GpuKernelCode C>
exact::FloatOutcome gpu_sparse_real(const SparseMatrix<double>& a, Precision precision,
                                    const run::EngineRun& run) {
    return exact::sparse_ryser_real_gpu(real_dense(a), precision, V, C, run);
}
template <SparseVariant V, exact::GpuKernelCode C>
exact::FloatOutcome gpu_sparse_complex(const SparseMatrix<std::complex<double>>& a,
                                       const run::EngineRun& run) {
    return exact::sparse_ryser_complex_gpu(dense(a), V, C, run);
}

/// A table entry for a sparse GPU engine.
template <SparseVariant V, exact::GpuKernelCode C>
Engine gpu_sparse_engine(const char* name) {
    return {name,
            V == SparseVariant::skipper ? Method::skipper : Method::sparyser,
            Backend::cuda,
            Problem::permanent,
            true,
            gpu_sparse_applies<V, C>,
            gpu_sparse_predict<V, C>,
            gpu_sparse_exact<V, C>,
            gpu_sparse_real<V, C>,
            gpu_sparse_complex<V, C>};
}

// ---- dense Ryser on GPUs
// ----------------------------------------------------------------------------

bool gpu_applies(const LeafFacts& f) {
    static const bool available = exact::gpu_available();
    return available && f.order >= 2 && f.order <= exact::kMaxRyserOrder &&
           (f.arithmetic != Arithmetic::exact || f.gpu_exact_fits);
}
double gpu_predict(const LeafFacts& f) {
    return gpu_ryser_seconds(f);
}

exact::ExactOutcome gpu_exact(const SparseMatrix<std::int64_t>& a, const run::EngineRun& run) {
    const bool binary = binary_values(a);
    return exact::ryser_exact_gpu(dense(a), binary, run);
}
exact::FloatOutcome gpu_real(const SparseMatrix<double>& a, Precision precision,
                             const run::EngineRun& run) {
    return exact::ryser_real_gpu(real_dense(a), precision, run);
}
exact::FloatOutcome gpu_complex(const SparseMatrix<std::complex<double>>& a,
                                const run::EngineRun& run) {
    return exact::ryser_complex_gpu(dense(a), run);
}

// ---- polynomial engines: planar (Kasteleyn) and frontier DP
// ---------------------------------------

// Both compute in double at most (no double-double).
bool planar_applies(const LeafFacts& f) {
    return f.planar && f.arithmetic != Arithmetic::double_double && planar_bytes(f) <= f.max_memory;
}
double planar_predict(const LeafFacts& f) {
    return planar_seconds(f);
}
exact::FloatOutcome planar_real(const SparseMatrix<double>& a, Precision,
                                const run::EngineRun& run) {
    return exact::planar_real(a, run);
}

bool frontier_applies(const LeafFacts& f) {
    return f.frontier_width >= 0 && f.frontier_width <= exact::kMaxFrontierWidth &&
           f.frontier_slots <= 63 && f.arithmetic != Arithmetic::double_double &&
           frontier_bytes(f) <= f.max_memory;
}
double frontier_predict(const LeafFacts& f) {
    return frontier_seconds(f);
}
exact::FloatOutcome frontier_real(const SparseMatrix<double>& a, Precision,
                                  const run::EngineRun& run) {
    return exact::frontier_real(a, run);
}

exact::FloatOutcome frontier_hafnian_real(const SparseMatrix<double>& a, Precision,
                                          const run::EngineRun& run) {
    return exact::frontier_hafnian_real(a, run);
}

// ---- hafnians: leaves of Problem::hafnian (symmetric, empty diagonal)
// -----------------------------

// Order 2: the one edge.
bool pair_applies(const LeafFacts& f) {
    return f.order == 2;
}

exact::ExactOutcome pair_exact(const SparseMatrix<std::int64_t>& a, const run::EngineRun&) {
    exact::ExactOutcome out;
    out.arithmetic = "exact integers";
    out.value = BigInt(a.at(0, 1));
    return out;
}

template <class T>
exact::FloatOutcome pair_float(const SparseMatrix<T>& a) {
    exact::FloatOutcome out;
    out.arithmetic = "direct formula";
    out.mantissa = std::complex<double>(a.at(0, 1));
    return out;
}
exact::FloatOutcome pair_real(const SparseMatrix<double>& a, Precision, const run::EngineRun&) {
    return pair_float(a);
}
exact::FloatOutcome pair_complex(const SparseMatrix<std::complex<double>>& a,
                                 const run::EngineRun&) {
    return pair_float(a);
}

/// The multiply-adds of the recursion, reported with its result (roofline of a GPU run).
template <class Outcome>
Outcome with_work(Outcome out, vertex_t n) {
    out.multiply_adds = hafnian_multiply_adds(n);
    return out;
}

bool hafnian_applies(const LeafFacts& f) {
    return f.order <= exact::kMaxHafnianOrder && hafnian_bytes(f) <= f.max_memory;
}
double hafnian_predict(const LeafFacts& f) {
    return hafnian_seconds(f);
}
exact::ExactOutcome hafnian_exact(const SparseMatrix<std::int64_t>& a, const run::EngineRun& run) {
    return with_work(exact::hafnian_exact(dense(a), run), a.rows());
}
exact::FloatOutcome hafnian_real(const SparseMatrix<double>& a, Precision precision,
                                 const run::EngineRun& run) {
    return with_work(exact::hafnian_real(real_dense(a), precision, run), a.rows());
}
exact::FloatOutcome hafnian_complex(const SparseMatrix<std::complex<double>>& a,
                                    const run::EngineRun& run) {
    return with_work(exact::hafnian_complex(dense(a), run), a.rows());
}

// The same recursion on GPUs (its outcomes carry the multiply-adds of the GPU's schedule).
bool gpu_hafnian_applies(const LeafFacts& f) {
    static const bool available = exact::gpu_available();
    return available && f.order >= 4 && f.order <= exact::gpu_hafnian_max_order() &&
           f.arithmetic != Arithmetic::double_double;
}
double gpu_hafnian_predict(const LeafFacts& f) {
    return gpu_hafnian_seconds(f);
}
exact::ExactOutcome gpu_hafnian_exact(const SparseMatrix<std::int64_t>& a,
                                      const run::EngineRun& run) {
    return exact::hafnian_exact_gpu(dense(a), run);
}
exact::FloatOutcome gpu_hafnian_real(const SparseMatrix<double>& a, Precision precision,
                                     const run::EngineRun& run) {
    return exact::hafnian_real_gpu(real_dense(a), precision, run);
}
exact::FloatOutcome gpu_hafnian_complex(const SparseMatrix<std::complex<double>>& a,
                                        const run::EngineRun& run) {
    return exact::hafnian_complex_gpu(dense(a), run);
}

bool pfaffian_applies(const LeafFacts& f) {
    return f.planar && f.arithmetic != Arithmetic::double_double &&
           pfaffian_bytes(f) <= f.max_memory;
}
double pfaffian_predict(const LeafFacts& f) {
    return pfaffian_seconds(f);
}
exact::FloatOutcome pfaffian_real(const SparseMatrix<double>& a, Precision,
                                  const run::EngineRun& run) {
    return exact::pfaffian_real(a, run);
}

// The Pfaffians on a surface count a whole embedded graph: prefer_surface puts them on the plan's
// one leaf (with run::EngineRun::embedding), never the per-leaf choice.
const Embedding& embedding_of(const run::EngineRun& run) {
    if (run.embedding == nullptr) {
        throw InternalError("the surface Pfaffians were given no embedding");
    }
    return *run.embedding;
}
bool surface_applies(const LeafFacts&) {
    return false;
}
double surface_predict(const LeafFacts& f) {
    return surface_pfaffian_seconds(f, 1);
}
exact::ExactOutcome surface_exact(const SparseMatrix<std::int64_t>& a, const run::EngineRun& run) {
    return exact::surface_pfaffian_exact(a, embedding_of(run), run);
}
exact::FloatOutcome surface_real(const SparseMatrix<double>& a, Precision,
                                 const run::EngineRun& run) {
    return exact::surface_pfaffian_real(a, embedding_of(run));
}
exact::FloatOutcome surface_complex(const SparseMatrix<std::complex<double>>& a,
                                    const run::EngineRun& run) {
    return exact::surface_pfaffian_complex(a, embedding_of(run));
}

bool pairings_applies(const LeafFacts& f) {
    return f.order <= exact::kMaxPairingsOrder;
}
double pairings_predict(const LeafFacts& f) {
    return pairings_seconds(f.order);
}
exact::ExactOutcome pairings_exact(const SparseMatrix<std::int64_t>& a, const run::EngineRun&) {
    exact::ExactOutcome out;
    out.value = exact::hafnian_brute_force_exact(dense(a));
    out.arithmetic = "exact integers";
    return out;
}
exact::FloatOutcome pairings_real(const SparseMatrix<double>& a, Precision, const run::EngineRun&) {
    return brute_float(exact::hafnian_brute_force(real_dense(a)));
}
exact::FloatOutcome pairings_complex(const SparseMatrix<std::complex<double>>& a,
                                     const run::EngineRun&) {
    return brute_float(exact::hafnian_brute_force(dense(a)));
}

// ---- the hafnian engine on a permanent leaf: perm(B) = haf([[0, B], [Bᵀ, 0]])
// ---------------------

bool embedded_applies(const LeafFacts& f) {
    LeafFacts twice = f;
    twice.order = 2 * f.order;
    return twice.order <= exact::kMaxHafnianOrder && hafnian_bytes(twice) <= f.max_memory;
}
double embedded_predict(const LeafFacts& f) {
    LeafFacts twice = f;
    twice.order = 2 * f.order;
    return hafnian_seconds(twice);
}
exact::ExactOutcome embedded_exact(const SparseMatrix<std::int64_t>& b, const run::EngineRun& run) {
    return hafnian_exact(bipartite_embedding(b), run);
}
exact::FloatOutcome embedded_real(const SparseMatrix<double>& b, Precision precision,
                                  const run::EngineRun& run) {
    return hafnian_real(bipartite_embedding(b), precision, run);
}
exact::FloatOutcome embedded_complex(const SparseMatrix<std::complex<double>>& b,
                                     const run::EngineRun& run) {
    return hafnian_complex(bipartite_embedding(b), run);
}

}  // namespace

const std::vector<Engine>& engines() {
    static const std::vector<Engine> table = {
        {"direct", Method::automatic, Backend::cpu, Problem::permanent, true, direct_applies,
         direct_predict, direct_exact, direct_real, direct_complex},
        {"ryser", Method::ryser, Backend::cpu, Problem::permanent, true, ryser_applies,
         ryser_predict, ryser_exact, ryser_real, ryser_complex, true},
        {"sparyser", Method::sparyser, Backend::cpu, Problem::permanent, true, ryser_applies,
         sparse_predict<SparseVariant::sparyser>, sparse_exact<SparseVariant::sparyser>,
         sparse_real<SparseVariant::sparyser>, sparse_complex<SparseVariant::sparyser>},
        {"skipper", Method::skipper, Backend::cpu, Problem::permanent, true, ryser_applies,
         sparse_predict<SparseVariant::skipper>, sparse_exact<SparseVariant::skipper>,
         sparse_real<SparseVariant::skipper>, sparse_complex<SparseVariant::skipper>},
        {"ryser-gpu", Method::ryser, Backend::cuda, Problem::permanent, true, gpu_applies,
         gpu_predict, gpu_exact, gpu_real, gpu_complex, true},
        gpu_sparse_engine<SparseVariant::sparyser, exact::GpuKernelCode::tables>("sparyser-gpu"),
        gpu_sparse_engine<SparseVariant::sparyser, exact::GpuKernelCode::generated>(
            "sparyser-gpu-generated"),
        gpu_sparse_engine<SparseVariant::skipper, exact::GpuKernelCode::tables>("skipper-gpu"),
        gpu_sparse_engine<SparseVariant::skipper, exact::GpuKernelCode::generated>(
            "skipper-gpu-generated"),
        {"planar", Method::planar, Backend::cpu, Problem::permanent, true, planar_applies,
         planar_predict, exact::planar_exact, planar_real, exact::planar_complex},
        {"frontier", Method::frontier, Backend::cpu, Problem::permanent, true, frontier_applies,
         frontier_predict, exact::frontier_exact, frontier_real, exact::frontier_complex},
        {"brute-force", Method::brute_force, Backend::cpu, Problem::permanent, false, brute_applies,
         brute_predict, brute_exact, brute_real, brute_complex},
        // Checking only: a permanent counted as the hafnian of its bipartite embedding.
        {"hafnian", Method::hafnian, Backend::cpu, Problem::permanent, false, embedded_applies,
         embedded_predict, embedded_exact, embedded_real, embedded_complex},
        {"direct", Method::automatic, Backend::cpu, Problem::hafnian, true, pair_applies,
         direct_predict, pair_exact, pair_real, pair_complex},
        {"hafnian", Method::hafnian, Backend::cpu, Problem::hafnian, true, hafnian_applies,
         hafnian_predict, hafnian_exact, hafnian_real, hafnian_complex},
        {"hafnian-gpu", Method::hafnian, Backend::cuda, Problem::hafnian, true, gpu_hafnian_applies,
         gpu_hafnian_predict, gpu_hafnian_exact, gpu_hafnian_real, gpu_hafnian_complex},
        {"pfaffian", Method::planar, Backend::cpu, Problem::hafnian, true, pfaffian_applies,
         pfaffian_predict, exact::pfaffian_exact, pfaffian_real, exact::pfaffian_complex},
        {"pfaffian-surface", Method::planar, Backend::cpu, Problem::hafnian, false, surface_applies,
         surface_predict, surface_exact, surface_real, surface_complex},
        {"frontier", Method::frontier, Backend::cpu, Problem::hafnian, true, frontier_applies,
         frontier_predict, exact::frontier_hafnian_exact, frontier_hafnian_real,
         exact::frontier_hafnian_complex},
        {"brute-force", Method::brute_force, Backend::cpu, Problem::hafnian, false,
         pairings_applies, pairings_predict, pairings_exact, pairings_real, pairings_complex},
    };
    return table;
}

/// Added to CPU engines' predictions under Backend::cuda, so that any GPU engine ranks first.
constexpr double kNoGpuPenalty_s = 1e300;

const Engine* choose_engine(const LeafFacts& facts, Method method, Backend backend) {
    auto candidate = [&](const Engine& e) {
        const bool wanted = method == Method::automatic ? e.automatic : e.method == method;
        const bool allowed = backend == Backend::automatic || e.backend == backend ||
                             (backend == Backend::cuda && e.backend == Backend::cpu);
        return wanted && allowed && e.problem == facts.problem && e.applies(facts) &&
               (!facts.certified || e.certifies);
    };
    auto polynomial = [](const Engine& e) {
        return e.method == Method::frontier || e.method == Method::planar;
    };
    auto walks = [](const Engine& e) {
        return e.method == Method::skipper || e.method == Method::sparyser;
    };
    // An untrusted walk estimate may be off by orders of magnitude (tori: 0.3 ms predicted for
    // minutes): where a polynomial engine applies, its cost is known and the walks give way.
    const bool avoid_walks = !facts.walk_trusted && method == Method::automatic &&
                             std::any_of(engines().begin(), engines().end(), [&](const Engine& e) {
                                 return polynomial(e) && candidate(e);
                             });
    // Predictions made under a DeferredProbe each under their own, so that the probe is asked
    // for only where it can change the plan: by the chosen engine, or by another where the
    // chosen one's prediction is scaled by this machine's speed too, or could lose to it on a
    // machine kFastestSpeedFactor the model's time (torus:8x16: SkipPer's 30 s against the
    // frontier's 0.016 s, which the probe does not scale, asked for 0.3 s of probe).
    DeferredProbe* const outer = DeferredProbe::current();
    const Engine* best = nullptr;
    double best_s = std::numeric_limits<double>::infinity();
    bool best_wanted = false, best_consulted = false, any_wanted = false;
    double fastest_wanting_s = std::numeric_limits<double>::infinity();
    for (const Engine& e : engines()) {
        if (!candidate(e) || (avoid_walks && walks(e))) {
            continue;
        }
        double s = 0;
        bool wanted_probe = false, consulted = false;
        if (outer != nullptr) {
            const DeferredProbe own;
            s = e.predict_s(facts);
            wanted_probe = own.wanted();
            consulted = own.consulted();
        } else {
            s = e.predict_s(facts);
        }
        if (backend == Backend::cuda && e.backend != Backend::cuda) {
            // Asked for GPUs: a GPU engine wherever one applies (the fastest predicted), a CPU
            // engine only where none does.
            s += kNoGpuPenalty_s;
        }
        if (best == nullptr || s < best_s) {
            if (best_wanted) {
                fastest_wanting_s = std::min(fastest_wanting_s, best_s);
            }
            best = &e;
            best_s = s;
            best_wanted = wanted_probe;
            best_consulted = consulted;
        } else if (wanted_probe) {
            fastest_wanting_s = std::min(fastest_wanting_s, s);
        }
        any_wanted = any_wanted || wanted_probe;
    }
    if (outer != nullptr) {
        if (best_consulted) {
            outer->consult();
        }
        if (best_wanted || (any_wanted && best_consulted) ||
            kFastestSpeedFactor * fastest_wanting_s < best_s) {
            outer->want();
        }
    }
    return best;
}

std::string engine_choice_detail(const LeafFacts& facts, const Engine* chosen) {
    std::string detail;
    if (chosen != nullptr && chosen->method == Method::frontier) {
        detail = "width " + std::to_string(facts.frontier_width);
    }
    if (!facts.walk_trusted) {
        detail += std::string(detail.empty() ? "" : "; ") +
                  "SkipPer's walk estimate untrusted: few terms met";
    }
    return detail;
}

void generated_kernel_facts(const DenseMatrix<std::int64_t>& a, Precision precision,
                            const std::vector<int>& gpus, LeafFacts& facts) {
    if (precision != Precision::exact) {
        DenseMatrix<double> real(a.rows(), a.cols());
        for (vertex_t i = 0; i < a.rows(); ++i) {
            for (vertex_t j = 0; j < a.cols(); ++j) {
                real(i, j) = static_cast<double>(a(i, j));
            }
        }
        generated_kernel_facts(real, precision, gpus, facts);
        return;
    }
    try {
        facts.generated_cached_sparyser =
            exact::sparse_generated_cached(a, facts.binary, SparseVariant::sparyser, gpus);
        facts.generated_cached_skipper =
            exact::sparse_generated_cached(a, facts.binary, SparseVariant::skipper, gpus);
    } catch (const std::exception&) {
        facts.generated_cached_sparyser = facts.generated_cached_skipper = false;
    }
}

void generated_kernel_facts(const DenseMatrix<double>& a, Precision precision,
                            const std::vector<int>& gpus, LeafFacts& facts) {
    try {
        // One walk, in SkipPer's column order, for both variants (ryser_gpu.hpp).
        facts.generated_cached_sparyser = facts.generated_cached_skipper =
            precision != Precision::exact && exact::sparse_generated_cached(a, precision, gpus);
    } catch (const std::exception&) {
        facts.generated_cached_sparyser = facts.generated_cached_skipper = false;
    }
}

void generated_kernel_facts(const DenseMatrix<std::complex<double>>& a, Precision precision,
                            const std::vector<int>& gpus, LeafFacts& facts) {
    try {
        facts.generated_cached_sparyser = facts.generated_cached_skipper =
            precision != Precision::exact && exact::sparse_generated_cached(a, gpus);
    } catch (const std::exception&) {
        facts.generated_cached_sparyser = facts.generated_cached_skipper = false;
    }
}

const Engine& engine_named(const std::string& name, Problem problem) {
    for (const Engine& e : engines()) {
        if (name == e.name && e.problem == problem) {
            return e;
        }
    }
    throw InternalError("no engine called '" + name + "'");
}

}  // namespace pmcount::plan
