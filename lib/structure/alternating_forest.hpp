// AlternatingForest: one search of Edmonds' blossom algorithm ("Paths, trees, and flowers",
// Canad. J. Math. 17, 1965) for a general graph, with blossoms contracted implicitly through a
// union–find structure and augmenting paths recovered from per-vertex bridges, as in Gabow,
// "An efficient implementation of Edmonds' algorithm for maximum matching on graphs", J. ACM
// 23(2), 1976, and Tarjan, "Data Structures and Network Algorithms", SIAM 1983, ch. 9.
//
// grow() builds an alternating forest from the given exposed roots: outer (even) vertices are
// scanned; an unlabelled matched neighbour y of an outer vertex x becomes inner with its mate
// outer; an outer neighbour in the same tree closes a blossom, whose inner vertices become outer
// (they are scanned too); an outer neighbour in another tree, or an unlabelled exposed neighbour,
// gives an augmenting path, which grow() flips at once. A search costs O(E·α(V)) for the edges
// at the vertices it labels, plus O(V) for the path it flips: nothing is proportional to the whole
// graph, so thousands of searches that each stay local (after a greedy start) remain cheap.
//
// Path recovery. P(v), for an outer vertex v, is the even alternating path from v to its root
// that starts with v's matching edge. For v outer through a tree edge it is v, mate(v), then
// P(pred(mate(v))); for a formerly inner v absorbed into a blossom through the bridge (x, y), x on
// v's side, it is v followed by P(x) reversed up to mate(v), then P(y). rematch(v, w) matches v
// to w and flips P(v); the walk of P(x) stops at mate(v) because mate(v) no longer points back.
// The recursion is run with an explicit stack (paths can hold 10^5 vertices).
//
// Workspaces (n = vertices), each reset only where a search touched it:
//   label_[n]          unlabelled / outer / inner
//   pred_[n]           for a vertex labelled inner: the outer vertex that labelled it
//   bridge_x_[n],
//   bridge_y_[n]       for an inner vertex absorbed into a blossom: the blossom's closing edge, x
//   on
//                      its side; bridge_x_ = −1 for a vertex that became outer through a tree edge
//   tree_[n]           root of the tree holding the vertex
//   set_parent_[n], set_size_[n], set_base_[n]
//                      union–find over the vertices of each outer blossom (by size, path halving);
//                      set_base_ of a representative is the blossom's base
//   mark_[n]           stamps of the two walks that find the base of a new blossom
//   queue_[≤ n]        outer vertices still to scan; touched_[≤ n] every labelled vertex;
//   stack_[≤ n]        the explicit recursion of rematch
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "pmcount/array_view.hpp"
#include "pmcount/graph.hpp"

namespace pmcount::structure {

class AlternatingForest {
public:
    enum class Label : std::uint8_t { unlabelled, outer, inner };

    explicit AlternatingForest(const UndirectedGraph& graph)
        : graph_(graph),
          label_(size(), Label::unlabelled),
          pred_(size(), -1),
          bridge_x_(size(), -1),
          bridge_y_(size(), -1),
          tree_(size(), -1),
          set_parent_(size()),
          set_size_(size(), 1),
          set_base_(size()),
          mark_(size(), 0) {
        for (vertex_t v = 0; v < graph.num_vertices(); ++v) {
            set_parent_[index(v)] = v;
            set_base_[index(v)] = v;
        }
    }

    /// Grows the forest from `roots` (vertices exposed in `mate`) through the vertices v with
    /// excluded[v] == 0 (all of them when `excluded` is null). Returns true after flipping the
    /// first augmenting path found (mate then has one more matched edge; the forest is stale and
    /// must be cleared). Returns false when the forest is complete, i.e. no augmenting path starts
    /// at a root, or when on_outer(v), called for each vertex as it becomes outer, returns true
    /// (the forest is then partial: outer labels already given are final). mate must be a
    /// matching of the graph, symmetric, with every excluded vertex exposed or matched to an
    /// excluded vertex.
    template <class OnOuter>
    bool grow(std::vector<vertex_t>& mate, ArrayView<vertex_t> roots,
              const std::vector<char>* excluded, OnOuter&& on_outer) {
        for (const vertex_t r : roots) {
            if (label_[index(r)] == Label::unlabelled) {
                touch(r, Label::outer, r);
                queue_.push_back(r);
                if (on_outer(r)) {
                    return false;
                }
            }
        }
        for (std::size_t head = 0; head < queue_.size(); ++head) {
            const vertex_t x = queue_[head];
            for (const vertex_t y : graph_.neighbours(x)) {
                if (excluded != nullptr && (*excluded)[index(y)] != 0) {
                    continue;
                }
                switch (label_[index(y)]) {
                    case Label::inner:
                        break;  // an even cycle through y: nothing to learn
                    case Label::unlabelled: {
                        const vertex_t z = mate[index(y)];
                        if (z < 0) {
                            mate[index(y)] = x;
                            rematch(mate, x, y);
                            return true;
                        }
                        touch(y, Label::inner, tree_[index(x)]);
                        pred_[index(y)] = x;
                        touch(z, Label::outer, tree_[index(x)]);
                        queue_.push_back(z);
                        if (on_outer(z)) {
                            return false;
                        }
                        break;
                    }
                    case Label::outer: {
                        if (find(x) == find(y)) {
                            break;
                        }
                        if (tree_[index(x)] != tree_[index(y)]) {
                            rematch(mate, x, y);
                            rematch(mate, y, x);
                            return true;
                        }
                        const vertex_t base = common_base(mate, x, y);
                        if (absorb(mate, x, y, base, on_outer) ||
                            absorb(mate, y, x, base, on_outer)) {
                            return false;
                        }
                        break;
                    }
                }
            }
        }
        return false;
    }

    bool grow(std::vector<vertex_t>& mate, ArrayView<vertex_t> roots,
              const std::vector<char>* excluded) {
        return grow(mate, roots, excluded, [](vertex_t) { return false; });
    }

    Label label(vertex_t v) const noexcept { return label_[index(v)]; }
    /// Base of the outer blossom holding v (v itself outside blossoms).
    vertex_t base(vertex_t v) { return set_base_[index(find(v))]; }
    /// Every vertex labelled since the last clear(), in labelling order.
    const std::vector<vertex_t>& touched() const noexcept { return touched_; }

    /// Forgets the forest, in time proportional to the vertices it labelled.
    void clear() {
        for (const vertex_t v : touched_) {
            const std::size_t i = index(v);
            label_[i] = Label::unlabelled;
            pred_[i] = bridge_x_[i] = bridge_y_[i] = tree_[i] = -1;
            set_parent_[i] = set_base_[i] = v;
            set_size_[i] = 1;
            mark_[i] = 0;
        }
        touched_.clear();
        queue_.clear();
        stamp_ = 0;
    }

private:
    static std::size_t index(vertex_t v) noexcept { return static_cast<std::size_t>(v); }
    std::size_t size() const noexcept { return index(graph_.num_vertices()); }

    void touch(vertex_t v, Label label, vertex_t root) {
        label_[index(v)] = label;
        tree_[index(v)] = root;
        touched_.push_back(v);
    }

    vertex_t find(vertex_t v) {
        while (set_parent_[index(v)] != v) {
            set_parent_[index(v)] = set_parent_[index(set_parent_[index(v)])];
            v = set_parent_[index(v)];
        }
        return v;
    }

    /// Merges the sets of a and b; the merged set's base is `base`.
    void unite(vertex_t a, vertex_t b, vertex_t base) {
        a = find(a);
        b = find(b);
        if (a != b) {
            if (set_size_[index(a)] < set_size_[index(b)]) {
                std::swap(a, b);
            }
            set_parent_[index(b)] = a;
            set_size_[index(a)] += set_size_[index(b)];
        }
        set_base_[index(a)] = base;
    }

    /// The base of the blossom closed by the edge xy (x, y outer in one tree): the first base that
    /// both walks towards the root meet. The walks alternate, so the cost is O(length of the
    /// blossom's cycle), not of the paths to the root.
    vertex_t common_base(const std::vector<vertex_t>& mate, vertex_t x, vertex_t y) {
        ++stamp_;
        vertex_t a = base(x), b = base(y);
        while (true) {
            if (a >= 0) {
                if (mark_[index(a)] == stamp_) {
                    return a;
                }
                mark_[index(a)] = stamp_;
                const vertex_t m = mate[index(a)];  // an inner vertex, or none at the root
                a = m < 0 ? -1 : base(pred_[index(m)]);
            }
            std::swap(a, b);
        }
    }

    /// Makes every inner vertex on the tree path from x's blossom up to `base` outer, recording
    /// the bridge (x, y), and merges the blossoms on the way into base's. Returns on_outer's stop.
    template <class OnOuter>
    bool absorb(const std::vector<vertex_t>& mate, vertex_t x, vertex_t y, vertex_t base,
                OnOuter& on_outer) {
        for (vertex_t b = this->base(x); b != base;) {
            const vertex_t t = mate[index(b)];  // inner: b is not the root, which is above base
            label_[index(t)] = Label::outer;
            bridge_x_[index(t)] = x;
            bridge_y_[index(t)] = y;
            queue_.push_back(t);
            unite(base, b, base);
            unite(base, t, base);
            if (on_outer(t)) {
                return true;
            }
            b = this->base(pred_[index(t)]);
        }
        return false;
    }

    /// Matches v to w and flips P(v) (see the file comment), iteratively.
    void rematch(std::vector<vertex_t>& mate, vertex_t v, vertex_t w) {
        stack_.assign(1, {v, w});
        while (!stack_.empty()) {
            const auto [a, b] = stack_.back();
            stack_.pop_back();
            const vertex_t t = mate[index(a)];
            mate[index(a)] = b;
            if (t < 0 || mate[index(t)] != a) {
                continue;  // a was a root, or the flip of this stretch ends here
            }
            const vertex_t bx = bridge_x_[index(a)];
            if (bx < 0) {
                const vertex_t s = pred_[index(t)];
                mate[index(t)] = s;
                stack_.push_back({s, t});
            } else {
                const vertex_t by = bridge_y_[index(a)];
                stack_.push_back({by, bx});  // runs after the x side, as in the recursion
                stack_.push_back({bx, by});
            }
        }
    }

    const UndirectedGraph& graph_;
    std::vector<Label> label_;
    std::vector<vertex_t> pred_;
    std::vector<vertex_t> bridge_x_;
    std::vector<vertex_t> bridge_y_;
    std::vector<vertex_t> tree_;
    std::vector<vertex_t> set_parent_;
    std::vector<vertex_t> set_size_;
    std::vector<vertex_t> set_base_;
    std::vector<std::uint32_t> mark_;
    std::uint32_t stamp_ = 0;
    std::vector<vertex_t> queue_;
    std::vector<vertex_t> touched_;
    std::vector<std::pair<vertex_t, vertex_t>> stack_;
};

}  // namespace pmcount::structure
