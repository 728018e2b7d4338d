// The torontonian's walk over the tree of sets of modes (library-internal; torontonian.hpp has
// the conventions and the algorithm, torontonian.cpp runs it).
//
// A Walker holds, per depth, the Schur complement of I − O_Z on the modes beyond Z's largest and
// walks a chunk's subtree depth first: each child's pivots give its term from its parent's (a
// factor exp(Δq/2)/√(p1·p2)), and a child with children of its own gets its complement. The
// arithmetic and its error analysis are a policy:
// - Tracked (double): every entry carries its first-order error δ (exact ≈ computed + δ),
//   propagated through each update with the update's own rounding recovered exactly (TwoProduct,
//   TwoSum). A factor's relative error δ_X is then known to first order, and since X's factor is
//   shared by X's whole subtree, the total is off by Σ_X δ_X·T_X (T_X: the subtree's signed sum),
//   cancellation included — an estimate that follows the actual error closely.
// - Bounded (double-double): every entry carries a bound on |δ| (first-order running error
//   analysis: the inputs' bounds through the multipliers plus each operation's rounding), and
//   the figure is Σ_X ε_X·(|T_X| + its slack), ε_X the factor's relative bound: a bound,
//   worst-case in the signs, far looser than the tracked estimate but at 2^−104.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "exact/torontonian/entries.hpp"
#include "run/session.hpp"

namespace pmcount::exact::tor {

/// A pivot whose error reaches this fraction of it leaves the first-order analysis: precision
/// is lost (double: counted again in double-double; double-double: an error).
inline constexpr double kLostBound = 0x1p-10;
inline constexpr double kLostTracked = 0x1p-26;
/// Roundings of one bounded entry update (two complex products and two subtractions, √5·u each
/// product, measured against |re| + |im|), with room to spare.
inline constexpr double kOps = 8;

enum class Failure { none = 0, not_positive_definite = 1, lost = 2, stopped = 3 };

/// I − O in mode order (mode k's rows 2k, 2k + 1; the lower triangle of a 2N×2N row-major
/// array) with each entry's error (Err: a signed error or a bound), and v = γ*.
template <class E, class Err>
struct Problem {
    int modes = 0;
    bool loop = false;
    std::vector<E> m;
    std::vector<Err> me;
    std::vector<E> v;
};

/// One depth: the complement on K rows (K×K row-major, lower triangle; the diagonal real), its
/// entries' errors, and the loop version's eliminated v with its errors.
template <class E, class Err>
struct Level {
    std::vector<E> s;
    std::vector<Err> e;
    std::vector<E> w;
    std::vector<Err> ew;
};

/// A set Z: its term's size g = exp(q_Z/2)/√det(I − O_Z); its factor's relative error (signed
/// delta, or bound eps); rho = Σ |that| along the path (the term's relative bound); |Z| and Z.
template <class R>
struct Node {
    R g = R(1);
    double delta = 0;
    double eps = 0;
    double rho = 0;
    int size = 0;
    std::uint64_t set = 0;
};

/// Sums over a subtree: the signed terms in double-double, Σ|term|, Σ|term|·rho and
/// Σ|term|·rho² (the slack of the computed sum), and the two error figures: the tracked
/// Σ δ_X·T_X and the bounded Σ ε_X·(|T_X| + slack).
struct Subtree {
    DoubleDouble sum;
    double magnitude = 0;
    double loose = 0;
    double loose2 = 0;
    double tracked = 0;
    double bound = 0;
    std::uint64_t nodes = 0;

    template <class R>
    void add_term(R value, bool negative, double rho) {
        if constexpr (std::is_same_v<R, double>) {
            sum += DoubleDouble(negative ? -value : value);
        } else {
            sum += negative ? -value : value;
        }
        const double size = std::fabs(hi(value));
        magnitude += size;
        loose += size * rho;
        loose2 += size * rho * rho;
        ++nodes;
    }
    /// A child's subtree, whose root's factor is off by delta (tracked) or at most eps.
    void add_child(const Subtree& child, double delta, double eps) {
        sum += child.sum;
        magnitude += child.magnitude;
        loose += child.loose;
        loose2 += child.loose2;
        tracked += child.tracked + delta * child.sum.hi;
        bound += child.bound + eps * (std::fabs(child.sum.hi) + 1.01 * child.loose);
        nodes += child.nodes;
    }
};

/// A chunk's record (fixed size: checkpoints and MPI ranks carry it).
struct Sums {
    double hi = 0, lo = 0;
    double magnitude = 0, loose2 = 0, tracked = 0, bound = 0;
    std::uint64_t nodes = 0;
    std::uint64_t failed_set = 0;
    int failure = 0;  ///< a Failure
};

template <class Policy>
class Walker {
public:
    using R = typename Policy::R;
    using E = typename Policy::E;
    using Err = typename Policy::Err;
    using Pivots = typename Policy::Pivots;

    Walker(const Problem<E, Err>& problem, int suffix)
        : problem_(problem), suffix_(suffix), scratch_(2 * problem.modes) {
        levels_.resize(static_cast<std::size_t>(suffix) + 1);
        for (auto& level : levels_) {
            reserve(level, 2 * suffix);
        }
        reserve(setup_[0], 2 * problem.modes);
        reserve(setup_[1], 2 * problem.modes);
    }

    /// Every set Z with Z ∩ {0…D−1} = P (bit k of `prefix`: mode k in P), D = N − suffix.
    void run_chunk(std::uint64_t prefix, Sums& sums) {
        const int n = problem_.modes, split = n - suffix_;
        std::vector<int> modes;  // those of P, then D…N−1
        for (int k = 0; k < split; ++k) {
            if ((prefix >> k) & 1U) {
                modes.push_back(k);
            }
        }
        const int eliminate = static_cast<int>(modes.size());
        for (int k = split; k < n; ++k) {
            modes.push_back(k);
        }
        Level<E, Err>* from = &setup_[0];
        int k = 2 * static_cast<int>(modes.size());
        load(modes, *from);
        Node<R> node;
        for (int i = 0; i < eliminate; ++i) {
            Pivots pv;
            Node<R> next;
            if (!pivot(*from, k, 0, modes[static_cast<std::size_t>(i)], node, pv, next, sums)) {
                return;
            }
            Level<E, Err>* to = from == &setup_[0] ? &setup_[1] : &setup_[0];
            Policy::build(problem_, *from, k, 0, pv, *to, scratch_);
            from = to;
            k -= 2;
            // The chain's factors multiply the whole chunk: their errors add up in one.
            next.delta += node.delta;
            next.eps += node.eps;
            node = next;
        }
        copy(*from, k, levels_[0]);
        Subtree chunk;
        chunk.add_term(node.g, odd(node), node.rho);
        chunk.add_child(visit(0, suffix_, split, node, sums), 0.0, 0.0);
        if (sums.failure != 0) {
            return;
        }
        Subtree all;
        all.add_child(chunk, node.delta, node.eps);
        sums.hi = all.sum.hi;
        sums.lo = all.sum.lo;
        sums.magnitude = all.magnitude;
        sums.loose2 = all.loose2;
        sums.tracked = all.tracked;
        sums.bound = all.bound;
        sums.nodes = all.nodes;
    }

private:
    static void reserve(Level<E, Err>& level, int k) {
        const auto size = static_cast<std::size_t>(k);
        level.s.resize(size * size);
        level.e.resize(size * size);
        level.w.resize(size);
        level.ew.resize(size);
    }

    /// The rows of `modes` of I − O (and v) into a level.
    void load(const std::vector<int>& modes, Level<E, Err>& level) const {
        const auto k = static_cast<int>(modes.size()) * 2;
        const std::size_t n2 = 2 * static_cast<std::size_t>(problem_.modes);
        for (int i = 0; i < k; ++i) {
            const int gi = 2 * modes[static_cast<std::size_t>(i / 2)] + i % 2;
            for (int j = 0; j <= i; ++j) {
                const int gj = 2 * modes[static_cast<std::size_t>(j / 2)] + j % 2;
                const std::size_t at = static_cast<std::size_t>(i) * k + j;
                const std::size_t from = static_cast<std::size_t>(std::max(gi, gj)) * n2 +
                                         static_cast<std::size_t>(std::min(gi, gj));
                level.s[at] = gi >= gj ? problem_.m[from] : conjugate(problem_.m[from]);
                level.e[at] = gi >= gj ? problem_.me[from] : conjugate(problem_.me[from]);
            }
            if (problem_.loop) {
                level.w[static_cast<std::size_t>(i)] = problem_.v[static_cast<std::size_t>(gi)];
                level.ew[static_cast<std::size_t>(i)] = Err{};
            }
        }
    }

    void copy(const Level<E, Err>& from, int k, Level<E, Err>& to) const {
        const auto size = static_cast<std::ptrdiff_t>(k) * k;
        std::copy(from.s.begin(), from.s.begin() + size, to.s.begin());
        std::copy(from.e.begin(), from.e.begin() + size, to.e.begin());
        if (problem_.loop) {
            std::copy(from.w.begin(), from.w.begin() + k, to.w.begin());
            std::copy(from.ew.begin(), from.ew.begin() + k, to.ew.begin());
        }
    }

    bool odd(const Node<R>& node) const { return (problem_.modes - node.size) % 2 != 0; }

    bool pivot(const Level<E, Err>& level, int k, int j, int mode, const Node<R>& node, Pivots& pv,
               Node<R>& child, Sums& sums) const {
        child.set = node.set | (std::uint64_t{1} << mode);
        child.size = node.size + 1;
        const Failure f = Policy::pivot(problem_, level, k, j, node, pv, child);
        if (f != Failure::none) {
            sums.failure = static_cast<int>(f);
            sums.failed_set = child.set;
            return false;
        }
        child.rho = node.rho + std::fabs(child.delta) + child.eps;
        return true;
    }

    /// The subtrees of the children of a node whose complement (level `depth`) has `left`
    /// modes, the first of them mode `first`.
    Subtree visit(int depth, int left, int first, const Node<R>& node, Sums& sums) {
        const Level<E, Err>& level = levels_[static_cast<std::size_t>(depth)];
        const int k = 2 * left;
        Subtree children;
        for (int j = 0; j < left; ++j) {
            if (poll_()) {
                sums.failure = static_cast<int>(Failure::stopped);
                return children;
            }
            Pivots pv;
            Node<R> child;
            if (!pivot(level, k, j, first + j, node, pv, child, sums)) {
                return children;
            }
            Subtree sub;
            sub.add_term(child.g, odd(child), child.rho);
            if (j + 1 < left) {
                Policy::build(problem_, level, k, j, pv,
                              levels_[static_cast<std::size_t>(depth) + 1], scratch_);
                sub.add_child(visit(depth + 1, left - j - 1, first + j + 1, child, sums), 0.0, 0.0);
                if (sums.failure != 0) {
                    return children;
                }
            }
            children.add_child(sub, child.delta, child.eps);
        }
        return children;
    }

    const Problem<E, Err>& problem_;
    int suffix_;
    std::vector<Level<E, Err>> levels_;
    Level<E, Err> setup_[2];
    typename Policy::Scratch scratch_;
    run::StopPoll poll_;
};

}  // namespace pmcount::exact::tor
