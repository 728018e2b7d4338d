// Opt-in adapter from Boost.Graph: the perfect matchings of an undirected Boost graph (bipartite
// or not) and the cycle covers of a directed one. Header-only; the rest of pmcount never includes
// Boost, so only code that includes this header depends on Boost.Graph.
//
// Vertices are identified by the graph's vertex_index map (get(boost::vertex_index, g)), which
// must be a bijection onto [0, num_vertices(g)): adjacency_list with vecS vertex storage has one
// built in; listS or setS storage needs a property<vertex_index_t, int> that the caller fills
// before converting. Every conversion checks the map first (InvalidArgument otherwise), since the
// arrays below are indexed by it.
//
// The overloads of count_perfect_matchings and count_cycle_covers here are templates enabled only
// for types that have a vertices(g) function (found by argument-dependent lookup) and are not
// pmcount's own BipartiteGraph or Digraph, so they never take a call meant for the native entry
// points. Conversion costs O(V + E) time and memory; the count itself is what dominates.
#pragma once

#include <boost/graph/bipartite.hpp>
#include <boost/graph/graph_traits.hpp>
#include <boost/graph/properties.hpp>
#include <boost/property_map/property_map.hpp>
#include <cstdint>
#include <iterator>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "pmcount/count.hpp"
#include "pmcount/error.hpp"
#include "pmcount/graph.hpp"
#include "pmcount/types.hpp"

namespace pmcount {

/// A BipartiteGraph made from a Boost graph, with the Boost vertex behind each id.
struct ConvertedBipartiteGraph {
    BipartiteGraph graph;
    /// left_vertex_index[i] is the vertex_index (in the Boost graph) of left vertex i. Ids follow
    /// the order of vertices(g), which need not be the order of the indices (listS storage).
    std::vector<vertex_t> left_vertex_index;
    /// right_vertex_index[j] is the vertex_index of right vertex j.
    std::vector<vertex_t> right_vertex_index;
};

namespace detail {

template <class G>
using IsPmcountGraph = std::disjunction<std::is_same<G, BipartiteGraph>, std::is_same<G, Digraph>,
                                        std::is_same<G, UndirectedGraph>>;

template <class G, class = void>
struct HasBoostVertices : std::false_type {};
template <class G>
struct HasBoostVertices<G, std::void_t<decltype(vertices(std::declval<const G&>()))>>
    : std::true_type {};

/// Enables an overload for Boost graphs. std::conjunction stops at pmcount's own graph types, so
/// the vertices(g) test is never even tried on them.
template <class G>
using EnableIfBoostGraph =
    std::enable_if_t<std::conjunction_v<std::negation<IsPmcountGraph<G>>, HasBoostVertices<G>>,
                     int>;

/// Keeps f(g, options) from deducing the partition map as CountOptions, which would make it
/// ambiguous with f(g, options) of the automatic colouring.
template <class Map>
using EnableIfPartitionMap = std::enable_if_t<!std::is_same_v<Map, CountOptions>, int>;

/// Checks that `index` maps the vertices of g one-to-one onto [0, n) with n fitting vertex_t, and
/// returns n. O(V).
template <class G, class IndexMap>
vertex_t checked_vertex_count(const G& g, const IndexMap& index) {
    using boost::get;
    const auto count = num_vertices(g);
    if (static_cast<std::uint64_t>(count) >
        static_cast<std::uint64_t>(std::numeric_limits<vertex_t>::max())) {
        throw InvalidArgument("the Boost graph has " + std::to_string(count) +
                              " vertices, more than pmcount's 32-bit vertex ids can number");
    }
    const auto n = static_cast<vertex_t>(count);
    std::vector<char> seen(static_cast<std::size_t>(n), 0);
    for (auto [it, end] = vertices(g); it != end; ++it) {
        const auto i = static_cast<std::int64_t>(get(index, *it));
        if (i < 0 || i >= n || seen[static_cast<std::size_t>(i)] != 0) {
            throw InvalidArgument(
                "the Boost graph's vertex_index map is not one-to-one onto [0, " +
                std::to_string(n) + "): index " + std::to_string(i) +
                (i < 0 || i >= n ? " is out of range" : " is used twice") +
                " (listS/setS vertex storage needs the caller to fill the vertex_index property)");
        }
        seen[static_cast<std::size_t>(i)] = 1;
    }
    return n;
}

template <class IndexMap, class Vertex>
vertex_t index_of(const IndexMap& index, const Vertex& v) {
    using boost::get;
    return static_cast<vertex_t>(get(index, v));
}

/// The bipartite graph of g with the sides given by is_right(v). Each vertex gets the next id of
/// its side in the order of vertices(g). An undirected edge is taken from its left endpoint's
/// out-edges only (it is listed at both ends); every arc of a directed graph is taken, so
/// opposite arcs become one edge, which BipartiteGraph merges and counts. O(V + E).
template <class G, class IndexMap, class IsRight>
ConvertedBipartiteGraph bipartite_from_sides(const G& g, const IndexMap& index, IsRight is_right) {
    const vertex_t n = checked_vertex_count(g, index);
    ConvertedBipartiteGraph out;
    std::vector<char> right(static_cast<std::size_t>(n), 0);
    std::vector<vertex_t> side_id(static_cast<std::size_t>(n), 0);  // id within its side
    for (auto [it, end] = vertices(g); it != end; ++it) {
        const auto i = static_cast<std::size_t>(index_of(index, *it));
        right[i] = is_right(*it) ? 1 : 0;
        std::vector<vertex_t>& ids = right[i] != 0 ? out.right_vertex_index : out.left_vertex_index;
        side_id[i] = static_cast<vertex_t>(ids.size());
        ids.push_back(static_cast<vertex_t>(i));
    }

    constexpr bool directed = boost::is_directed_graph<G>::value;
    std::vector<BipartiteGraph::Edge> edges;
    for (auto [vit, vend] = vertices(g); vit != vend; ++vit) {
        const vertex_t a = index_of(index, *vit);
        const bool a_right = right[static_cast<std::size_t>(a)] != 0;
        for (auto [eit, eend] = out_edges(*vit, g); eit != eend; ++eit) {
            const vertex_t b = index_of(index, target(*eit, g));
            if ((right[static_cast<std::size_t>(b)] != 0) == a_right) {
                throw InvalidArgument(
                    "the partition is not a bipartition: the edge between "
                    "vertices " +
                    std::to_string(a) + " and " + std::to_string(b) + " joins two " +
                    (a_right ? "right" : "left") + " vertices");
            }
            if (!directed && a_right) {
                continue;
            }
            const vertex_t left_id = side_id[static_cast<std::size_t>(a_right ? b : a)];
            const vertex_t right_id = side_id[static_cast<std::size_t>(a_right ? a : b)];
            edges.emplace_back(left_id, right_id);
        }
    }
    out.graph =
        BipartiteGraph(static_cast<vertex_t>(out.left_vertex_index.size()),
                       static_cast<vertex_t>(out.right_vertex_index.size()), std::move(edges));
    return out;
}

}  // namespace detail

/// The bipartite graph of a Boost graph with a given partition.
///
/// Accepts any Boost.Graph VertexListGraph + IncidenceGraph with a vertex_index map (see the top
/// of this file), undirected or directed; arcs of a directed or bidirectional graph are read as
/// undirected edges. `side` is a readable property map from vertex to bool or an integer:
/// false / 0 puts the vertex on the left, true / nonzero on the right. Left and right vertices are
/// numbered separately in the order of vertices(g); the result says which vertex_index each id
/// came from. Parallel edges (and a pair of opposite arcs) become one edge, counted in
/// graph.duplicates_merged(): a multigraph is counted as its simple graph.
///
/// Throws InvalidArgument when an edge joins two vertices of the same side (naming their
/// vertex indices; a self-loop always does), or when the vertex_index map is not one-to-one onto
/// [0, num_vertices(g)).
template <class G, class PartitionMap, detail::EnableIfBoostGraph<G> = 0,
          detail::EnableIfPartitionMap<PartitionMap> = 0>
ConvertedBipartiteGraph to_bipartite_graph(const G& g, PartitionMap side) {
    return detail::bipartite_from_sides(g, get(boost::vertex_index, g), [&side](const auto& v) {
        using boost::get;
        return static_cast<bool>(get(side, v));
    });
}

/// The bipartite graph of an undirected Boost graph, 2-coloured automatically.
///
/// Colours with boost::find_odd_cycle, which fills the colour map as boost::is_bipartite does and
/// also returns an odd cycle when there is one, so a single O(V + E) depth-first search does both.
/// In each connected component the first vertex in the order of vertices(g), and every vertex at
/// even distance from it, is on the left (an isolated vertex is therefore a left vertex).
/// Numbering, vertex_index requirements and merging are as for to_bipartite_graph(g, side).
///
/// Directed graphs are refused at compile time: depth-first search on them does not check cross
/// edges, so the colouring could be wrong. Pass a partition map for those.
///
/// Throws NotBipartite (file "<boost graph>", line 0) with an odd cycle as vertex indices when
/// the graph has one (a self-loop is a cycle of length 1), and InvalidArgument for a bad
/// vertex_index map.
template <class G, detail::EnableIfBoostGraph<G> = 0>
ConvertedBipartiteGraph to_bipartite_graph(const G& g) {
    static_assert(boost::is_undirected_graph<G>::value,
                  "pmcount::to_bipartite_graph(g) colours undirected graphs only; pass a "
                  "partition map for a directed or bidirectional graph");
    const auto index = get(boost::vertex_index, g);
    const vertex_t n = detail::checked_vertex_count(g, index);
    std::vector<boost::default_color_type> colour(
        static_cast<std::size_t>(n), boost::color_traits<boost::default_color_type>::white());
    std::vector<typename boost::graph_traits<G>::vertex_descriptor> cycle;
    boost::find_odd_cycle(g, index, boost::make_iterator_property_map(colour.begin(), index),
                          std::back_inserter(cycle));
    if (!cycle.empty()) {
        std::vector<std::int64_t> cycle_indices;
        cycle_indices.reserve(cycle.size());
        for (const auto& v : cycle) {
            cycle_indices.push_back(detail::index_of(index, v));
        }
        throw NotBipartite("<boost graph>", 0, std::move(cycle_indices));
    }
    return detail::bipartite_from_sides(g, index, [&colour, &index](const auto& v) {
        return colour[static_cast<std::size_t>(detail::index_of(index, v))] ==
               boost::color_traits<boost::default_color_type>::black();
    });
}

/// Number of perfect matchings of a Boost graph with a given partition: to_bipartite_graph(g,
/// side) counted by the native overload (exact). Throws what to_bipartite_graph(g, side) throws.
template <class G, class PartitionMap, detail::EnableIfBoostGraph<G> = 0,
          detail::EnableIfPartitionMap<PartitionMap> = 0>
CountResult count_perfect_matchings(const G& g, PartitionMap side,
                                    const CountOptions& options = {}) {
    return pmcount::count_perfect_matchings(to_bipartite_graph(g, side).graph, options);
}

/// The UndirectedGraph of an undirected Boost graph: vertex v becomes vertex_index(v); parallel
/// edges become one (duplicates_merged()). Throws InvalidArgument for a self-loop (no perfect
/// matching can use one) or a bad vertex_index map.
template <class G, detail::EnableIfBoostGraph<G> = 0>
UndirectedGraph to_undirected_graph(const G& g) {
    static_assert(boost::is_undirected_graph<G>::value,
                  "pmcount::to_undirected_graph needs an undirected Boost graph");
    const auto index = get(boost::vertex_index, g);
    const vertex_t n = detail::checked_vertex_count(g, index);
    std::vector<UndirectedGraph::Edge> edges;
    for (auto [vit, vend] = vertices(g); vit != vend; ++vit) {
        const vertex_t u = detail::index_of(index, *vit);
        for (auto [eit, eend] = out_edges(*vit, g); eit != eend; ++eit) {
            const vertex_t v = detail::index_of(index, target(*eit, g));
            if (u <= v) {  // an undirected edge is an out-edge of both ends: take it once
                edges.emplace_back(u, v);
            }
        }
    }
    return UndirectedGraph(n, std::move(edges));
}

/// Number of perfect matchings of an undirected Boost graph, bipartite or not (exact):
/// to_undirected_graph(g) counted by the native overload, which sends the bipartite pieces to the
/// bipartite engines and the rest to the general-graph engines. Throws what to_undirected_graph
/// throws.
template <class G, detail::EnableIfBoostGraph<G> = 0>
CountResult count_perfect_matchings(const G& g, const CountOptions& options = {}) {
    return pmcount::count_perfect_matchings(to_undirected_graph(g), options);
}

/// The Digraph of a directed or bidirectional Boost graph: vertex v becomes vertex_index(v), and
/// every out-edge u→v becomes the arc vertex_index(u)→vertex_index(v). Self-loops are kept (fixed
/// points of a cycle cover); parallel arcs become one, counted in duplicates_merged(). Undirected
/// graphs are refused at compile time, since which orientation is meant is not ours to guess.
/// Throws InvalidArgument for a bad vertex_index map.
template <class G, detail::EnableIfBoostGraph<G> = 0>
Digraph to_digraph(const G& g) {
    static_assert(boost::is_directed_graph<G>::value,
                  "pmcount::to_digraph needs a directed or bidirectional Boost graph");
    const auto index = get(boost::vertex_index, g);
    const vertex_t n = detail::checked_vertex_count(g, index);
    std::vector<Digraph::Arc> arcs;
    for (auto [vit, vend] = vertices(g); vit != vend; ++vit) {
        const vertex_t tail = detail::index_of(index, *vit);
        for (auto [eit, eend] = out_edges(*vit, g); eit != eend; ++eit) {
            arcs.emplace_back(tail, detail::index_of(index, target(*eit, g)));
        }
    }
    return Digraph(n, std::move(arcs));
}

/// Number of cycle covers of a directed Boost graph: to_digraph(g) counted by the native overload
/// (exact). Throws what to_digraph throws.
template <class G, detail::EnableIfBoostGraph<G> = 0>
CountResult count_cycle_covers(const G& g, const CountOptions& options = {}) {
    return pmcount::count_cycle_covers(to_digraph(g), options);
}

}  // namespace pmcount
