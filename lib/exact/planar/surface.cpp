// Kasteleyn orientations on surfaces and their signs (see surface.hpp).
//
// Phases: (1) the rotation system checked against the graph, as edge ids per vertex; (2) faces
// as orbits of darts (arrive at v from u, leave to the neighbour after u in v's rotation), a
// spanning forest (its trees are the components) and each component's genus by Euler's formula;
// (3) the dual forest over the forest's complement (plane_embedding.hpp), the leftover edges in
// neither; (4) per choice of the leftover
// edges' orientations, the faces fixed leaves first (orient_faces), then q along each leftover
// edge's fundamental cycle and the sign (−1)^Arf.
// Workspaces: the rotations as edge ids and each dart's place in its head's rotation (2E), face
// walks (2E darts), the forests (V + E + F), tree parents and depths (2V), per orientation E.
#include "exact/planar/surface.hpp"

#include <algorithm>
#include <numeric>
#include <optional>
#include <set>
#include <string>

#include "exact/planar/plane_embedding.hpp"
#include "pmcount/error.hpp"

namespace pmcount::exact {

namespace {

using Ends = std::vector<std::pair<vertex_t, vertex_t>>;

int edge_id(const Ends& ends, vertex_t a, vertex_t b) {
    const std::pair<vertex_t, vertex_t> key{std::min(a, b), std::max(a, b)};
    const auto it = std::lower_bound(ends.begin(), ends.end(), key);
    return it != ends.end() && *it == key ? static_cast<int>(it - ends.begin()) : -1;
}

vertex_t other_end(const Ends& ends, int e, vertex_t v) {
    const auto& [a, b] = ends[static_cast<std::size_t>(e)];
    return a == v ? b : a;
}

/// A spanning forest's vertices (edges in_tree) by breadth-first search from the lowest vertex of
/// each tree: parent edges, depths, and the tree (the graph's connected component) of each.
struct RootedForest {
    std::vector<int> parent_edge;  ///< −1 at a root
    std::vector<int> depth;
    std::vector<int> component;
    int components = 0;
};

RootedForest rooted(const PlaneEmbedding& plane, const std::vector<char>& in_tree) {
    RootedForest f;
    f.parent_edge.assign(static_cast<std::size_t>(plane.n), -1);
    f.depth.assign(static_cast<std::size_t>(plane.n), -1);
    f.component.assign(static_cast<std::size_t>(plane.n), -1);
    std::vector<vertex_t> queue;
    for (vertex_t r = 0; r < plane.n; ++r) {
        if (f.depth[static_cast<std::size_t>(r)] >= 0) {
            continue;
        }
        f.depth[static_cast<std::size_t>(r)] = 0;
        queue.assign(1, r);
        for (std::size_t head = 0; head < queue.size(); ++head) {
            const vertex_t v = queue[head];
            f.component[static_cast<std::size_t>(v)] = f.components;
            for (const int e : plane.rotation[static_cast<std::size_t>(v)]) {
                const vertex_t w = other_end(plane.ends, e, v);
                if (in_tree[static_cast<std::size_t>(e)] != 0 &&
                    f.depth[static_cast<std::size_t>(w)] < 0) {
                    f.depth[static_cast<std::size_t>(w)] = f.depth[static_cast<std::size_t>(v)] + 1;
                    f.parent_edge[static_cast<std::size_t>(w)] = e;
                    queue.push_back(w);
                }
            }
        }
        ++f.components;
    }
    return f;
}

/// The embedding as edge ids, its faces, a spanning forest and the genus of each component.
struct Surface {
    PlaneEmbedding plane;
    std::vector<int> slot;  ///< of dart 2e (u → v) and 2e + 1 (v → u): place in its head's rotation
    std::vector<std::vector<Dart>> faces;
    std::vector<char> in_tree;  ///< spanning_forest's edges
    RootedForest forest;
    std::vector<int> genus;  ///< per component (forest.component)
};

[[noreturn]] void misfit(vertex_t v, const std::string& problem) {
    throw InvalidArgument("the embedding does not fit the graph: vertex " + std::to_string(v) +
                          " " + problem);
}

Surface surface_of(const UndirectedGraph& graph, const Embedding& embedding) {
    const vertex_t n = graph.num_vertices();
    if (embedding.rotation.size() != static_cast<std::size_t>(n)) {
        throw InvalidArgument("the embedding has " + std::to_string(embedding.rotation.size()) +
                              " vertices and the graph " + std::to_string(n));
    }
    // (1) Rotations as edge ids; each edge of the graph must appear at both ends.
    Surface s;
    s.plane.n = n;
    s.plane.ends = graph.edges();
    const Ends& ends = s.plane.ends;
    s.plane.rotation.resize(static_cast<std::size_t>(n));
    s.slot.assign(2 * ends.size(), -1);
    std::vector<char> seen(static_cast<std::size_t>(n), 0);
    for (vertex_t v = 0; v < n; ++v) {
        std::vector<int>& around = s.plane.rotation[static_cast<std::size_t>(v)];
        for (const vertex_t w : embedding.rotation[static_cast<std::size_t>(v)]) {
            if (w < 0 || w >= n) {
                misfit(v, "has the neighbour " + std::to_string(w) + ", out of range");
            }
            if (w == v || seen[static_cast<std::size_t>(w)] != 0) {
                misfit(v, "lists " + std::to_string(w) +
                              (w == v ? " (itself) as a neighbour" : " twice in its rotation"));
            }
            seen[static_cast<std::size_t>(w)] = 1;
            const int e = edge_id(ends, v, w);
            if (e >= 0) {  // a rotation's non-edge is a zero entry: dropped
                // The dart arriving at v along e: from w to v.
                const bool arrives_forward = ends[static_cast<std::size_t>(e)].second == v;
                s.slot[2 * static_cast<std::size_t>(e) + (arrives_forward ? 0 : 1)] =
                    static_cast<int>(around.size());
                around.push_back(e);
            }
        }
        for (const vertex_t w : embedding.rotation[static_cast<std::size_t>(v)]) {
            if (w >= 0 && w < n) {
                seen[static_cast<std::size_t>(w)] = 0;
            }
        }
        if (around.size() != static_cast<std::size_t>(graph.degree(v))) {
            for (const vertex_t w : graph.neighbours(v)) {
                const auto& r = embedding.rotation[static_cast<std::size_t>(v)];
                if (std::find(r.begin(), r.end(), w) == r.end()) {
                    misfit(v, "has the edge to " + std::to_string(w) +
                                  " in the graph but not in its rotation");
                }
            }
        }
    }
    // (2) Faces: the dart after (u → v) leaves v along the edge after e in v's rotation.
    std::vector<char> walked(2 * ends.size(), 0);
    for (std::size_t start = 0; start < walked.size(); ++start) {
        if (walked[start] != 0) {
            continue;
        }
        std::vector<Dart> face;
        for (std::size_t d = start; walked[d] == 0;) {
            walked[d] = 1;
            const int e = static_cast<int>(d / 2);
            const bool forward = d % 2 == 0;
            face.push_back({e, forward});
            const vertex_t head = forward ? ends[d / 2].second : ends[d / 2].first;
            const auto& around = s.plane.rotation[static_cast<std::size_t>(head)];
            const int next = around[static_cast<std::size_t>(s.slot[d] + 1) % around.size()];
            d = 2 * static_cast<std::size_t>(next) +
                (ends[static_cast<std::size_t>(next)].first == head ? 0 : 1);
        }
        s.faces.push_back(std::move(face));
    }
    // Components (the forest's trees) and V − E + F = 2 − 2g for each that has an edge.
    s.in_tree = spanning_forest(n, ends);
    s.forest = rooted(s.plane, s.in_tree);
    const std::vector<int>& component = s.forest.component;
    std::vector<std::int64_t> euler(static_cast<std::size_t>(s.forest.components), 0);
    for (vertex_t v = 0; v < n; ++v) {
        euler[static_cast<std::size_t>(component[static_cast<std::size_t>(v)])] += 1;
    }
    for (const auto& [a, b] : ends) {
        euler[static_cast<std::size_t>(component[static_cast<std::size_t>(a)])] -= 1;
    }
    for (const auto& face : s.faces) {
        const vertex_t tail = ends[static_cast<std::size_t>(face.front().edge)].first;
        euler[static_cast<std::size_t>(component[static_cast<std::size_t>(tail)])] += 1;
    }
    for (std::size_t c = 0; c < euler.size(); ++c) {
        // An isolated vertex has no face walk but is a sphere: V − E + F = 1 − 0 + 1.
        const std::int64_t x = euler[c] == 1 ? 2 : euler[c];
        s.genus.push_back(static_cast<int>((2 - x) / 2));
    }
    return s;
}

/// The fundamental cycle of the non-tree edge e = (a, b) as a closed vertex sequence: a, up the
/// tree to the common ancestor, down to b (then e closes it).
std::vector<vertex_t> fundamental_cycle(const PlaneEmbedding& plane, const RootedForest& forest,
                                        int e) {
    vertex_t a = plane.ends[static_cast<std::size_t>(e)].first;
    vertex_t b = plane.ends[static_cast<std::size_t>(e)].second;
    std::vector<vertex_t> up{a}, down{b};
    const auto climb = [&](vertex_t v) {
        return other_end(plane.ends, forest.parent_edge[static_cast<std::size_t>(v)], v);
    };
    while (a != b) {
        if (forest.depth[static_cast<std::size_t>(a)] >=
            forest.depth[static_cast<std::size_t>(b)]) {
            a = climb(a);
            up.push_back(a);
        } else {
            b = climb(b);
            down.push_back(b);
        }
    }
    down.pop_back();  // the common ancestor is the last of `up`
    up.insert(up.end(), down.rbegin(), down.rend());
    return up;
}

/// The place in v's rotation of the edge to x (an edge of the graph).
int rotation_place(const Surface& s, vertex_t v, vertex_t x) {
    const auto& around = s.plane.rotation[static_cast<std::size_t>(v)];
    const int e = edge_id(s.plane.ends, v, x);
    return static_cast<int>(std::find(around.begin(), around.end(), e) - around.begin());
}

/// Whether x lies on the left of the cycle at v, reached from u and left towards w: strictly
/// after u and before w in v's rotation (x a neighbour of v other than u and w).
bool on_the_left(const Surface& s, vertex_t u, vertex_t v, vertex_t w, vertex_t x) {
    const int d = static_cast<int>(s.plane.rotation[static_cast<std::size_t>(v)].size());
    const int from = rotation_place(s, v, u);
    return (rotation_place(s, v, x) - from + d) % d < (rotation_place(s, v, w) - from + d) % d;
}

/// q(C) mod 2 for the cycle `cycle` (closed vertex sequence) under `orientation` and M₀ = mate.
int quadratic_form(const Surface& s, const std::vector<std::int8_t>& orientation,
                   const std::vector<vertex_t>& mate, const std::vector<vertex_t>& cycle) {
    const Ends& ends = s.plane.ends;
    const std::size_t k = cycle.size();
    int q = 1;
    for (std::size_t j = 0; j < k; ++j) {
        const vertex_t u = cycle[(j + k - 1) % k], v = cycle[j], w = cycle[(j + 1) % k];
        const int out = edge_id(ends, v, w);
        q += (orientation[static_cast<std::size_t>(out)] > 0) ==
                     (ends[static_cast<std::size_t>(out)].first == v)
                 ? 1
                 : 0;
        const vertex_t partner = mate[static_cast<std::size_t>(v)];
        if (partner != u && partner != w) {
            q += on_the_left(s, u, v, w, partner) ? 1 : 0;
        }
    }
    return q % 2;
}

/// The intersection number modulo 2 of the simple cycles c and d (closed vertex sequences): d
/// pushed off to its left runs beside it, crossing at each vertex v of d the edges that leave v
/// on the left and no edge of d, so it crosses c once per edge of c among those. (Where c meets
/// d along a path, that counts whether c arrives and departs on opposite sides.) O(|c| + Σ deg).
int intersection(const Surface& s, const std::vector<vertex_t>& c, const std::vector<vertex_t>& d) {
    std::set<std::pair<vertex_t, vertex_t>> on_c;
    for (std::size_t j = 0; j < c.size(); ++j) {
        const vertex_t a = c[j], b = c[(j + 1) % c.size()];
        on_c.emplace(std::min(a, b), std::max(a, b));
    }
    const std::size_t k = d.size();
    int crossings = 0;
    for (std::size_t j = 0; j < k; ++j) {
        const vertex_t u = d[(j + k - 1) % k], v = d[j], w = d[(j + 1) % k];
        for (const int e : s.plane.rotation[static_cast<std::size_t>(v)]) {
            const vertex_t x = other_end(s.plane.ends, e, v);
            if (x != u && x != w && on_c.count({std::min(v, x), std::max(v, x)}) != 0 &&
                on_the_left(s, u, v, w, x)) {
                ++crossings;
            }
        }
    }
    return crossings % 2;
}

}  // namespace

SurfaceGenus surface_genus(const UndirectedGraph& graph, const Embedding& embedding) {
    const Surface s = surface_of(graph, embedding);
    return {std::accumulate(s.genus.begin(), s.genus.end(), 0),
            s.genus.empty() ? 0 : *std::max_element(s.genus.begin(), s.genus.end())};
}

namespace {

/// The surface with a basis of its homology: for each component of genus g, the fundamental
/// cycles of its 2g leftover edges (those in neither the spanning forest nor the dual forest),
/// consecutive in `cycles` (`blocks`: how many per component, in order), with their
/// intersection numbers modulo 2; `leftover` in the order of ids.
struct Homology {
    Surface s;
    DualForest dual;
    int genus = 0;
    std::vector<int> leftover;
    std::vector<std::vector<vertex_t>> cycles;
    std::vector<int> blocks;
    std::vector<std::vector<char>>
        meets;  ///< meets[i][j]: cycles i and j cross an odd number of times
};

Homology homology_of(const UndirectedGraph& graph, const Embedding& embedding) {
    Homology h;
    h.s = surface_of(graph, embedding);
    const Surface& s = h.s;
    for (std::size_t c = 0; c < s.genus.size(); ++c) {
        if (s.genus[c] > kMaxComponentGenus) {
            throw InvalidArgument(
                "the embedding puts a component of the graph on a surface of "
                "genus " +
                std::to_string(s.genus[c]) + "; at most " + std::to_string(kMaxComponentGenus) +
                " is supported");
        }
    }
    // (3) The dual forest; the leftover edges (2g per component of genus g) in the order of ids.
    h.dual = dual_forest(s.faces, s.in_tree);
    std::vector<char> fixed = s.in_tree;
    for (const int e : h.dual.parent_edge) {
        if (e >= 0) {
            fixed[static_cast<std::size_t>(e)] = 1;
        }
    }
    for (std::size_t e = 0; e < fixed.size(); ++e) {
        if (fixed[e] == 0) {
            h.leftover.push_back(static_cast<int>(e));
        }
    }
    h.genus = std::accumulate(s.genus.begin(), s.genus.end(), 0);
    if (h.leftover.size() != 2 * static_cast<std::size_t>(h.genus)) {
        throw InternalError("surface: " + std::to_string(h.leftover.size()) +
                            " edges outside the tree and cotree for genus " +
                            std::to_string(h.genus));
    }
    // The leftover edges of a component (ascending ids): their cycles are a basis of its H₁.
    std::vector<int> by_component = h.leftover;
    const auto component_of = [&](int e) {
        return s.forest
            .component[static_cast<std::size_t>(s.plane.ends[static_cast<std::size_t>(e)].first)];
    };
    std::stable_sort(by_component.begin(), by_component.end(),
                     [&](int x, int y) { return component_of(x) < component_of(y); });
    for (std::size_t j = 0; j < by_component.size(); ++j) {
        h.cycles.push_back(fundamental_cycle(s.plane, s.forest, by_component[j]));
        if (j == 0 || component_of(by_component[j]) != component_of(by_component[j - 1])) {
            h.blocks.push_back(0);
        }
        ++h.blocks.back();
    }
    const std::size_t m = h.cycles.size();
    h.meets.assign(m, std::vector<char>(m, 0));
    for (std::size_t i = 0, first = 0; i < h.blocks.size(); ++i) {
        const std::size_t end = first + static_cast<std::size_t>(h.blocks[i]);
        for (std::size_t a = first; a < end; ++a) {
            for (std::size_t b = a + 1; b < end; ++b) {
                h.meets[a][b] = h.meets[b][a] =
                    static_cast<char>(intersection(s, h.cycles[a], h.cycles[b]));
            }
        }
        first = end;
    }
    return h;
}

/// The quadratic form's values on the basis (one per cycle) and (−1)^Arf, Arf summed over the
/// components. A component's form on its 2^(2g) classes x = Σ c_i·x_i is
/// q(x) = Σ c_i·q(x_i) + Σ_{i<j} c_i·c_j·(x_i·x_j), and Arf(q) is the value q takes most often
/// (2^(2g−1) + 2^(g−1) times), which needs no symplectic basis. O(4^g·g²) per component.
struct FormValues {
    std::vector<char> q;
    int sign = 1;
};

FormValues form_values(const Homology& h, const std::vector<std::int8_t>& orientation,
                       const std::vector<vertex_t>& mate) {
    FormValues out;
    for (const auto& cycle : h.cycles) {
        out.q.push_back(static_cast<char>(quadratic_form(h.s, orientation, mate, cycle)));
    }
    for (std::size_t i = 0, first = 0; i < h.blocks.size(); ++i) {
        const std::size_t size = static_cast<std::size_t>(h.blocks[i]);
        std::size_t ones = 0;
        for (std::size_t c = 0; c < std::size_t{1} << size; ++c) {
            int q = 0;
            for (std::size_t a = 0; a < size; ++a) {
                if ((c >> a & 1) == 0) {
                    continue;
                }
                q += out.q[first + a];
                for (std::size_t b = a + 1; b < size; ++b) {
                    q += (c >> b & 1) != 0 ? h.meets[first + a][first + b] : 0;
                }
            }
            ones += static_cast<std::size_t>(q % 2);
        }
        out.sign *= 2 * ones > std::size_t{1} << size ? -1 : 1;
        first += size;
    }
    return out;
}

}  // namespace

SurfaceOrientations surface_orientations(const UndirectedGraph& graph, const Embedding& embedding,
                                         const std::vector<vertex_t>& mate) {
    const Homology h = homology_of(graph, embedding);
    SurfaceOrientations out;
    out.genus = h.genus;
    // (4) One orientation per choice of the leftover edges' directions.
    const std::size_t choices = std::size_t{1} << h.leftover.size();
    for (std::size_t choice = 0; choice < choices; ++choice) {
        std::vector<std::int8_t> orientation(h.s.plane.ends.size(), 1);
        for (std::size_t j = 0; j < h.leftover.size(); ++j) {
            orientation[static_cast<std::size_t>(h.leftover[j])] = (choice >> j & 1) != 0 ? -1 : 1;
        }
        orient_faces(h.s.faces, h.dual, orientation);
        out.signs.push_back(form_values(h, orientation, mate).sign);
        out.orientations.push_back(std::move(orientation));
    }
    return out;
}

std::optional<std::vector<int>> surface_signs(
    const UndirectedGraph& graph, const Embedding& embedding, const std::vector<vertex_t>& mate,
    const std::vector<std::vector<std::int8_t>>& orientations) {
    const Homology h = homology_of(graph, embedding);
    if (orientations.size() != std::size_t{1} << (2 * h.genus)) {
        return std::nullopt;
    }
    std::vector<int> signs;
    std::set<std::vector<char>> classes;
    for (const auto& orientation : orientations) {
        if (orientation.size() != h.s.plane.ends.size()) {
            return std::nullopt;
        }
        for (const auto& face : h.s.faces) {
            int along = 0;
            for (const Dart& d : face) {
                along += (orientation[static_cast<std::size_t>(d.edge)] > 0) == d.forward ? 1 : 0;
            }
            if (along % 2 == 0) {
                return std::nullopt;
            }
        }
        FormValues values = form_values(h, orientation, mate);
        signs.push_back(values.sign);
        classes.insert(std::move(values.q));
    }
    if (classes.size() != orientations.size()) {
        return std::nullopt;
    }
    return signs;
}

std::optional<std::vector<std::int8_t>> class_kasteleyn_orientation(
    const UndirectedGraph& graph, const Embedding& embedding, const std::vector<int>& edge_class,
    const std::vector<std::int8_t>& direction, int classes) {
    const Surface s = surface_of(graph, embedding);
    if (classes < 0 || classes > 63 || edge_class.size() != s.plane.ends.size() ||
        direction.size() != s.plane.ends.size()) {
        return std::nullopt;
    }
    // Bit c of a face's row: class c's darts along the face, modulo 2, when every class runs
    // its own way (o = +1); the top bit: the face's parity then, which must become odd. A dart
    // is along when its direction agrees with direction[e]·o[class]: flipping o[c] flips the
    // parity by the number of class c's darts in the face.
    const std::uint64_t rhs = std::uint64_t{1} << classes;
    std::set<std::uint64_t> rows;
    for (const auto& face : s.faces) {
        std::uint64_t row = 0;
        int along = 0;
        for (const Dart& d : face) {
            const auto e = static_cast<std::size_t>(d.edge);
            const int c = edge_class[e];
            if (c < 0 || c >= classes) {
                return std::nullopt;
            }
            row ^= std::uint64_t{1} << c;
            along += (direction[e] > 0) == d.forward ? 1 : 0;
        }
        rows.insert(along % 2 == 0 ? row | rhs : row);
    }
    // Gaussian elimination over GF(2): the set's rows reduced against a basis kept by pivot bit.
    std::vector<std::uint64_t> basis(static_cast<std::size_t>(classes), 0);
    for (std::uint64_t row : rows) {
        for (int c = 0; c < classes; ++c) {
            if ((row >> c & 1) == 0) {
                continue;
            }
            if (basis[static_cast<std::size_t>(c)] == 0) {
                basis[static_cast<std::size_t>(c)] = row;
                row = 0;
                break;
            }
            row ^= basis[static_cast<std::size_t>(c)];
        }
        if (row == rhs) {
            return std::nullopt;  // 0 = 1: no orientation of the classes makes this face odd
        }
    }
    // Back substitution, free classes 0 (+1): x_c = rhs bit ⊕ Σ x of the row's later bits.
    std::vector<int> flip(static_cast<std::size_t>(classes), 0);
    for (int c = classes - 1; c >= 0; --c) {
        const std::uint64_t row = basis[static_cast<std::size_t>(c)];
        if (row == 0) {
            continue;
        }
        int x = (row & rhs) != 0 ? 1 : 0;
        for (int d = c + 1; d < classes; ++d) {
            x ^= (row >> d & 1) != 0 ? flip[static_cast<std::size_t>(d)] : 0;
        }
        flip[static_cast<std::size_t>(c)] = x;
    }
    std::vector<std::int8_t> orientation(s.plane.ends.size());
    for (std::size_t e = 0; e < orientation.size(); ++e) {
        orientation[e] = static_cast<std::int8_t>(
            flip[static_cast<std::size_t>(edge_class[e])] != 0 ? -direction[e] : direction[e]);
    }
    return orientation;
}

}  // namespace pmcount::exact
