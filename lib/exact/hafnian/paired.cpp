// The paired engine for repeated rows (paired.hpp has the formula). Phases: (1) pair the copies
// into types and choose each type's nodes and targets; (2) the characteristic polynomial D (and
// D' for loops) at every node, half of them by the symmetry y → −y; (3) interpolation along each
// type from its nodes to its targets; (4) per point the series and its weight, summed in fixed
// chunks (the same result for any thread count); (5) the residues' CRT, or the two floating runs.
// Workspaces: the node and point tables, points × (modes + 1) values (kMaxPairedHeld).
#include "exact/hafnian/paired.hpp"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>
#include <type_traits>

#include "core/stop.hpp"
#include "exact/hafnian/repeated.hpp"
#include "numeric/compensated.hpp"
#include "numeric/crt.hpp"
#include "numeric/elimination_fields.hpp"
#include "pmcount/error.hpp"

namespace pmcount::exact {

namespace {

/// One pair type as an axis of the points: its y values where D is computed (nodes, symmetric
/// about 0) and those summed over (targets), and the weights taking the one to the other.
struct Axis {
    int a = 0;
    int b = 0;
    int count = 0;
    std::vector<int> nodes;
    std::vector<int> targets;
};

/// The nodes of a type: all its y values when there are at most degree + 1 of them, else
/// {−count, count} (within one mode: degree 1) or {−count, 0, count}.
std::vector<int> nodes_of(const PairType& t) {
    const int degree = t.a == t.b ? 1 : 2;
    std::vector<int> nodes;
    if (t.count + 1 <= degree + 1) {
        for (int y = -t.count; y <= t.count; y += 2) {
            nodes.push_back(y);
        }
    } else if (degree == 1) {
        nodes = {-t.count, t.count};
    } else {
        nodes = {-t.count, 0, t.count};
    }
    return nodes;
}

/// The axes for the types; the first sums y ≤ 0 (or y ≥ 0 when `upper`).
std::vector<Axis> axes_of(const std::vector<PairType>& types, bool upper) {
    std::vector<Axis> axes;
    for (std::size_t e = 0; e < types.size(); ++e) {
        Axis x{types[e].a, types[e].b, types[e].count, nodes_of(types[e]), {}};
        for (int y = -x.count; y <= x.count; y += 2) {
            if (e != 0 || (upper ? y >= 0 : y <= 0)) {
                x.targets.push_back(y);
            }
        }
        axes.push_back(std::move(x));
    }
    return axes;
}

double product_of(const std::vector<Axis>& axes, bool targets) {
    double p = 1;
    for (const Axis& x : axes) {
        p *= static_cast<double>(targets ? x.targets.size() : x.nodes.size());
    }
    return p;
}

// ---- Fields: the modular one and the floating ones, with what the engine needs -----------------

struct Modular {
    using Value = std::uint64_t;
    using Scalar = std::uint64_t;  ///< a rational constant of the series (in the field)
    numeric::ModularField f;
    explicit Modular(std::uint64_t p) : f(p) {}
    Value zero() const { return 0; }
    Value one() const { return f.one(); }
    Value of(std::int64_t v) const { return f.from_int(v); }
    /// p/q for small integers.
    Value ratio(std::int64_t p, std::int64_t q) const { return f.mul(of(p), f.inverse(of(q))); }
    Value add(Value a, Value b) const { return f.sub(a, f.negate(b)); }
    Value sub(Value a, Value b) const { return f.sub(a, b); }
    Value mul(Value a, Value b) const { return f.mul(a, b); }
    Value neg(Value a) const { return f.negate(a); }
    Value inverse(Value a) const { return f.inverse(a); }
    static double size(Value a) { return a == 0 ? 0.0 : 1.0; }
    Scalar scalar(std::int64_t p, std::int64_t q) const { return ratio(p, q); }
    Value scale(Scalar c, Value a) const { return f.mul(c, a); }
    /// C(n, k) in the field.
    Value binomial(int n, int k) const {
        Value b = one();
        for (int t = 1; t <= k; ++t) {
            b = f.mul(b, ratio(n - k + t, t));
        }
        return b;
    }
};

template <class T>
struct Floating {
    using Value = T;
    using Scalar = double;
    Value zero() const { return T{}; }
    Value one() const { return T(1); }
    Value of(std::int64_t v) const { return T(static_cast<double>(v)); }
    Value ratio(std::int64_t p, std::int64_t q) const {
        return T(static_cast<double>(p) / static_cast<double>(q));
    }
    static Value add(Value a, Value b) { return a + b; }
    static Value sub(Value a, Value b) { return a - b; }
    static Value mul(Value a, Value b) { return a * b; }
    static Value neg(Value a) { return -a; }
    static Value inverse(Value a) { return T(1) / a; }
    /// |re| + |im|: the pivots' measure (no hypot in the inner loops).
    static double size(Value a) { return std::abs(std::real(a)) + std::abs(std::imag(a)); }
    static Scalar scalar(std::int64_t p, std::int64_t q) {
        return static_cast<double>(p) / static_cast<double>(q);
    }
    static Value scale(Scalar c, Value a) { return c * a; }
    /// C(n, k) rounded once to double (formed in long double: exact while below 2^64).
    static Value binomial(int n, int k) {
        long double b = 1;
        for (int t = 1; t <= k; ++t) {
            b = b * (n - k + t) / t;
        }
        return T(static_cast<double>(b));
    }
};

// ---- (2) The characteristic polynomial ---------------------------------------------------------

/// det(I − λC) of the k×k matrix c (row-major, destroyed) into d[0..k]: Hessenberg form by
/// Gaussian similarity transforms (pivot: the largest entry, or any nonzero one modulo p), then
/// the recurrence p_j(x) = (x − h_jj)·p_{j−1} − Σ_i (h_{j−i−1,j}·Π subdiagonal)·p_{j−i−2} for
/// the leading principal minors' characteristic polynomials; d_t is p_k's coefficient of
/// x^(k−t). `work` holds k + 1 polynomials.
template <class F>
void reversed_charpoly(const F& f, int k, std::vector<typename F::Value>& c,
                       std::vector<typename F::Value>& work, typename F::Value* d) {
    using V = typename F::Value;
    auto at = [&](int i, int j) -> V& { return c[static_cast<std::size_t>(i * k + j)]; };
    for (int col = 0; col + 2 < k; ++col) {
        int pivot = col + 1;
        for (int i = col + 2; i < k; ++i) {
            if (F::size(at(i, col)) > F::size(at(pivot, col))) {
                pivot = i;
            }
        }
        if (F::size(at(pivot, col)) == 0) {
            continue;
        }
        if (pivot != col + 1) {
            for (int j = 0; j < k; ++j) {
                std::swap(at(pivot, j), at(col + 1, j));
            }
            for (int i = 0; i < k; ++i) {
                std::swap(at(i, pivot), at(i, col + 1));
            }
        }
        const V inv = f.inverse(at(col + 1, col));
        for (int i = col + 2; i < k; ++i) {
            if (F::size(at(i, col)) == 0) {
                continue;
            }
            const V l = f.mul(at(i, col), inv);
            for (int j = col; j < k; ++j) {
                at(i, j) = f.sub(at(i, j), f.mul(l, at(col + 1, j)));
            }
            for (int r = 0; r < k; ++r) {
                at(r, col + 1) = f.add(at(r, col + 1), f.mul(l, at(r, i)));
            }
        }
    }
    // work[j·(k+1) + t]: p_j's coefficient of x^(j − t).
    const auto stride = static_cast<std::size_t>(k + 1);
    auto p = [&](int j) { return work.data() + static_cast<std::size_t>(j) * stride; };
    p(0)[0] = f.one();
    for (int j = 1; j <= k; ++j) {
        V* out = p(j);
        const V* prev = p(j - 1);
        const V h = at(j - 1, j - 1);
        out[0] = prev[0];
        for (int t = 1; t < j; ++t) {
            out[t] = f.sub(prev[t], f.mul(h, prev[t - 1]));
        }
        out[j] = f.neg(f.mul(h, prev[j - 1]));
        V run = f.one();
        for (int i = 1; i < j; ++i) {
            run = f.mul(run, at(j - i, j - i - 1));
            if (F::size(run) == 0) {
                break;
            }
            const V w = f.mul(run, at(j - i - 1, j - 1));
            const V* q = p(j - i - 1);
            for (int t = 0; t <= j - i - 1; ++t) {
                out[t + i + 1] = f.sub(out[t + i + 1], f.mul(w, q[t]));
            }
        }
    }
    std::copy(p(k), p(k) + k + 1, d);
}

// ---- The engine for one field
// --------------------------------------------------------------------

/// What the sum needs: A (k×k) and, for loops, A − μμᵀ, as field values; the axes; n.
template <class F>
struct Problem {
    int k = 0;
    int half = 0;
    bool loops = false;
    std::vector<typename F::Value> a;      ///< k×k
    std::vector<typename F::Value> shift;  ///< A − μμᵀ (loops)
    std::vector<Axis> axes;
};

/// Σ weight·term: in the field, or compensated (both parts) with Σ|weight·term| in floating point.
template <class V>
struct Sum {
    V value{};
    void add(const Modular& f, V v) { value = f.add(value, v); }
    void add(const Sum& other, const Modular& f) { value = f.add(value, other.value); }
};
template <class T>
struct FloatSum {
    numeric::CompensatedSum re, im;
    double magnitude = 0;
    template <class F>
    void add(const F&, T v) {
        re.add(std::real(v));
        im.add(std::imag(v));
        magnitude += std::abs(std::real(v)) + std::abs(std::imag(v));  // ≥ |v|
    }
    template <class F>
    void add(const FloatSum& other, const F&) {
        re.add(other.re);
        im.add(other.im);
        magnitude += other.magnitude;
    }
    std::complex<double> value() const { return {re.value(), im.value()}; }
};
template <class F>
using SumOf =
    std::conditional_t<std::is_same_v<F, Modular>, Sum<std::uint64_t>, FloatSum<typename F::Value>>;

/// Σ over the targets of weight·[λ^n](series), as in paired.hpp; 2^−n not applied.
template <class F>
SumOf<F> paired_sum(const F& f, const Problem<F>& pr, const run::EngineRun& run) {
    using V = typename F::Value;
    const int k = pr.k;
    const int n = pr.half;
    const auto width = static_cast<std::size_t>(k + 1);
    const std::size_t polys = pr.loops ? 2 : 1;
    const std::size_t block = width * polys;  // values per node or point
    const auto& axes = pr.axes;
    const std::size_t e_count = axes.size();
    const int threads = run::resolve_threads(run.threads);

    // (2) D (and D') at the nodes. Node index: mixed radix, axis 0 slowest.
    std::vector<std::size_t> node_dims(e_count);
    std::size_t node_total = 1;
    for (std::size_t e = 0; e < e_count; ++e) {
        node_dims[e] = axes[e].nodes.size();
        node_total *= node_dims[e];
    }
    std::vector<V> table(node_total * block, f.zero());
    auto mirror = [&](std::size_t x) {
        std::size_t out = 0;
        std::size_t rest = x;
        std::size_t scale = node_total;
        for (std::size_t e = 0; e < e_count; ++e) {
            scale /= node_dims[e];
            const std::size_t digit = rest / scale;
            rest %= scale;
            out += (node_dims[e] - 1 - digit) * scale;
        }
        return out;
    };
    struct Entry {
        int row;
        int col;
        V value;
    };
    auto compute_node = [&](std::int64_t index, std::vector<V>& c, std::vector<V>& work,
                            std::vector<Entry>& y) {
        const auto x = static_cast<std::size_t>(index);
        if (mirror(x) < x) {
            return;
        }
        // Y's entries (row, column, value): two per cross type, one within a mode.
        y.clear();
        std::size_t rest = x;
        std::size_t scale = node_total;
        for (std::size_t e = 0; e < e_count; ++e) {
            scale /= node_dims[e];
            const int value = axes[e].nodes[rest / scale];
            rest %= scale;
            if (axes[e].a == axes[e].b) {
                y.push_back({axes[e].a, axes[e].a, f.of(2 * value)});
            } else {
                y.push_back({axes[e].a, axes[e].b, f.of(value)});
                y.push_back({axes[e].b, axes[e].a, f.of(value)});
            }
        }
        for (std::size_t which = 0; which < polys; ++which) {
            const std::vector<V>& m = which == 0 ? pr.a : pr.shift;
            std::fill(c.begin(), c.end(), f.zero());
            for (const Entry& en : y) {  // row en.row of C gains en.value · row en.col of A
                V* out = c.data() + static_cast<std::size_t>(en.row * k);
                const V* in = m.data() + static_cast<std::size_t>(en.col * k);
                for (int j = 0; j < k; ++j) {
                    out[j] = f.add(out[j], f.mul(en.value, in[j]));
                }
            }
            reversed_charpoly(f, k, c, work, table.data() + x * block + which * width);
        }
    };
    {
        std::vector<std::vector<V>> cs(static_cast<std::size_t>(threads)),
            works(static_cast<std::size_t>(threads));
        std::vector<std::vector<Entry>> ys(static_cast<std::size_t>(threads));
        run::parallel_for(static_cast<std::int64_t>(node_total), threads, [&](std::int64_t i) {
            if (pmcount::detail::stop_requested()) {
                return;
            }
            const auto t = static_cast<std::size_t>(omp_get_thread_num());
            cs[t].resize(static_cast<std::size_t>(k * k));
            works[t].resize(width * width);
            compute_node(i, cs[t], works[t], ys[t]);
        });
        pmcount::detail::throw_if_stopped("summing over the pairs of copies");
    }
    // D(λ, −y) = D(−λ, y).
    for (std::size_t x = 0; x < node_total; ++x) {
        const std::size_t from = mirror(x);
        if (from < x) {
            for (std::size_t t = 0; t < block; ++t) {
                const V v = table[from * block + t];
                table[x * block + t] = (t % width) % 2 == 1 ? f.neg(v) : v;
            }
        }
    }

    // (3) Interpolation, axis by axis: nodes → targets.
    std::vector<std::size_t> dims = node_dims;
    for (std::size_t e = 0; e < e_count; ++e) {
        const Axis& x = axes[e];
        const std::size_t from = x.nodes.size(), to = x.targets.size();
        if (x.nodes == x.targets) {
            continue;
        }
        std::vector<V> weights(to * from);
        for (std::size_t t = 0; t < to; ++t) {
            for (std::size_t j = 0; j < from; ++j) {
                std::int64_t num = 1, den = 1;
                for (std::size_t l = 0; l < from; ++l) {
                    if (l != j) {
                        num *= x.targets[t] - x.nodes[l];
                        den *= x.nodes[j] - x.nodes[l];
                    }
                }
                weights[t * from + j] = f.ratio(num, den);
            }
        }
        std::size_t outer = 1, inner = block;
        for (std::size_t l = 0; l < e; ++l) {
            outer *= dims[l];
        }
        for (std::size_t l = e + 1; l < e_count; ++l) {
            inner *= dims[l];
        }
        std::vector<V> next(outer * to * inner, f.zero());
        for (std::size_t o = 0; o < outer; ++o) {
            for (std::size_t t = 0; t < to; ++t) {
                V* out = next.data() + (o * to + t) * inner;
                for (std::size_t j = 0; j < from; ++j) {
                    const V w = weights[t * from + j];
                    if (F::size(w) == 0) {
                        continue;
                    }
                    const V* in = table.data() + (o * from + j) * inner;
                    for (std::size_t i = 0; i < inner; ++i) {
                        out[i] = f.add(out[i], f.mul(w, in[i]));
                    }
                }
            }
        }
        table.swap(next);
        dims[e] = to;
    }

    // (4) The points.
    std::size_t point_total = 1;
    for (const std::size_t d : dims) {
        point_total *= d;
    }
    // Per axis and target: the weight C(count, c)·(−1)^(count − c), doubled off the middle on
    // axis 0.
    std::vector<std::vector<V>> weight(e_count);
    for (std::size_t e = 0; e < e_count; ++e) {
        for (const int y : axes[e].targets) {
            const int c = (axes[e].count + y) / 2;
            V w = f.binomial(axes[e].count, c);  // up to C(200, 100): not in 64 bits
            if ((axes[e].count - c) % 2 != 0) {
                w = f.neg(w);
            }
            if (e == 0 && y != 0) {
                w = f.add(w, w);
            }
            weight[e].push_back(w);
        }
    }
    // The series' constants: (2t − j)/(2t) for D^(−1/2), j/t for exp, ½.
    using Scalar = typename F::Scalar;
    const auto row = static_cast<std::size_t>(n + 1);
    std::vector<Scalar> root(row * row), expo(row * row);
    for (int t = 1; t <= n; ++t) {
        for (int j = 1; j <= t; ++j) {
            root[static_cast<std::size_t>(t) * row + static_cast<std::size_t>(j)] =
                f.scalar(-(2 * t - j), 2 * t);
            expo[static_cast<std::size_t>(t) * row + static_cast<std::size_t>(j)] = f.scalar(j, t);
        }
    }
    const Scalar half = f.scalar(1, 2);
    const std::size_t chunk = 64;
    const std::size_t chunks = (point_total + chunk - 1) / chunk;
    std::vector<SumOf<F>> partial(chunks);
    std::vector<std::vector<V>> scratch(static_cast<std::size_t>(threads));
    run::parallel_for(static_cast<std::int64_t>(chunks), threads, [&](std::int64_t ci) {
        if (pmcount::detail::stop_requested()) {
            return;
        }
        auto& s = scratch[static_cast<std::size_t>(omp_get_thread_num())];
        s.resize(static_cast<std::size_t>(4 * (n + 1)));
        V* g = s.data();
        V* q = g + (n + 1);
        V* h = q + (n + 1);
        V* ex = h + (n + 1);
        SumOf<F>& out = partial[static_cast<std::size_t>(ci)];
        const std::size_t begin = static_cast<std::size_t>(ci) * chunk;
        const std::size_t end = std::min(point_total, begin + chunk);
        for (std::size_t x = begin; x < end; ++x) {
            const V* d = table.data() + x * block;
            // g = D^(−1/2): 2t·g_t = −Σ_j (2t − j)·D_j·g_{t−j}.
            g[0] = f.one();
            for (int t = 1; t <= n; ++t) {
                const Scalar* cs = root.data() + static_cast<std::size_t>(t) * row;
                V acc = f.zero();
                for (int j = 1; j <= std::min(t, k); ++j) {
                    acc = f.add(acc, f.scale(cs[j], f.mul(d[j], g[t - j])));
                }
                g[t] = acc;
            }
            V term;
            if (!pr.loops) {
                term = g[n];
            } else {
                // h = (D' − D)/(2D), then exp(h); the term is [λ^n] g·exp(h).
                const V* d2 = d + width;
                q[0] = f.zero();
                for (int t = 1; t <= n; ++t) {
                    V acc = t <= k ? f.sub(d2[t], d[t]) : f.zero();
                    for (int j = 1; j <= std::min(t, k); ++j) {
                        acc = f.sub(acc, f.mul(d[j], q[t - j]));
                    }
                    q[t] = acc;
                    h[t] = f.scale(half, acc);
                }
                ex[0] = f.one();
                for (int t = 1; t <= n; ++t) {
                    const Scalar* cs = expo.data() + static_cast<std::size_t>(t) * row;
                    V acc = f.zero();
                    for (int j = 1; j <= t; ++j) {
                        acc = f.add(acc, f.scale(cs[j], f.mul(h[j], ex[t - j])));
                    }
                    ex[t] = acc;
                }
                term = f.zero();
                for (int t = 0; t <= n; ++t) {
                    term = f.add(term, f.mul(g[t], ex[n - t]));
                }
            }
            // The weight of the point.
            std::size_t rest = x;
            std::size_t scale = point_total;
            V w = f.one();
            for (std::size_t e = 0; e < e_count; ++e) {
                scale /= dims[e];
                w = f.mul(w, weight[e][rest / scale]);
                rest %= scale;
            }
            out.add(f, f.mul(w, term));
        }
    });
    pmcount::detail::throw_if_stopped("summing over the pairs of copies");
    SumOf<F> total;
    for (const SumOf<F>& p : partial) {
        total.add(p, f);
    }
    return total;
}

/// v·2^e, exactly.
inline double scaled(double v, int e) {
    return std::ldexp(v, e);
}
inline std::complex<double> scaled(std::complex<double> v, int e) {
    return {std::ldexp(v.real(), e), std::ldexp(v.imag(), e)};
}

/// a − x·y with one rounding per part (a fused multiply-add): the second floating run forms
/// A − μμᵀ this way, so the two runs do not share its roundings.
inline double fused_sub(double a, double x, double y) {
    return std::fma(-x, y, a);
}
inline std::complex<double> fused_sub(std::complex<double> a, std::complex<double> x,
                                      std::complex<double> y) {
    return {std::fma(-x.real(), y.real(), std::fma(x.imag(), y.imag(), a.real())),
            std::fma(-x.real(), y.imag(), std::fma(-x.imag(), y.real(), a.imag()))};
}
inline std::int64_t fused_sub(std::int64_t a, std::int64_t x, std::int64_t y) {
    return a - x * y;  // unused: the modular runs form it in the field
}

/// The modes present (positive multiplicity), padded for an odd loop total; the types.
template <class T>
struct Prepared {
    DenseMatrix<T> a;
    std::vector<T> mu;
    std::vector<int> r;
    bool loops = false;
    int half = 0;
};

template <class T>
Prepared<T> prepared(const DenseMatrix<T>& a, const std::vector<int>& rpt,
                     const std::vector<T>* mu) {
    Prepared<T> p;
    p.loops = mu != nullptr;
    keep_present(a, rpt, mu, p.a, p.r, p.mu);
    const int total = std::accumulate(p.r.begin(), p.r.end(), 0);
    if (p.loops && total % 2 != 0) {  // one more mode: one copy, a loop of weight 1
        const vertex_t k = p.a.rows();
        DenseMatrix<T> padded(k + 1, k + 1, T{});
        for (vertex_t i = 0; i < k; ++i) {
            for (vertex_t j = 0; j < k; ++j) {
                padded(i, j) = p.a(i, j);
            }
        }
        p.a = std::move(padded);
        p.mu.push_back(T(1));
        p.r.push_back(1);
    }
    p.half = std::accumulate(p.r.begin(), p.r.end(), 0) / 2;
    return p;
}

/// The field's Problem for A (k×k) and mu, with the axes of the pairing (the modes' order
/// reversed when `reverse`).
template <class F, class T, class Convert>
Problem<F> problem_of(const F& f, const Prepared<T>& p, bool reverse, bool upper, Convert convert) {
    Problem<F> pr;
    pr.k = p.a.rows();
    pr.half = p.half;
    pr.loops = p.loops;
    const int k = pr.k;
    auto mode = [&](int i) { return reverse ? k - 1 - i : i; };
    pr.a.resize(static_cast<std::size_t>(k * k));
    if (pr.loops) {
        pr.shift.resize(static_cast<std::size_t>(k * k));
    }
    for (int i = 0; i < k; ++i) {
        for (int j = 0; j < k; ++j) {
            const auto at = static_cast<std::size_t>(mode(i) * k + mode(j));
            pr.a[at] = convert(p.a(i, j));
            if (pr.loops) {
                const T& mi = p.mu[static_cast<std::size_t>(i)];
                const T& mj = p.mu[static_cast<std::size_t>(j)];
                pr.shift[at] = reverse && !std::is_same_v<T, std::int64_t>
                                   ? convert(fused_sub(p.a(i, j), mi, mj))
                                   : f.sub(pr.a[at], f.mul(convert(mi), convert(mj)));
            }
        }
    }
    std::vector<PairType> types = pair_copies(p.r);
    for (PairType& t : types) {
        t.a = mode(t.a);
        t.b = mode(t.b);
    }
    pr.axes = axes_of(types, upper);
    return pr;
}

}  // namespace

std::vector<PairType> pair_copies(std::vector<int> r) {
    std::vector<PairType> types;
    for (;;) {
        int a = -1, b = -1;
        for (int i = 0; i < static_cast<int>(r.size()); ++i) {
            if (r[static_cast<std::size_t>(i)] == 0) {
                continue;
            }
            if (a < 0 || r[static_cast<std::size_t>(i)] > r[static_cast<std::size_t>(a)]) {
                b = a;
                a = i;
            } else if (b < 0 || r[static_cast<std::size_t>(i)] > r[static_cast<std::size_t>(b)]) {
                b = i;
            }
        }
        if (a < 0) {
            break;
        }
        if (b < 0) {
            if (r[static_cast<std::size_t>(a)] % 2 != 0) {
                throw InternalError("pair_copies: an odd number of copies");
            }
            types.push_back({a, a, r[static_cast<std::size_t>(a)] / 2});
            break;
        }
        const int pairs = r[static_cast<std::size_t>(b)];
        types.push_back({std::min(a, b), std::max(a, b), pairs});
        r[static_cast<std::size_t>(a)] -= pairs;
        r[static_cast<std::size_t>(b)] = 0;
    }
    std::stable_sort(types.begin(), types.end(),
                     [](const PairType& x, const PairType& y) { return x.count > y.count; });
    return types;
}

PairedWork paired_work(const std::vector<int>& rpt, bool loops) {
    PairedWork w;
    std::vector<int> r;
    for (const int v : rpt) {
        if (v > 0) {
            r.push_back(v);
        }
    }
    const int photons = std::accumulate(r.begin(), r.end(), 0);
    if (photons % 2 != 0) {
        if (!loops) {
            return w;  // the hafnian is 0
        }
        r.push_back(1);
    }
    const std::vector<Axis> axes = axes_of(pair_copies(r), false);
    w.points = product_of(axes, true);
    w.nodes = product_of(axes, false);
    w.modes = static_cast<int>(r.size());
    w.half = (photons + 1) / 2;
    // The tables along the interpolation: at most the larger of the nodes and the points.
    w.held = std::max(w.points, w.nodes) * (w.modes + 1) * (loops ? 2 : 1);
    return w;
}

ExactOutcome hafnian_paired_exact(const DenseMatrix<std::int64_t>& a, const std::vector<int>& rpt,
                                  const std::vector<std::int64_t>* mu, const run::EngineRun& run) {
    const Prepared<std::int64_t> p = prepared(a, rpt, mu);
    ExactOutcome out;
    out.arithmetic = "exact integers";
    const int photons = std::accumulate(p.r.begin(), p.r.end(), 0);
    if (photons == 0 || (!p.loops && photons % 2 != 0)) {
        out.value = photons == 0 ? 1 : 0;
        return out;
    }
    const double bound = hafnian_repeated_bound_log2(p.a, p.r, p.loops ? &p.mu : nullptr);
    if (std::isinf(bound)) {
        out.value = 0;
        return out;
    }
    const std::vector<std::uint64_t> primes = numeric::large_primes_with_spare(bound);
    std::vector<std::uint64_t> residues;
    double points = 0;
    for (const std::uint64_t prime : primes) {
        const Modular f(prime);
        const Problem<Modular> pr =
            problem_of(f, p, false, false, [&](std::int64_t v) { return f.of(v); });
        points = product_of(pr.axes, true);
        const Sum<std::uint64_t> s = paired_sum(f, pr, run);
        // × 2^−n
        std::uint64_t value = s.value;
        const std::uint64_t half = f.ratio(1, 2);
        for (int t = 0; t < p.half; ++t) {
            value = f.mul(value, half);
        }
        residues.push_back(f.f.residue(value));
    }
    out.value = numeric::crt_with_spare(residues, primes, "hafnian_repeated (paired)");
    out.primes = static_cast<int>(primes.size());
    out.gray_steps = static_cast<std::uint64_t>(points) * primes.size();
    out.arithmetic =
        "modular (" + std::to_string(primes.size()) + " primes of 62 bits, one spare) + CRT over " +
        std::to_string(static_cast<std::uint64_t>(points)) + " points of the paired copies";
    return out;
}

template <class T>
FloatOutcome hafnian_paired_float(const DenseMatrix<T>& a, const std::vector<int>& rpt,
                                  const std::vector<T>* mu, const run::EngineRun& run) {
    Prepared<T> p = prepared(a, rpt, mu);
    FloatOutcome out;
    out.arithmetic = "none";
    const int photons = std::accumulate(p.r.begin(), p.r.end(), 0);
    if (photons == 0 || (!p.loops && photons % 2 != 0)) {
        out.mantissa = photons == 0 ? 1.0 : 0.0;
        return out;
    }
    // Scale A by 4^s and mu by 2^s so the largest entry is near 1: the value scales by 4^(s·n).
    double largest = 0;
    for (vertex_t i = 0; i < p.a.rows(); ++i) {
        for (vertex_t j = 0; j < p.a.cols(); ++j) {
            if (!std::isfinite(std::abs(p.a(i, j)))) {
                throw InvalidArgument("hafnian_repeated: an entry of A is not finite");
            }
            largest = std::max(largest, std::abs(p.a(i, j)));
        }
    }
    for (const T& v : p.mu) {
        if (!std::isfinite(std::abs(v))) {
            throw InvalidArgument("hafnian_repeated: an entry of mu is not finite");
        }
        largest = std::max(largest, std::abs(v) * std::abs(v));
    }
    if (largest == 0) {
        out.mantissa = 0.0;
        return out;
    }
    const int s = -static_cast<int>(std::lround(std::log2(largest) / 2));
    for (vertex_t i = 0; i < p.a.rows(); ++i) {
        for (vertex_t j = 0; j < p.a.cols(); ++j) {
            p.a(i, j) = scaled(p.a(i, j), 2 * s);
        }
    }
    for (T& v : p.mu) {
        v = scaled(v, s);
    }
    const Floating<T> f;
    FloatSum<T> runs[2];
    double points = 0;
    // The second run: the modes reversed, the other half of the signs, and A·¾ with mu·√¾
    // (lhaf scales by ¾^n), so that no rounding is the same as in the first.
    Prepared<T> other = p;
    const long double shrink = 0.75L;
    for (vertex_t i = 0; i < other.a.rows(); ++i) {
        for (vertex_t j = 0; j < other.a.cols(); ++j) {
            other.a(i, j) *= static_cast<double>(shrink);
        }
    }
    for (T& v : other.mu) {
        v *= static_cast<double>(std::sqrt(shrink));
    }
    for (int r = 0; r < 2; ++r) {
        const Problem<Floating<T>> pr =
            problem_of(f, r == 0 ? p : other, r == 1, r == 1, [](const T& v) { return v; });
        points += product_of(pr.axes, true);
        runs[r] = paired_sum(f, pr, run);
    }
    const std::complex<double> first = runs[0].value();
    const std::complex<double> second =
        runs[1].value() * static_cast<double>(std::pow(shrink, -static_cast<long double>(p.half)));
    const std::complex<double> value = (first + second) * 0.5;
    const double magnitude = runs[0].magnitude;
    if (!std::isfinite(std::abs(value)) || !std::isfinite(magnitude)) {
        throw ProblemTooLarge(
            "the terms of the sum over the paired copies overflow double; scale the matrix");
    }
    out.mantissa = value;
    out.exponent2 = -2 * static_cast<std::int64_t>(s) * p.half - p.half;  // and the 2^−n
    // 16·|difference|; 8u·Σ|terms| and 128u·|value| for the roundings both runs make alike (the
    // series' constants, the last products), which do not show in the difference.
    out.abs_error_mantissa =
        16 * std::abs(first - second) + 128 * 0x1p-53 * std::abs(value) + 8 * 0x1p-53 * magnitude;
    out.gray_steps = static_cast<std::uint64_t>(points);
    out.arithmetic =
        std::string(std::is_same_v<T, double> ? "double" : "complex double") +
        " over the paired copies, twice in different orders (the figure an estimate from the "
        "difference), over " +
        std::to_string(static_cast<std::uint64_t>(points / 2)) + " points";
    return out;
}

template FloatOutcome hafnian_paired_float(const DenseMatrix<double>&, const std::vector<int>&,
                                           const std::vector<double>*, const run::EngineRun&);
template FloatOutcome hafnian_paired_float(const DenseMatrix<std::complex<double>>&,
                                           const std::vector<int>&,
                                           const std::vector<std::complex<double>>*,
                                           const run::EngineRun&);

}  // namespace pmcount::exact
