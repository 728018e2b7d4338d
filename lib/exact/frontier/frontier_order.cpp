// The frontier engine's vertex orders and step plans (frontier_order.hpp): Cuthill–McKee and its
// reverse (Boost.Graph), the index order and greedy orders, each measured for its width and
// state bound; the narrowest is planned step by step.
#include "exact/frontier/frontier_order.hpp"

#include <algorithm>
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/cuthill_mckee_ordering.hpp>
#include <cmath>
#include <complex>
#include <limits>
#include <set>
#include <string>
#include <tuple>
#include <utility>

#include "core/stop.hpp"
#include "pmcount/error.hpp"

namespace pmcount::exact {

namespace frontier {

namespace {

// ---- (1) adjacency
// ---------------------------------------------------------------------------------

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

/// A symmetric matrix's graph: vertex x is row and column x; the edge {x, y} carries the
/// entry of the upper triangle (min(x, y), max(x, y)), its position in the CSR arrays.
template <class T>
Adjacency make_general_adjacency(const SparseMatrix<T>& a) {
    const vertex_t n = a.rows();
    const auto& offsets = a.row_offsets();
    const auto& cols = a.col_indices();
    Adjacency adj;
    adj.n_left = n;
    adj.general = true;
    std::vector<edge_t> degree(static_cast<std::size_t>(n), 0);
    const auto nonzero = [&](edge_t e) { return a.values()[static_cast<std::size_t>(e)] != T{}; };
    for (vertex_t r = 0; r < n; ++r) {
        for (edge_t e = offsets[static_cast<std::size_t>(r)];
             e < offsets[static_cast<std::size_t>(r) + 1]; ++e) {
            if (cols[static_cast<std::size_t>(e)] > r && nonzero(e)) {
                ++degree[static_cast<std::size_t>(r)];
                ++degree[static_cast<std::size_t>(cols[static_cast<std::size_t>(e)])];
            }
        }
    }
    adj.offsets.assign(static_cast<std::size_t>(n) + 1, 0);
    for (std::size_t x = 0; x < static_cast<std::size_t>(n); ++x) {
        adj.offsets[x + 1] = adj.offsets[x] + degree[x];
    }
    adj.neighbours.resize(static_cast<std::size_t>(adj.offsets.back()));
    adj.entry.resize(adj.neighbours.size());
    std::vector<edge_t> fill(adj.offsets.begin(), adj.offsets.end() - 1);
    for (vertex_t r = 0; r < n; ++r) {
        for (edge_t e = offsets[static_cast<std::size_t>(r)];
             e < offsets[static_cast<std::size_t>(r) + 1]; ++e) {
            const vertex_t c = cols[static_cast<std::size_t>(e)];
            if (c <= r || !nonzero(e)) {
                continue;
            }
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

/// What an interrupted order search was doing (pmcount::detail::throw_if_stopped: per candidate,
/// and every 65536 vertices of the greedy orders).
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
        // A bipartite graph's processed rows less columns fix the state's balance; a general
        // graph's processed count fixes only its parity (each vertex pairs inside or into S).
        const double states =
            adj.general ? std::ldexp(1.0, std::max(0, frontier - 1)) : central_binomial(frontier);
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
    const std::vector<std::size_t> cm =
        total < kInterruptibleFrom ? cuthill_mckee()
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
            greedy.order = greedy_order(
                adj, start, start == forward.order.front() ? forward.order : reverse.order,
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

}  // namespace

// ---- (3) step plan
// --------------------------------------------------------------------------------

namespace {

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

/// The narrowest order of `adj` (or `given`, found before on the same graph) and its step plan;
/// ProblemTooLarge beyond the engine's width.
Prepared planned(Adjacency adj, const FrontierOrder* given = nullptr) {
    Prepared p;
    p.adj = std::move(adj);
    p.order = given != nullptr ? *given : best_order(p.adj, std::numeric_limits<int>::max());
    if (p.order.width > kMaxFrontierWidth || p.order.slots > 63) {
        throw ProblemTooLarge("frontier: the narrowest vertex order found has width " +
                              std::to_string(p.order.width) + ", beyond the engine's limit of " +
                              std::to_string(kMaxFrontierWidth) + "; use another engine");
    }
    p.plan = plan_steps(p.adj, p.order.order, p.order.slots);
    return p;
}

template <class T>
void require_square(const SparseMatrix<T>& a) {
    if (!a.is_square()) {
        throw DimensionMismatch("frontier needs a square matrix, got " + std::to_string(a.rows()) +
                                "×" + std::to_string(a.cols()));
    }
}

}  // namespace

template <class T>
Prepared prepare(const SparseMatrix<T>& a) {
    require_square(a);
    return planned(
        make_adjacency(a.rows(), a.cols(), a.row_offsets(), a.col_indices(),
                       [&a](edge_t e) { return a.values()[static_cast<std::size_t>(e)] != T{}; }));
}

template Prepared prepare(const SparseMatrix<std::int64_t>&);
template Prepared prepare(const SparseMatrix<double>&);
template Prepared prepare(const SparseMatrix<std::complex<double>>&);

template <class T>
Prepared prepare_hafnian(const SparseMatrix<T>& a) {
    require_square(a);
    return planned(make_general_adjacency(a));
}

template Prepared prepare_hafnian(const SparseMatrix<std::int64_t>&);

Prepared prepare_hafnian(const SparseMatrix<std::int64_t>& a, const FrontierOrder& order) {
    require_square(a);
    return planned(make_general_adjacency(a), &order);
}
template Prepared prepare_hafnian(const SparseMatrix<double>&);
template Prepared prepare_hafnian(const SparseMatrix<std::complex<double>>&);

}  // namespace frontier

FrontierOrder frontier_order(const UndirectedGraph& graph, int width_cap) {
    std::vector<Triplet<std::int64_t>> entries;
    for (const auto& [u, v] : graph.edges()) {
        entries.push_back({u, v, 1});
        entries.push_back({v, u, 1});
    }
    const SparseMatrix<std::int64_t> a(graph.num_vertices(), graph.num_vertices(),
                                       std::move(entries));
    return frontier::best_order(frontier::make_general_adjacency(a), width_cap);
}

FrontierOrder frontier_order(const BipartiteGraph& graph, int width_cap) {
    return frontier::best_order(
        frontier::make_adjacency(graph.n_left(), graph.n_right(), graph.left_offsets(),
                                 graph.left_adjacency(), [](edge_t) { return true; }),
        width_cap);
}

}  // namespace pmcount::exact
