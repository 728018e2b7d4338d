// The frontier engine (see frontier.hpp for the recurrence and its cost).
//
// Phases: (1) the weighted adjacency of all V = n_left + n_right vertices; (2) candidate orders
// and their widths, the narrowest kept; (3) a step plan: each frontier vertex gets a slot (a bit
// of the 64-bit state mask) when it enters the frontier and frees it when processed — these in
// frontier_order.cpp; (4) here, the DP, one step per vertex: the live states are kept as a sorted
// list of masks; a step's new list is a serial k-way merge of the old list's images under the
// step's transitions (each a fixed XOR, so each image stays sorted), then the new values are
// pulled from the old states in parallel (no write conflicts, same result for any thread count),
// reading the old values in increasing addresses per transition. Workspaces: two sorted mask lists,
// per new state one source per transition, the merge's per-transition lists, and two value arrays
// of live × words entries.
//
// Arithmetics (exact integers of growing width; floating values with a common scale and the
// error bound's magnitudes): frontier_arithmetic.hpp.
#include "exact/frontier/frontier.hpp"

#include <immintrin.h>
#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <exception>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <type_traits>

#include "core/stop.hpp"
#include "exact/frontier/frontier_arithmetic.hpp"
#include "exact/frontier/frontier_order.hpp"
#include "exact/frontier/frontier_torus.hpp"
#include "numeric/montgomery.hpp"
#include "numeric/scaled.hpp"
#include "pmcount/error.hpp"

namespace pmcount::exact {

namespace {

using frontier::BigArith;
using frontier::FloatArith;
using frontier::Prepared;
using frontier::StepPlan;
constexpr double kUnitRoundoff = 0x1p-53;

// ---- (4) the DP
// -----------------------------------------------------------------------------------
//
// The count is e_∅ᵀ · M_V ⋯ M_1 · e_∅ with M_t the transfer matrix of step t. A forward pass
// applies M_1 … M_h to e_∅; a backward pass applies the transposes M_Vᵀ … M_{h+1}ᵀ to e_∅ (the
// transpose of a step: each state before it sums its targets after it, weighted alike); the
// count is the dot product of the two vectors at the cut h = V/2. Values grow by the same
// factor per step either way, so each pass handles integers of half the final size over half
// the steps: half the word operations of one pass over all steps, and the two passes run side by
// side on threads of their own.

/// The live states of one pass, their masks in increasing order, and their values.
template <class Arith>
struct Pass {
    explicit Pass(const Arith& a) : arith(a), masks{0} {
        values.assign(arith.words(), typename Arith::Word{});
        arith.set_one(values.data());
    }
    Arith arith;
    std::vector<std::uint64_t> masks;
    std::vector<typename Arith::Word> values;
    std::uint64_t state_visits = 0;
};

/// One transition family of a step, as a filter and a map of the old states: an old state s with
/// (s & test) == expect becomes s ^ flip. The map is a fixed XOR on states that agree on the
/// flipped bit, so it keeps the old (increasing) order: each family is a sorted list.
struct Family {
    std::uint64_t test = 0;
    std::uint64_t expect = 0;
    std::uint64_t flip = 0;
};

/// A family no state passes ((s & 1) == 2 never holds), for v off the frontier.
constexpr Family kNoState{1, 2, 0};

/// Families of step t: slot 0 is the transition through v's earlier match (weight 1), slot 1 + k
/// the one through v's match to its k-th forward neighbour u_k (weight a_{v,u_k}), and with
/// `monomers` a last slot for v left unmatched (S unchanged; weight the monomer's).
void step_families(const StepPlan& plan, std::size_t t, bool backward, bool monomers,
                   std::vector<Family>& families) {
    const std::uint64_t vbit = plan.vertex_bit[t];
    const auto f_begin = static_cast<std::size_t>(plan.forward_offsets[t]);
    const auto f_end = static_cast<std::size_t>(plan.forward_offsets[t + 1]);
    families.clear();
    if (!backward) {
        // Forward: v matched before → S − v; otherwise S + u_k for each free u_k.
        families.push_back(vbit != 0 ? Family{vbit, vbit, vbit} : kNoState);
        for (std::size_t k = f_begin; k < f_end; ++k) {
            const std::uint64_t bit = plan.forward_bit[k];
            families.push_back({vbit | bit, 0, bit});
        }
        if (monomers) {  // v not matched before, and not now (vbit = 0: no state holds v)
            families.push_back({vbit, 0, 0});
        }
        return;
    }
    // Backward, from a state T after the step: T + v, and T − u_k for each u_k ∈ T, keeping only
    // states that can exist before the step (no entering vertex).
    const std::uint64_t entering = plan.entering[t];
    families.push_back(vbit != 0 ? Family{entering | vbit, 0, vbit} : kNoState);
    for (std::size_t k = f_begin; k < f_end; ++k) {
        const std::uint64_t bit = plan.forward_bit[k];
        families.push_back({entering | bit, bit, bit});
    }
    if (monomers) {
        families.push_back({entering | vbit, 0, 0});
    }
}

/// The new live states of a step, in increasing order, and for each its source (old index) in
/// every family (kNone where absent): a k-way merge of the families' sorted lists, O(live · k).
/// Keeping every state list sorted is what makes the value phase stream (idea (a) of issue 7,
/// in place of the hash table of masks): each family reads the old values in increasing
/// addresses, and the new values are written in order. With the prefetch below, pmcount-bench
/// lattices, 16×1000 grid exact, 2 cores: 11.5 s → 7.5 s on the 2-core development VM (small
/// caches), 5.1–5.3 s → 4.2–5.1 s on 2 pinned cores of the 16-core GPU host.
constexpr std::uint32_t kNone = ~std::uint32_t{0};
/// The value phase prefetches the sources of the state this far ahead: their rows (up to 50
/// words on a 16×1000 grid) come from L3, and the hardware prefetcher does not cross the gaps
/// between a family's rows (count_matchings 16×1000, 2 pinned cores: 8.6 s → 7.8 s).
constexpr std::int64_t kPrefetchAhead = 4;

/// Scratch of merge_families, kept across steps.
struct MergeLists {
    std::vector<std::uint64_t> heads;    ///< per family: its mapped masks, then kEnd
    std::vector<std::uint32_t> origins;  ///< … and the old index of each
};

void merge_families(const std::vector<std::uint64_t>& old_masks,
                    const std::vector<Family>& families, MergeLists& lists,
                    std::vector<std::uint64_t>& new_masks, std::vector<std::uint32_t>& sources) {
    constexpr std::uint64_t kEnd = ~std::uint64_t{0};  // masks use at most 63 bits
    const std::size_t stride = families.size(), old_live = old_masks.size();
    const std::size_t span = old_live + 1;
    lists.heads.resize(stride * span);
    lists.origins.resize(stride * span);
    // Phase 1: each family's list, branch-free (the filter is taken about half of the time).
    std::vector<std::size_t> at(stride, 0);
    std::size_t images = 0;
    for (std::size_t f = 0; f < stride; ++f) {
        const Family fam = families[f];
        std::uint64_t* head = &lists.heads[f * span];
        std::uint32_t* origin = &lists.origins[f * span];
        std::size_t n = 0;
        for (std::size_t i = 0; i < old_live; ++i) {
            head[n] = old_masks[i] ^ fam.flip;
            origin[n] = static_cast<std::uint32_t>(i);
            n += (old_masks[i] & fam.test) == fam.expect ? 1 : 0;
        }
        head[n] = kEnd;
        at[f] = f * span;
        images += n;
    }
    // Phase 2: the merge; every new state takes the heads equal to the least one. There are at
    // most `images` new states; their sources grow on demand (by doubling, and the buffer is
    // kept across steps) since a tight bound would cost a pass of its own.
    new_masks.resize(images);
    std::size_t live = 0;
    for (;; ++live) {
        std::uint64_t next = kEnd;
        for (std::size_t f = 0; f < stride; ++f) {
            next = std::min(next, lists.heads[at[f]]);
        }
        if (next == kEnd) {
            break;
        }
        new_masks[live] = next;
        if ((live + 1) * stride > sources.size()) {
            sources.resize(std::max(2 * sources.size(), (live + 1) * stride));
        }
        std::uint32_t* src = &sources[live * stride];
        for (std::size_t f = 0; f < stride; ++f) {
            const bool taken = lists.heads[at[f]] == next;
            src[f] = taken ? lists.origins[at[f]] : kNone;
            at[f] += taken ? 1 : 0;
        }
    }
    new_masks.resize(live);
}

/// Runs steps [first, last) forward, or (last, first] backward (transposed), on `threads`.
/// `report(done)` is called after each step with the steps done. Returns early, after a step,
/// when a stop was requested (run_dp then throws Interrupted).
/// `monomer_entry` ≥ 0: vertices may stay unmatched, with that weight entry (all matchings).
template <class Arith, class Report>
void run_pass(Pass<Arith>& pass, const StepPlan& plan, std::size_t first, std::size_t last,
              bool backward, edge_t monomer_entry, int threads, Report report) {
    using Word = typename Arith::Word;
    std::vector<std::uint64_t> new_masks;
    std::vector<Word> next;
    std::vector<Family> families;
    std::vector<std::uint32_t> sources;
    MergeLists lists;
    for (std::size_t done = 0; done < last - first && !pmcount::detail::stop_requested(); ++done) {
        const std::size_t t = backward ? last - 1 - done : first + done;
        const auto f_begin = static_cast<std::size_t>(plan.forward_offsets[t]);
        const std::size_t forward = static_cast<std::size_t>(plan.forward_offsets[t + 1]) - f_begin;
        const bool monomers = monomer_entry >= 0;
        const std::size_t stride = 1 + forward + (monomers ? 1 : 0);
        pass.arith.before_step(pass.values, pass.masks.size(), pass.arith.growth_log2(plan, t));
        const std::size_t words = pass.arith.words();
        step_families(plan, t, backward, monomers, families);
        merge_families(pass.masks, families, lists, new_masks, sources);
        const std::size_t new_live = new_masks.size();
        next.resize(new_live * words);
        const auto n_live = static_cast<std::int64_t>(new_live);
        const Arith& arith = pass.arith;
        const std::vector<Word>& old_values = pass.values;
        // Each new state combines its own sources: no write conflicts, any thread count gives
        // the same result.
#pragma omp parallel for schedule(static) num_threads(threads) if (new_live * words >= 4096)
        for (std::int64_t i = 0; i < n_live; ++i) {
            if (i + kPrefetchAhead < n_live) {
                const std::uint32_t* ahead =
                    &sources[static_cast<std::size_t>(i + kPrefetchAhead) * stride];
                for (std::size_t f = 0; f < stride; ++f) {
                    if (ahead[f] != kNone) {
                        const auto* row = reinterpret_cast<const char*>(
                            &old_values[static_cast<std::size_t>(ahead[f]) * words]);
                        for (std::size_t b = 0; b < words * sizeof(Word); b += 64) {
                            __builtin_prefetch(row + b);
                        }
                    }
                }
            }
            const std::uint32_t* src = &sources[static_cast<std::size_t>(i) * stride];
            Word* d = &next[static_cast<std::size_t>(i) * words];
            const Word* kept =
                src[0] != kNone ? &old_values[static_cast<std::size_t>(src[0]) * words] : nullptr;
            bool first_term = true;
            for (std::size_t k = 0; k + 1 < stride; ++k) {
                if (src[1 + k] == kNone) {
                    continue;
                }
                const Word* from = &old_values[static_cast<std::size_t>(src[1 + k]) * words];
                const edge_t entry = k < forward ? plan.forward_entry[f_begin + k] : monomer_entry;
                if (!first_term) {
                    arith.add_mul(d, from, entry);
                } else if (kept != nullptr) {
                    arith.sum_mul(d, kept, from, entry);
                } else {
                    arith.assign_mul(d, from, entry);
                }
                first_term = false;
            }
            if (first_term) {
                arith.copy(d, kept);  // a new state always has a source
            }
        }
        pass.state_visits += new_live;
        pass.values.swap(next);
        pass.masks.swap(new_masks);
        report(done + 1);
    }
}

/// Σ_S forward[S] · backward[S] over the states live in both (Arith::dot accumulates): a merge
/// join of the two sorted mask lists.
template <class Arith>
typename Arith::Dot combine(const Pass<Arith>& forward, const Pass<Arith>& backward) {
    typename Arith::Dot dot{};
    const std::size_t words = forward.arith.words(), back_words = backward.arith.words();
    const auto& a = forward.masks;
    const auto& b = backward.masks;
    for (std::size_t i = 0, j = 0; i < a.size() && j < b.size();) {
        if (a[i] < b[j]) {
            ++i;
        } else if (b[j] < a[i]) {
            ++j;
        } else {
            forward.arith.dot(dot, &forward.values[i * words], backward.arith,
                              &backward.values[j * back_words]);
            ++i;
            ++j;
        }
    }
    return dot;
}

template <class Arith>
struct DpOutcome {
    typename Arith::Dot dot{};
    std::int64_t exponent2 = 0;  ///< the dot product is dot · 2^exponent2 (floating arithmetics)
    std::uint64_t state_visits = 0;
};

/// Both passes, the backward one on a thread of its own when there are two or more threads.
template <class Arith>
DpOutcome<Arith> run_dp(const Arith& arith, const StepPlan& plan, const run::EngineRun& run,
                        edge_t monomer_entry = -1) {
    const std::size_t steps = plan.vertex_bit.size();
    const std::size_t cut = steps / 2;
    const int threads = run::resolve_threads(run.threads);
    Pass<Arith> forward(arith), backward(arith);
    run::ProgressThrottle progress(run);
    std::atomic<std::size_t> backward_done{0};
    // Progress is reported from the calling thread (the forward pass) only.
    const auto report_forward = [&](std::size_t done) {
        const double total =
            static_cast<double>(done + backward_done.load(std::memory_order_relaxed));
        progress.report(total / static_cast<double>(std::max<std::size_t>(1, steps)));
    };
    const auto report_backward = [&](std::size_t done) {
        backward_done.store(done, std::memory_order_relaxed);
    };
    if (threads >= 2) {
        std::exception_ptr failure;
        std::thread other([&] {
            try {
                run_pass(backward, plan, cut, steps, true, monomer_entry, threads / 2,
                         report_backward);
            } catch (...) {
                failure = std::current_exception();
            }
        });
        // The other thread is joined whatever happens here (a joinable std::thread destroyed
        // while an exception unwinds would end the program).
        std::exception_ptr own_failure;
        try {
            run_pass(forward, plan, 0, cut, false, monomer_entry, threads - threads / 2,
                     report_forward);
        } catch (...) {
            own_failure = std::current_exception();
        }
        other.join();
        if (own_failure || failure) {
            std::rethrow_exception(own_failure ? own_failure : failure);
        }
    } else {
        run_pass(backward, plan, cut, steps, true, monomer_entry, 1, report_backward);
        run_pass(forward, plan, 0, cut, false, monomer_entry, 1, report_forward);
    }
    pmcount::detail::throw_if_stopped(
        "counting by the frontier DP");  // both passes have left their loops
    DpOutcome<Arith> out;
    out.dot = combine(forward, backward);
    out.exponent2 = forward.arith.exponent() + backward.arith.exponent();
    out.state_visits = forward.state_visits + backward.state_visits;
    return out;
}

std::string describe(const FrontierOrder& order) {
    return "frontier width " + std::to_string(order.width) + " (" + order.heuristic + " order)";
}

template <class T>
FloatOutcome frontier_float(const SparseMatrix<T>& a, const Prepared& p,
                            const run::EngineRun& run) {
    const FloatArith<T> arith(a.values());
    FloatOutcome out;
    const auto dp = run_dp(arith, p.plan, run);
    const auto& dot = dp.dot;
    const std::int64_t exponent = dp.exponent2;
    out.gray_steps = dp.state_visits;
    out.arithmetic =
        describe(p.order) + ", " + (std::is_same_v<T, double> ? "double" : "complex double");
    int max_degree = 0;
    for (vertex_t x = 0; x < p.adj.size(); ++x) {
        max_degree = std::max(max_degree, static_cast<int>(p.adj.end(x) - p.adj.begin(x)));
    }
    const numeric::Scaled value = numeric::Scaled::from(std::complex<double>(dot.value), exponent);
    const numeric::Scaled magnitude = numeric::Scaled::from(dot.magnitude, exponent);
    out.mantissa = value.mantissa;
    out.exponent2 = value.exponent;
    // Every value is a sum of at most deg + 1 products per step, the dot product one more sum;
    // first-order rounding error relative to the same sums over |a_ij|.
    const double bound = (max_degree + 2.0) * static_cast<double>(p.adj.size()) * kUnitRoundoff;
    out.abs_error_mantissa =
        value.is_zero() ? bound * magnitude.value().real()
                        : bound * std::ldexp(magnitude.mantissa.real(),
                                             static_cast<int>(magnitude.exponent - value.exponent));
    return out;
}

ExactOutcome frontier_integer(const SparseMatrix<std::int64_t>& a, const Prepared& p,
                              const run::EngineRun& run) {
    ExactOutcome out;
    const auto dp = run_dp(BigArith(a.values()), p.plan, run);
    out.value = dp.dot;
    out.gray_steps = dp.state_visits;
    out.arithmetic = describe(p.order) + ", exact integers";
    return out;
}

}  // namespace

MatchingsFrontier::MatchingsFrontier(const SparseMatrix<std::int64_t>& a,
                                     const FrontierOrder& order)
    : a_(a), prepared_(std::make_unique<const Prepared>(frontier::prepare_hafnian(a, order))) {}

MatchingsFrontier::~MatchingsFrontier() = default;

MatchingResidues MatchingsFrontier::residues(const std::vector<std::int64_t>& points,
                                             std::int64_t monomer,
                                             const std::vector<std::uint64_t>& primes,
                                             const run::EngineRun& run) const {
    MatchingResidues out;
    out.residues.assign(points.size(), std::vector<std::uint64_t>(primes.size(), 0));
    const auto entries = static_cast<edge_t>(a_.values().size());
    const std::size_t per_run = std::max<std::size_t>(1, kMaxMatchingLanes / primes.size());
    for (std::size_t first = 0; first < points.size(); first += per_run) {
        const std::size_t count = std::min(per_run, points.size() - first);
        // Lane j·P + l: point first + j modulo prime l; entry `entries` is the monomer's weight.
        std::vector<std::uint64_t> lane_primes;
        for (std::size_t j = 0; j < count; ++j) {
            lane_primes.insert(lane_primes.end(), primes.begin(), primes.end());
        }
        const std::size_t lanes = lane_primes.size();
        std::vector<std::uint64_t> weights(static_cast<std::size_t>(entries + 1) * lanes);
        for (std::size_t l = 0; l < lanes; ++l) {
            const std::uint64_t prime = lane_primes[l];
            const numeric::Montgomery64 field(prime);
            const std::uint64_t y =
                numeric::reduce_signed(points[first + l / primes.size()], prime);
            for (edge_t e = 0; e < entries; ++e) {
                const std::uint64_t w =
                    numeric::reduce_signed(a_.values()[static_cast<std::size_t>(e)], prime);
                weights[static_cast<std::size_t>(e) * lanes + l] =
                    field.to_montgomery(numeric::mul_mod(w, y, prime));
            }
            weights[static_cast<std::size_t>(entries) * lanes + l] =
                field.to_montgomery(numeric::reduce_signed(monomer, prime));
        }
        const auto dp =
            run_dp(frontier::ModArith(lane_primes, weights), prepared_->plan, run, entries);
        out.state_visits += dp.state_visits;
        for (std::size_t l = 0; l < lanes; ++l) {
            out.residues[first + l / primes.size()][l % primes.size()] =
                l < dp.dot.size() ? dp.dot[l] : 0;
        }
    }
    return out;
}

double MatchingsFrontier::magnitude_log2(double y, double monomer,
                                         const run::EngineRun& run) const {
    std::vector<double> weights;
    for (const std::int64_t w : a_.values()) {
        weights.push_back(std::fabs(static_cast<double>(w)) * y);
    }
    weights.push_back(std::fabs(monomer));
    const auto entries = static_cast<edge_t>(a_.values().size());
    const auto dp = run_dp(FloatArith<double>(weights), prepared_->plan, run, entries);
    return dp.dot.value > 0 ? std::log2(dp.dot.value) + static_cast<double>(dp.exponent2)
                            : -std::numeric_limits<double>::infinity();
}

ExactOutcome frontier_exact(const SparseMatrix<std::int64_t>& a, const run::EngineRun& run) {
    return frontier_integer(a, frontier::prepare(a), run);
}

FloatOutcome frontier_real(const SparseMatrix<double>& a, const run::EngineRun& run) {
    return frontier_float(a, frontier::prepare(a), run);
}

FloatOutcome frontier_complex(const SparseMatrix<std::complex<double>>& a,
                              const run::EngineRun& run) {
    return frontier_float(a, frontier::prepare(a), run);
}

ExactOutcome frontier_hafnian_exact(const SparseMatrix<std::int64_t>& a,
                                    const run::EngineRun& run) {
    if (run.embedding != nullptr && run.embedding->cells) {
        if (const std::optional<TorusTransfer> t = torus_transfer(a, *run.embedding->cells)) {
            return frontier_torus_exact(a, *t, run);
        }
    }
    return frontier_integer(a, frontier::prepare_hafnian(a), run);
}

FloatOutcome frontier_hafnian_real(const SparseMatrix<double>& a, const run::EngineRun& run) {
    return frontier_float(a, frontier::prepare_hafnian(a), run);
}

FloatOutcome frontier_hafnian_complex(const SparseMatrix<std::complex<double>>& a,
                                      const run::EngineRun& run) {
    return frontier_float(a, frontier::prepare_hafnian(a), run);
}

}  // namespace pmcount::exact
