// The frontier engine (see frontier.hpp for the recurrence and its cost).
//
// Phases: (1) the weighted adjacency of all V = n_left + n_right vertices; (2) candidate orders
// and their widths, the narrowest kept; (3) a step plan: each frontier vertex gets a slot (a bit
// of the 64-bit state mask) when it enters the frontier and frees it when processed; (4) the DP,
// one step per vertex: the live states are kept as a sorted list of masks; a step's new list is
// a serial k-way merge of the old list's images under the step's transitions (each a fixed XOR,
// so each image stays sorted), then the new values are pulled from the old states in parallel (no
// write conflicts, same result for any thread count), reading the old values in increasing
// addresses per transition. Workspaces: two sorted mask lists, per new state one source per
// transition, the merge's per-transition lists, and two value arrays of live × words entries.
//
// Arithmetics: exact values are two's-complement integers of L 64-bit limbs (ring Z/2^(64L):
// additions and multiplications by a word wrap exactly as the true values do as long as those
// fit), and L grows before a step could overflow, from a running bound on the magnitude that is
// re-measured when it gets near the top. Floating values carry a common power-of-two scale and,
// alongside, the same DP over |a_ij| for the error bound.
#include "exact/frontier/frontier.hpp"

#include <immintrin.h>
#include <omp.h>

#include <algorithm>
#include <atomic>
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/cuthill_mckee_ordering.hpp>
#include <cmath>
#include <exception>
#include <limits>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <tuple>
#include <type_traits>

#include "core/stop.hpp"
#include "numeric/int128.hpp"
#include "numeric/scaled.hpp"
#include "pmcount/error.hpp"

namespace pmcount::exact {

namespace {

using numeric::uint128_t;
constexpr double kUnitRoundoff = 0x1p-53;

// ---- (1) adjacency
// ---------------------------------------------------------------------------------

/// Both sides as one graph: vertex x < n_left is row x, otherwise column x − n_left. Each
/// adjacency entry carries the CSR position of its matrix entry (the weight).
struct Adjacency {
    vertex_t n_left = 0;
    std::vector<edge_t> offsets;
    std::vector<vertex_t> neighbours;
    std::vector<edge_t> entry;

    vertex_t size() const { return static_cast<vertex_t>(offsets.size()) - 1; }
    edge_t begin(vertex_t x) const { return offsets[static_cast<std::size_t>(x)]; }
    edge_t end(vertex_t x) const { return offsets[static_cast<std::size_t>(x) + 1]; }
};

/// From a matrix (its nonzero entries) or from a graph (every edge, entry = CSR position).
template <class IsEdge>
Adjacency make_adjacency(vertex_t n_left, vertex_t n_right, const std::vector<edge_t>& row_offsets,
                         const std::vector<vertex_t>& col_indices, IsEdge is_edge) {
    Adjacency adj;
    adj.n_left = n_left;
    const auto total = static_cast<std::size_t>(n_left + n_right);
    std::vector<edge_t> degree(total, 0);
    for (vertex_t r = 0; r < n_left; ++r) {
        for (edge_t e = row_offsets[static_cast<std::size_t>(r)];
             e < row_offsets[static_cast<std::size_t>(r) + 1]; ++e) {
            if (is_edge(e)) {
                ++degree[static_cast<std::size_t>(r)];
                ++degree[static_cast<std::size_t>(n_left +
                                                  col_indices[static_cast<std::size_t>(e)])];
            }
        }
    }
    adj.offsets.assign(total + 1, 0);
    for (std::size_t x = 0; x < total; ++x) {
        adj.offsets[x + 1] = adj.offsets[x] + degree[x];
    }
    adj.neighbours.resize(static_cast<std::size_t>(adj.offsets.back()));
    adj.entry.resize(adj.neighbours.size());
    std::vector<edge_t> fill(adj.offsets.begin(), adj.offsets.end() - 1);
    for (vertex_t r = 0; r < n_left; ++r) {
        for (edge_t e = row_offsets[static_cast<std::size_t>(r)];
             e < row_offsets[static_cast<std::size_t>(r) + 1]; ++e) {
            if (!is_edge(e)) {
                continue;
            }
            const vertex_t c = n_left + col_indices[static_cast<std::size_t>(e)];
            const auto pr = static_cast<std::size_t>(fill[static_cast<std::size_t>(r)]++);
            const auto pc = static_cast<std::size_t>(fill[static_cast<std::size_t>(c)]++);
            adj.neighbours[pr] = c;
            adj.entry[pr] = e;
            adj.neighbours[pc] = r;
            adj.entry[pc] = e;
        }
    }
    return adj;
}

// ---- (2) orders and widths
// ------------------------------------------------------------------------

/// What an interrupted order search was doing (pmcount::detail::throw_if_stopped: per candidate, and every
/// 65536 vertices of the greedy orders).
constexpr const char* kOrdering = "planning the count (frontier order)";

double central_binomial(int m) {
    return std::round(
        std::exp(std::lgamma(m + 1.0) - std::lgamma(m / 2 + 1.0) - std::lgamma(m - m / 2 + 1.0)));
}

/// Width, slots and the state bound of f.order.
void measure(const Adjacency& adj, FrontierOrder& f) {
    const auto total = static_cast<std::size_t>(adj.size());
    std::vector<char> processed(total, 0), on_frontier(total, 0);
    int frontier = 0;
    f.width = f.slots = 0;
    f.states = f.peak_states = 0;
    std::size_t step = 0;
    for (const vertex_t x : f.order) {
        if ((++step & 0xffff) == 0) {
            pmcount::detail::throw_if_stopped(kOrdering);
        }
        int entering = 0;
        for (edge_t e = adj.begin(x); e < adj.end(x); ++e) {
            const auto y = static_cast<std::size_t>(adj.neighbours[static_cast<std::size_t>(e)]);
            if (processed[y] == 0 && on_frontier[y] == 0 && y != static_cast<std::size_t>(x)) {
                on_frontier[y] = 1;
                ++entering;
            }
        }
        const int held = on_frontier[static_cast<std::size_t>(x)] != 0 ? 1 : 0;
        f.slots = std::max(f.slots, frontier + entering);
        frontier += entering - held;
        on_frontier[static_cast<std::size_t>(x)] = 0;
        processed[static_cast<std::size_t>(x)] = 1;
        f.width = std::max(f.width, frontier);
        const double states = central_binomial(frontier);
        f.states += states;
        f.peak_states = std::max(f.peak_states, states);
    }
}

/// Greedy order from `start`: always process the frontier vertex (in order of arrival) whose
/// processing brings the fewest new vertices onto the frontier; when the frontier empties, the
/// next unprocessed vertex of `fallback`. The frontier is kept ordered by (gain, arrival), so a
/// step costs O(log w) per gain change instead of a scan of the frontier: O(E log w) in all
/// (the scan made the 1000×1000 grid's planning take minutes). Empty when the frontier grows
/// past `width_cap`.
std::vector<vertex_t> greedy_order(const Adjacency& adj, vertex_t start,
                                   const std::vector<vertex_t>& fallback, int width_cap) {
    const auto total = static_cast<std::size_t>(adj.size());
    std::vector<char> processed(total, 0), on_frontier(total, 0);
    std::vector<int> gain(total, 0);  // unprocessed neighbours not on the frontier
    std::vector<std::int64_t> arrival(total, 0);
    for (std::size_t x = 0; x < total; ++x) {
        gain[x] = static_cast<int>(adj.end(static_cast<vertex_t>(x)) -
                                   adj.begin(static_cast<vertex_t>(x)));
    }
    // (gain, arrival, vertex) of every frontier vertex; the first is the next to process.
    std::set<std::tuple<int, std::int64_t, vertex_t>> frontier;
    std::int64_t arrivals = 0;
    std::vector<vertex_t> order;
    order.reserve(total);
    std::size_t next_fallback = 0;
    // A vertex leaving the "unprocessed, off the frontier" set lowers its neighbours' gains.
    const auto leaves_outside = [&](vertex_t y) {
        for (edge_t e = adj.begin(y); e < adj.end(y); ++e) {
            const vertex_t z = adj.neighbours[static_cast<std::size_t>(e)];
            const auto k = static_cast<std::size_t>(z);
            if (on_frontier[k] != 0) {
                frontier.erase({gain[k], arrival[k], z});
                frontier.insert({gain[k] - 1, arrival[k], z});
            }
            --gain[k];
        }
    };
    while (order.size() < total) {
        if ((order.size() & 0xffff) == 0) {
            pmcount::detail::throw_if_stopped(kOrdering);
        }
        vertex_t x;
        if (!frontier.empty()) {
            x = std::get<2>(*frontier.begin());
            frontier.erase(frontier.begin());
            on_frontier[static_cast<std::size_t>(x)] = 0;
        } else {
            if (order.empty()) {
                x = start;
            } else {
                while (processed[static_cast<std::size_t>(fallback[next_fallback])] != 0) {
                    ++next_fallback;
                }
                x = fallback[next_fallback];
            }
            leaves_outside(x);
        }
        processed[static_cast<std::size_t>(x)] = 1;
        order.push_back(x);
        for (edge_t e = adj.begin(x); e < adj.end(x); ++e) {
            const vertex_t y = adj.neighbours[static_cast<std::size_t>(e)];
            const auto k = static_cast<std::size_t>(y);
            if (processed[k] == 0 && on_frontier[k] == 0) {
                on_frontier[k] = 1;
                arrival[k] = arrivals++;
                frontier.insert({gain[k], arrival[k], y});
                leaves_outside(y);
            }
        }
        if (frontier.size() > static_cast<std::size_t>(width_cap)) {
            return {};  // wider than anything that could matter: abandoned
        }
    }
    return order;
}

FrontierOrder best_order(const Adjacency& adj, int width_cap) {
    pmcount::detail::throw_if_stopped(kOrdering);
    const vertex_t total = adj.size();
    std::vector<FrontierOrder> candidates;
    // Cuthill–McKee from Boost's pseudo-peripheral start (per component) and its reverse.
    using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS>;
    auto g = std::make_shared<Graph>(static_cast<std::size_t>(total));
    for (vertex_t x = 0; x < total; ++x) {
        if ((x & 0xffff) == 0) {
            pmcount::detail::throw_if_stopped(kOrdering);
        }
        for (edge_t e = adj.begin(x); e < adj.end(x); ++e) {
            if (x < adj.neighbours[static_cast<std::size_t>(e)]) {
                boost::add_edge(
                    static_cast<std::size_t>(x),
                    static_cast<std::size_t>(adj.neighbours[static_cast<std::size_t>(e)]), *g);
            }
        }
    }
    // Boost's ordering cannot check the stop flag (1–2 s on 4·10^6 vertices): on large graphs
    // it runs on a thread of its own while this one does.
    const auto cuthill_mckee = [g] {
        std::vector<std::size_t> order;
        order.reserve(boost::num_vertices(*g));
        if (boost::num_vertices(*g) > 0) {
            boost::cuthill_mckee_ordering(*g, std::back_inserter(order));
        }
        return order;
    };
    constexpr vertex_t kInterruptibleFrom = 65536;
    const std::vector<std::size_t> cm = total < kInterruptibleFrom
                                            ? cuthill_mckee()
                                            : pmcount::detail::run_interruptibly(cuthill_mckee, kOrdering);
    FrontierOrder forward;
    forward.order.assign(cm.begin(), cm.end());
    forward.heuristic = "cuthill-mckee";
    FrontierOrder reverse;
    reverse.order.assign(cm.rbegin(), cm.rend());
    reverse.heuristic = "reverse cuthill-mckee";
    candidates.push_back(forward);
    candidates.push_back(reverse);
    // Index order: row i, then column i (a band around the diagonal stays narrow).
    FrontierOrder index;
    index.heuristic = "index";
    for (vertex_t i = 0; i < std::max(adj.n_left, total - adj.n_left); ++i) {
        if (i < adj.n_left) {
            index.order.push_back(i);
        }
        if (adj.n_left + i < total) {
            index.order.push_back(adj.n_left + i);
        }
    }
    candidates.push_back(index);
    if (total > 0) {
        for (const vertex_t start : {forward.order.front(), forward.order.back()}) {
            FrontierOrder greedy;
            greedy.order =
                greedy_order(adj, start,
                             start == forward.order.front() ? forward.order : reverse.order,
                             width_cap);
            greedy.heuristic = "greedy";
            if (!greedy.order.empty()) {
                candidates.push_back(std::move(greedy));
            }
        }
    }
    FrontierOrder* best = nullptr;
    for (FrontierOrder& c : candidates) {
        pmcount::detail::throw_if_stopped(kOrdering);
        measure(adj, c);
        if (best == nullptr || c.states < best->states) {
            best = &c;
        }
    }
    return *best;
}

// ---- (3) step plan
// --------------------------------------------------------------------------------

struct StepPlan {
    std::vector<std::uint64_t>
        vertex_bit;  ///< per step: the processed vertex's bit, 0 if off the frontier
    /// Per step: the bits of the vertices that enter the frontier (take a slot) at this step. No
    /// state before the step holds them; a slot may have served another vertex earlier.
    std::vector<std::uint64_t> entering;
    std::vector<edge_t> forward_offsets;     ///< per step: its unprocessed neighbours …
    std::vector<std::uint64_t> forward_bit;  ///< … their bits
    std::vector<edge_t> forward_entry;       ///< … and the matrix entry of the edge
};

StepPlan plan_steps(const Adjacency& adj, const std::vector<vertex_t>& order, int width) {
    const auto total = static_cast<std::size_t>(adj.size());
    StepPlan plan;
    std::vector<int> slot(total, -1);
    std::vector<char> processed(total, 0);
    std::vector<int> free_slots(static_cast<std::size_t>(width));
    for (int s = 0; s < width; ++s) {
        free_slots[static_cast<std::size_t>(s)] = width - 1 - s;
    }
    plan.forward_offsets.push_back(0);
    for (const vertex_t x : order) {
        std::uint64_t entering = 0;
        for (edge_t e = adj.begin(x); e < adj.end(x); ++e) {
            const auto y = static_cast<std::size_t>(adj.neighbours[static_cast<std::size_t>(e)]);
            if (processed[y] != 0) {
                continue;
            }
            if (slot[y] < 0) {
                slot[y] = free_slots.back();
                free_slots.pop_back();
                entering |= std::uint64_t{1} << slot[y];
            }
            plan.forward_bit.push_back(std::uint64_t{1} << slot[y]);
            plan.forward_entry.push_back(adj.entry[static_cast<std::size_t>(e)]);
        }
        plan.forward_offsets.push_back(static_cast<edge_t>(plan.forward_bit.size()));
        plan.entering.push_back(entering);
        const int s = slot[static_cast<std::size_t>(x)];
        plan.vertex_bit.push_back(s < 0 ? 0 : std::uint64_t{1} << s);
        if (s >= 0) {
            free_slots.push_back(s);
        }
        processed[static_cast<std::size_t>(x)] = 1;
    }
    return plan;
}

// ---- arithmetics
// ----------------------------------------------------------------------------------

/// Two's-complement integers of `limbs` words; weights int64.
class BigArith {
public:
    using Word = std::uint64_t;
    explicit BigArith(const std::vector<std::int64_t>& weights) : weights_(weights) {}
    std::size_t words() const { return limbs_; }

    /// Makes room for one more step whose values grow at most by the factor 2^growth_log2.
    void before_step(std::vector<Word>& values, std::size_t live, double growth_log2) {
        bound_bits_ += growth_log2;
        if (bound_bits_ + 2 <= 64.0 * static_cast<double>(limbs_)) {
            return;
        }
        bound_bits_ = measured_bits(values, live) + growth_log2;
        const auto needed = static_cast<std::size_t>(std::ceil((bound_bits_ + 2) / 64.0));
        if (needed <= limbs_) {
            return;
        }
        // Two spare limbs: regrowth (a copy of the live values) then comes every ≥ 128 bits of
        // growth, while the values themselves never carry more than two idle limbs.
        const std::size_t grown = needed + 2;
        std::vector<Word> wider(live * grown);
        for (std::size_t i = 0; i < live; ++i) {
            const Word* s = &values[i * limbs_];
            const Word extension = (s[limbs_ - 1] >> 63) != 0 ? ~Word{0} : 0;
            std::copy(s, s + limbs_, &wider[i * grown]);
            std::fill(&wider[i * grown + limbs_], &wider[(i + 1) * grown], extension);
        }
        values.swap(wider);
        limbs_ = grown;
    }
    using Dot = BigInt;
    static std::int64_t exponent() { return 0; }
    void set_one(Word* d) const {
        std::fill(d, d + limbs_, Word{0});
        d[0] = 1;
    }
    /// dot += a·b (a in this arithmetic, b in `other`, whose width may differ).
    void dot(Dot& sum, const Word* a, const BigArith& other, const Word* b) const {
        sum += value(a) * other.value(b);
    }
    void copy(Word* d, const Word* s) const { std::copy(s, s + limbs_, d); }
    /// d = w·s.
    void assign_mul(Word* d, const Word* s, edge_t entry) const {
        const std::int64_t w = weights_[static_cast<std::size_t>(entry)];
        if (w == 1) {
            copy(d, s);
            return;
        }
        std::fill(d, d + limbs_, Word{0});
        add_mul(d, s, entry);
    }
    /// d = a + w·b in one pass when w = 1 (the common 0-1 case: saves a copy of a).
    void sum_mul(Word* d, const Word* a, const Word* b, edge_t entry) const {
        if (weights_[static_cast<std::size_t>(entry)] != 1) {
            copy(d, a);
            add_mul(d, b, entry);
            return;
        }
        unsigned char carry = 0;
        for (std::size_t i = 0; i < limbs_; ++i) {
            unsigned long long sum = 0;
            carry = _addcarry_u64(carry, a[i], b[i], &sum);
            d[i] = sum;
        }
    }
    /// d += w·s.
    void add_mul(Word* d, const Word* s, edge_t entry) const {
        const std::int64_t w = weights_[static_cast<std::size_t>(entry)];
        if (w == 1) {
            unsigned char carry = 0;
            for (std::size_t i = 0; i < limbs_; ++i) {
                unsigned long long sum = 0;
                carry = _addcarry_u64(carry, d[i], s[i], &sum);
                d[i] = sum;
            }
            return;
        }
        // d ± |w|·s modulo 2^(64L): the product of the two's-complement s by a word is exact in
        // that ring.
        const Word m = w < 0 ? ~static_cast<Word>(w) + 1 : static_cast<Word>(w);
        Word mul_carry = 0;
        unsigned char carry = 0;
        for (std::size_t i = 0; i < limbs_; ++i) {
            const uint128_t p = uint128_t{s[i]} * m + mul_carry;
            const Word low = static_cast<Word>(p);
            mul_carry = static_cast<Word>(p >> 64);
            if (w > 0) {
                const uint128_t sum = uint128_t{d[i]} + low + carry;
                d[i] = static_cast<Word>(sum);
                carry = static_cast<unsigned char>(sum >> 64);
            } else {
                const uint128_t diff = uint128_t{d[i]} - low - carry;
                d[i] = static_cast<Word>(diff);
                carry = static_cast<unsigned char>((diff >> 64) != 0 ? 1 : 0);
            }
        }
    }
    /// Bits of growth per step: log2(1 + Σ|w|) over the step's entries.
    double growth_log2(const StepPlan& plan, std::size_t step) const {
        double sum = 1;
        for (edge_t k = plan.forward_offsets[step]; k < plan.forward_offsets[step + 1]; ++k) {
            sum += std::fabs(static_cast<double>(weights_[static_cast<std::size_t>(
                plan.forward_entry[static_cast<std::size_t>(k)])]));
        }
        return std::log2(sum) + 1e-9;
    }
    BigInt value(const Word* v) const {
        const bool negative = (v[limbs_ - 1] >> 63) != 0;
        std::vector<std::uint64_t> magnitude(v, v + limbs_);
        if (negative) {  // two's complement negation
            unsigned char carry = 1;
            for (auto& limb : magnitude) {
                const uint128_t sum = uint128_t{~limb} + carry;
                limb = static_cast<std::uint64_t>(sum);
                carry = static_cast<unsigned char>(sum >> 64);
            }
        }
        while (!magnitude.empty() && magnitude.back() == 0) {
            magnitude.pop_back();
        }
        return BigInt::from_limbs(negative, std::move(magnitude));
    }

private:
    /// Bits of the largest magnitude among the live values (top limbs that are pure sign
    /// extension are skipped; the rest counts in full).
    double measured_bits(const std::vector<Word>& values, std::size_t live) const {
        std::size_t top = 1;
        for (std::size_t i = 0; i < live; ++i) {
            const Word* v = &values[i * limbs_];
            const Word extension = (v[limbs_ - 1] >> 63) != 0 ? ~Word{0} : 0;
            std::size_t used = limbs_;
            while (used > top && v[used - 1] == extension) {
                --used;
            }
            top = std::max(top, used);
        }
        return 64.0 * static_cast<double>(top);
    }

    const std::vector<std::int64_t>& weights_;
    std::size_t limbs_ = 1;
    double bound_bits_ = 1;
};

/// Values and, in the second word, the same DP over |weights| (for the error bound); a common
/// scale 2^exponent keeps both in range.
template <class T>
class FloatArith {
public:
    using Word = T;
    explicit FloatArith(const std::vector<T>& weights) : weights_(weights) {}
    static std::size_t words() { return 2; }
    void before_step(std::vector<Word>& values, std::size_t live, double) {
        double largest = 0;
        for (std::size_t i = 0; i < live; ++i) {
            largest = std::max(largest, std::abs(values[2 * i + 1]));
        }
        if (largest == 0 || (largest < 0x1p400 && largest > 0x1p-400)) {
            return;
        }
        int e = 0;
        std::frexp(largest, &e);
        for (std::size_t i = 0; i < 2 * live; ++i) {
            values[i] = values[i] * std::ldexp(1.0, -e);
        }
        exponent_ += e;
    }
    /// Σ a·b and Σ |a|·|b| (the magnitude lanes), each a mantissa with the exponent of both
    /// scales.
    struct Dot {
        T value{};
        double magnitude = 0;
    };
    static void set_one(Word* d) { d[0] = d[1] = T(1); }
    void dot(Dot& sum, const Word* a, const FloatArith&, const Word* b) const {
        sum.value += a[0] * b[0];
        sum.magnitude += std::abs(a[1]) * std::abs(b[1]);
    }
    static void copy(Word* d, const Word* s) { d[0] = s[0], d[1] = s[1]; }
    void assign_mul(Word* d, const Word* s, edge_t entry) const {
        const T w = weights_[static_cast<std::size_t>(entry)];
        d[0] = w * s[0];
        d[1] = std::abs(w) * s[1];
    }
    void sum_mul(Word* d, const Word* a, const Word* b, edge_t entry) const {
        copy(d, a);
        add_mul(d, b, entry);
    }
    void add_mul(Word* d, const Word* s, edge_t entry) const {
        const T w = weights_[static_cast<std::size_t>(entry)];
        d[0] += w * s[0];
        d[1] += std::abs(w) * s[1];
    }
    static double growth_log2(const StepPlan&, std::size_t) { return 0; }
    std::int64_t exponent() const { return exponent_; }

private:
    const std::vector<T>& weights_;
    std::int64_t exponent_ = 0;
};

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
/// the one through v's match to its k-th forward neighbour u_k (weight a_{v,u_k}).
void step_families(const StepPlan& plan, std::size_t t, bool backward,
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
template <class Arith, class Report>
void run_pass(Pass<Arith>& pass, const StepPlan& plan, std::size_t first, std::size_t last,
              bool backward, int threads, Report report) {
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
        const std::size_t stride = 1 + forward;
        pass.arith.before_step(pass.values, pass.masks.size(), pass.arith.growth_log2(plan, t));
        const std::size_t words = pass.arith.words();
        step_families(plan, t, backward, families);
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
            for (std::size_t k = 0; k < forward; ++k) {
                if (src[1 + k] == kNone) {
                    continue;
                }
                const Word* from = &old_values[static_cast<std::size_t>(src[1 + k]) * words];
                const edge_t entry = plan.forward_entry[f_begin + k];
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
DpOutcome<Arith> run_dp(const Arith& arith, const StepPlan& plan, const run::EngineRun& run) {
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
                run_pass(backward, plan, cut, steps, true, threads / 2, report_backward);
            } catch (...) {
                failure = std::current_exception();
            }
        });
        // The other thread is joined whatever happens here (a joinable std::thread destroyed
        // while an exception unwinds would end the program).
        std::exception_ptr own_failure;
        try {
            run_pass(forward, plan, 0, cut, false, threads - threads / 2, report_forward);
        } catch (...) {
            own_failure = std::current_exception();
        }
        other.join();
        if (own_failure || failure) {
            std::rethrow_exception(own_failure ? own_failure : failure);
        }
    } else {
        run_pass(backward, plan, cut, steps, true, 1, report_backward);
        run_pass(forward, plan, 0, cut, false, 1, report_forward);
    }
    pmcount::detail::throw_if_stopped("counting by the frontier DP");  // both passes have left their loops
    DpOutcome<Arith> out;
    out.dot = combine(forward, backward);
    out.exponent2 = forward.arith.exponent() + backward.arith.exponent();
    out.state_visits = forward.state_visits + backward.state_visits;
    return out;
}

template <class T>
struct Prepared {
    Adjacency adj;
    FrontierOrder order;
    StepPlan plan;
};

template <class T>
Prepared<T> prepare(const SparseMatrix<T>& a) {
    if (!a.is_square()) {
        throw DimensionMismatch("frontier needs a square matrix, got " + std::to_string(a.rows()) +
                                "×" + std::to_string(a.cols()));
    }
    Prepared<T> p;
    p.adj = make_adjacency(a.rows(), a.cols(), a.row_offsets(), a.col_indices(), [&a](edge_t e) {
        return a.values()[static_cast<std::size_t>(e)] != T{};
    });
    p.order = best_order(p.adj, std::numeric_limits<int>::max());
    if (p.order.width > kMaxFrontierWidth || p.order.slots > 63) {
        throw ProblemTooLarge("frontier: the narrowest vertex order found has width " +
                              std::to_string(p.order.width) + ", beyond the engine's limit of " +
                              std::to_string(kMaxFrontierWidth) + "; use another engine");
    }
    p.plan = plan_steps(p.adj, p.order.order, p.order.slots);
    return p;
}

std::string describe(const FrontierOrder& order) {
    return "frontier width " + std::to_string(order.width) + " (" + order.heuristic + " order)";
}

template <class T>
FloatOutcome frontier_float(const SparseMatrix<T>& a, const run::EngineRun& run) {
    const Prepared<T> p = prepare(a);
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

}  // namespace

FrontierOrder frontier_order(const BipartiteGraph& graph, int width_cap) {
    return best_order(make_adjacency(graph.n_left(), graph.n_right(), graph.left_offsets(),
                                     graph.left_adjacency(), [](edge_t) { return true; }),
                      width_cap);
}

ExactOutcome frontier_exact(const SparseMatrix<std::int64_t>& a, const run::EngineRun& run) {
    const Prepared<std::int64_t> p = prepare(a);
    ExactOutcome out;
    const auto dp = run_dp(BigArith(a.values()), p.plan, run);
    out.value = dp.dot;
    out.gray_steps = dp.state_visits;
    out.arithmetic = describe(p.order) + ", exact integers";
    return out;
}

FloatOutcome frontier_real(const SparseMatrix<double>& a, const run::EngineRun& run) {
    return frontier_float(a, run);
}

FloatOutcome frontier_complex(const SparseMatrix<std::complex<double>>& a,
                              const run::EngineRun& run) {
    return frontier_float(a, run);
}

}  // namespace pmcount::exact
