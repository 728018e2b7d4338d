// Minimum degree pairing order for the sparse Pfaffian (see sparse_pfaffian.hpp).
#include "numeric/sparse_pfaffian.hpp"

#include <algorithm>
#include <string>
#include <utility>

#include "numeric/minimum_degree.hpp"
#include "pmcount/error.hpp"

namespace pmcount::numeric {

PairingOrder minimum_degree_pairing(const UndirectedGraph& pattern,
                                    const std::vector<vertex_t>& mate) {
    // One node per matched pair, named by its smaller vertex; the quotient graph joins two nodes
    // when the pattern joins their pairs.
    const auto n = static_cast<std::size_t>(pattern.num_vertices());
    std::vector<vertex_t> node(n, -1);
    std::vector<vertex_t> smaller;
    smaller.reserve(n / 2);
    for (vertex_t v = 0; v < pattern.num_vertices(); ++v) {
        const vertex_t w = mate[static_cast<std::size_t>(v)];
        if (v < w) {
            node[static_cast<std::size_t>(v)] = static_cast<vertex_t>(smaller.size());
            node[static_cast<std::size_t>(w)] = static_cast<vertex_t>(smaller.size());
            smaller.push_back(v);
        }
    }
    std::vector<std::pair<vertex_t, vertex_t>> quotient;
    quotient.reserve(static_cast<std::size_t>(pattern.num_edges()));
    for (const auto& [u, v] : pattern.edges()) {
        quotient.emplace_back(node[static_cast<std::size_t>(u)], node[static_cast<std::size_t>(v)]);
    }
    PairingOrder order;
    order.partner = mate;
    order.vertices.reserve(n);
    for (const vertex_t p :
         minimum_degree_ordering(static_cast<vertex_t>(smaller.size()), std::move(quotient))) {
        const vertex_t v = smaller[static_cast<std::size_t>(p)];
        order.vertices.push_back(v);
        order.vertices.push_back(mate[static_cast<std::size_t>(v)]);
    }
    return order;
}

PfaffianSchedule make_schedule(const PairingRecord& record,
                               const std::vector<std::pair<vertex_t, vertex_t>>& entries) {
    PfaffianSchedule schedule;
    const std::size_t n = record.pairs.size();
    schedule.pairs = record.pairs;
    schedule.rank.assign(n, -1);
    for (std::size_t r = 0; r < n; ++r) {
        schedule.rank[static_cast<std::size_t>(record.pairs[r])] = static_cast<vertex_t>(r);
    }
    schedule.front_offsets = record.front_offsets;
    schedule.fronts = record.fronts;
    const auto by_rank = [&schedule](vertex_t a, vertex_t b) {
        return schedule.rank[static_cast<std::size_t>(a)] <
               schedule.rank[static_cast<std::size_t>(b)];
    };
    schedule.row_offsets.assign(n + 1, 0);
    for (std::size_t s = 0; 2 * s < n; ++s) {
        const auto first = schedule.fronts.begin() + schedule.front_offsets[s];
        const auto last = schedule.fronts.begin() + schedule.front_offsets[s + 1];
        std::sort(first, last, by_rank);
        const edge_t size = schedule.front_offsets[s + 1] - schedule.front_offsets[s];
        schedule.row_offsets[2 * s + 1] = schedule.row_offsets[2 * s] + 1 + size;
        schedule.row_offsets[2 * s + 2] = schedule.row_offsets[2 * s + 1] + size;
    }
    schedule.sign = permutation_sign(record.pairs);
    schedule.entry_slot.resize(entries.size());
    schedule.entry_negated.resize(entries.size());
    for (std::size_t e = 0; e < entries.size(); ++e) {
        const auto [u, v] = entries[e];
        const bool swapped = by_rank(v, u);
        const vertex_t a = swapped ? v : u;
        const vertex_t b = swapped ? u : v;
        const auto r = static_cast<std::size_t>(schedule.rank[static_cast<std::size_t>(a)]);
        edge_t slot = schedule.row_offsets[r];
        if (r % 2 == 0 && schedule.pairs[r + 1] == b) {
            schedule.entry_slot[e] = slot;
        } else {
            const auto first = schedule.fronts.begin() + schedule.front_offsets[r / 2];
            const auto last = schedule.fronts.begin() + schedule.front_offsets[r / 2 + 1];
            const auto it = std::lower_bound(first, last, b, by_rank);
            if (it == last || *it != b) {
                throw InternalError("make_schedule: entry (" + std::to_string(u) + ", " +
                                    std::to_string(v) + ") lies outside the recorded fill");
            }
            schedule.entry_slot[e] = slot + (r % 2 == 0 ? 1 : 0) + (it - first);
        }
        schedule.entry_negated[e] = swapped ? 1 : 0;
    }
    return schedule;
}

}  // namespace pmcount::numeric
