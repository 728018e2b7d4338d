// The repeated engines' terms (repeated.cpp runs them; repeated.hpp has the formulas): the walk
// over the multiplicities' points in Gray-code chunks, and the States that follow one point to
// the next — floating (double-double, each term with its error bound) and modular (Montgomery,
// one prime). Library-internal, included by repeated.cpp only.
#pragma once

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <numeric>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/stop.hpp"
#include "numeric/double_double.hpp"
#include "numeric/montgomery.hpp"
#include "pmcount/matrix.hpp"
#include "run/chunked_run.hpp"

namespace pmcount::exact::repeated {

inline constexpr double kU = 0x1p-53;

// ---- (2) Points and chunks ---------------------------------------------------------------------

/// The points Π[0, radix_i]: the first `inner` digits walked inside a chunk, the others fixed.
struct Split {
    int inner = 0;
    std::uint64_t chunks = 1;
};

/// Most chunks' partial sums held at once: the points beyond 2^16 chunks go into longer chunks.
inline constexpr double kMaxChunks = 65536;

/// About 256 points per chunk (the floating drift bound grows with the steps since a chunk's
/// start), more where there would be over kMaxChunks chunks (their sums are kept until the end).
inline Split split_of(const std::vector<int>& radix) {
    double total = 1;
    for (const int r : radix) {
        total *= r + 1;
    }
    Split s;
    double inside = 1;
    while (s.inner < static_cast<int>(radix.size()) &&
           (inside < 256 || total / inside > kMaxChunks)) {
        inside *= radix[static_cast<std::size_t>(s.inner)] + 1;
        ++s.inner;
    }
    for (std::size_t i = static_cast<std::size_t>(s.inner); i < radix.size(); ++i) {
        s.chunks *= static_cast<std::uint64_t>(radix[i] + 1);
    }
    return s;
}

/// Calls state.reset(ν) at the chunk's first point and state.step(i, ±1) for each later one (a
/// reflected mixed-radix Gray code over the inner digits), adding state.term() to `sum` at every
/// point.
template <class State, class Sum>
void walk_chunk(State& state, const std::vector<int>& radix, const Split& split,
                std::uint64_t chunk, Sum& sum) {
    std::vector<int> nu(radix.size(), 0), dir(static_cast<std::size_t>(split.inner), 1);
    for (std::size_t i = static_cast<std::size_t>(split.inner); i < radix.size(); ++i) {
        const auto base = static_cast<std::uint64_t>(radix[i] + 1);
        nu[i] = static_cast<int>(chunk % base);
        chunk /= base;
    }
    state.reset(nu);
    state.term(sum);
    for (;;) {
        int i = 0;
        while (i < split.inner) {
            const int next = nu[static_cast<std::size_t>(i)] + dir[static_cast<std::size_t>(i)];
            if (next >= 0 && next <= radix[static_cast<std::size_t>(i)]) {
                break;
            }
            dir[static_cast<std::size_t>(i)] = -dir[static_cast<std::size_t>(i)];
            ++i;
        }
        if (i == split.inner) {
            return;
        }
        nu[static_cast<std::size_t>(i)] += dir[static_cast<std::size_t>(i)];
        state.step(i, dir[static_cast<std::size_t>(i)]);
        state.term(sum);
    }
}

/// Every chunk on `threads` threads (a State per thread from make()), the sums merged in chunk
/// order. Interrupted when a stop is asked for.
template <class Sum, class Make, class Merge>
Sum walk_all(const std::vector<int>& radix, const run::EngineRun& run, Make make, Merge merge) {
    const Split split = split_of(radix);
    std::vector<Sum> partial(split.chunks);
    const int threads = run::resolve_threads(run.threads);
    const auto chunks = static_cast<std::int64_t>(split.chunks);
#pragma omp parallel num_threads(threads) if (chunks > 1)
    {
        auto state = make();
#pragma omp for schedule(dynamic, 1)
        for (std::int64_t c = 0; c < chunks; ++c) {
            if (!pmcount::detail::stop_requested()) {
                walk_chunk(state, radix, split, static_cast<std::uint64_t>(c),
                           partial[static_cast<std::size_t>(c)]);
            }
        }
    }
    pmcount::detail::throw_if_stopped("summing over the multiplicities");
    Sum total{};
    for (const Sum& p : partial) {
        merge(total, p);
    }
    return total;
}

// ---- (3) Floating terms ------------------------------------------------------------------------
//
// The terms cancel (the sieve's signs): a term's rounding in double is a fixed fraction of it, and
// the sum of those bounds over 10^5 terms was 10^6 times the actual error on 30 photons. So the
// terms are computed in double-double (relative error of +, × below 4u² = 2^−104), where the same
// bound is tight unless the terms cancel by more than 10^16; the result is rounded to double.

using DD = numeric::DoubleDouble;

/// C(r, v) in double: exact while below 2^53.
inline double binomial(int r, int v) {
    double b = 1;
    for (int t = 1; t <= v; ++t) {
        b = b * (r - v + t) / t;
    }
    return b;
}

/// A complex double-double.
struct CDD {
    DD re, im;
};
inline CDD operator+(CDD a, CDD b) {
    return {a.re + b.re, a.im + b.im};
}
inline CDD& operator+=(CDD& a, CDD b) {
    return a = a + b;
}
inline CDD operator*(CDD a, CDD b) {
    return {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
}
inline CDD& operator*=(CDD& a, CDD b) {
    return a = a * b;
}

/// The double-double type of an input type, and the conversions.
template <class T>
using Wide = std::conditional_t<std::is_same_v<T, double>, DD, CDD>;
inline DD widen(double x) {
    return DD(x);
}
inline CDD widen(std::complex<double> x) {
    return {DD(x.real()), DD(x.imag())};
}
inline DD scalar(double x, DD) {
    return DD(x);
}
inline CDD scalar(double x, CDD) {
    return {DD(x), DD(0.0)};
}
inline DD scalar(DD x, DD) {
    return x;
}
inline CDD scalar(DD x, CDD) {
    return {x, DD(0.0)};
}
/// Upper bounds of |x| (|hi + lo| ≤ |hi|·(1 + 2^−52)).
inline double magnitude(DD x) {
    return std::fabs(x.hi) * (1 + 0x1p-50);
}
inline double magnitude(CDD x) {
    return std::hypot(x.re.hi, x.im.hi) * (1 + 0x1p-50);
}
inline std::complex<double> narrow(DD x) {
    return x.to_double();
}
inline std::complex<double> narrow(CDD x) {
    return {x.re.to_double(), x.im.to_double()};
}

/// A bound on the relative error of n double-double operations in a row (complex ones round
/// each part of a product of sums: counted four times over).
inline double gamma_dd(int n) {
    return 16.0 * n * 0x1p-106;
}

/// A floating sum of terms with their error bounds; `partial` is Σ |partial sums|, since each
/// double-double addition is within 2u² of its result.
template <class S>
struct FloatSum {
    S value{};
    double error = 0;
    double partial = 0;
    std::uint64_t terms = 0;
    void add(const S& v, double e) {
        value += v;
        error += e;
        partial += magnitude(value);
        ++terms;
    }
};

template <class S>
void merge_float(FloatSum<S>& into, const FloatSum<S>& from) {
    into.value += from.value;
    into.error += from.error;
    into.partial += from.partial + magnitude(into.value);
    into.terms += from.terms;
}

/// 1/j! for j ≤ n in double-double.
inline std::vector<DD> inverse_factorials(int n) {
    std::vector<DD> f(static_cast<std::size_t>(n) + 1, DD(1.0));
    for (int j = 1; j <= n; ++j) {
        // 1/j to double-double accuracy: hi = fl(1/j), lo = (1 − j·hi)/j.
        const double hi = 1.0 / j;
        const DD inverse(hi, std::fma(-hi, j, 1.0) / j);
        f[static_cast<std::size_t>(j)] = f[static_cast<std::size_t>(j) - 1] * inverse;
    }
    return f;
}

/// Π_t (|x_t| + e_t)^(p_t) − Π_t |x_t|^(p_t) for the factors of one product, from the ratios
/// (accurate when e_t ≪ |x_t|) or directly (a zero factor).
inline double spread(const double* x, const double* e, const int* p, int count, double exact_size) {
    double log_growth = 0, direct = 1;
    bool zero = false;
    for (int t = 0; t < count; ++t) {
        if (p[t] == 0) {
            continue;
        }
        if (x[t] == 0) {
            zero = true;
        } else {
            log_growth += p[t] * std::log1p(e[t] / x[t]);
        }
        direct *= std::pow(x[t] + e[t], p[t]);
    }
    return zero ? direct * (1 + 1e-12) : exact_size * std::expm1(log_growth) * 1.01;
}

/// Σ_j c_j·q^j·l^(n−2j) (only j = n/2 without loops), c_j = 1/(j!(n−2j)!): the value and the bound
/// on its change when q, l move by up to eq, el, plus its own roundings.
template <class S>
std::pair<S, double> power_sum(const S& q, double eq, const S& l, double el, int n, bool loops,
                               const std::vector<DD>& inv_fact) {
    S value{};
    double bound = 0;
    const double mq = magnitude(q), ml = magnitude(l);
    for (int j = loops ? 0 : n / 2; 2 * j <= n; ++j) {
        const int m = n - 2 * j;
        const DD c = inv_fact[static_cast<std::size_t>(j)] * inv_fact[static_cast<std::size_t>(m)];
        S p = scalar(1.0, S{});
        for (int t = 0; t < j; ++t) {
            p *= q;
        }
        for (int t = 0; t < m; ++t) {
            p *= l;
        }
        p *= scalar(c, S{});
        value += p;
        const double size = c.hi * std::pow(mq, j) * std::pow(ml, m) * (1 + 1e-12);
        const double x[2] = {mq, ml}, e[2] = {eq, el};
        const int powers[2] = {j, m};
        bound += spread(x, e, powers, 2, size) + gamma_dd(n + 8) * size;
    }
    return {value, bound};
}

/// The hafnian's floating State: y = r − 2ν, Ay updated by ±2·a_i at each step (refreshed at a
/// chunk's start), q = yᵀAy/8 and l = μᵀy/2 fresh at every point, all in double-double.
template <class T>
class HafnianFloat {
public:
    using S = Wide<T>;
    HafnianFloat(const DenseMatrix<T>& a, const std::vector<int>& r, const std::vector<T>* mu)
        : r_(r),
          k_(static_cast<int>(r.size())),
          n_(std::accumulate(r.begin(), r.end(), 0)),
          loops_(mu != nullptr),
          inv_fact_(inverse_factorials(n_)),
          y_(r.size()),
          ay_(r.size()),
          reach_(r.size(), 0.0) {
        for (int i = 0; i < k_; ++i) {
            for (int j = 0; j < k_; ++j) {
                a_.push_back(widen(a(i, j)));
                reach_[static_cast<std::size_t>(i)] +=
                    std::abs(a(i, j)) * r_[static_cast<std::size_t>(j)] * (1 + 1e-12);
            }
            mu_.push_back(loops_ ? widen((*mu)[static_cast<std::size_t>(i)]) : S{});
        }
    }
    void reset(const std::vector<int>& nu) {
        nu_ = nu;
        for (int i = 0; i < k_; ++i) {
            y_[static_cast<std::size_t>(i)] =
                r_[static_cast<std::size_t>(i)] - 2 * nu_[static_cast<std::size_t>(i)];
        }
        for (int j = 0; j < k_; ++j) {
            S sum{};
            for (int i = 0; i < k_; ++i) {
                sum += a_[static_cast<std::size_t>(j * k_ + i)] *
                       scalar(y_[static_cast<std::size_t>(i)], S{});
            }
            ay_[static_cast<std::size_t>(j)] = sum;
        }
        steps_ = 0;
    }
    void step(int i, int d) {
        nu_[static_cast<std::size_t>(i)] += d;
        y_[static_cast<std::size_t>(i)] -= 2 * d;
        const S delta = scalar(-2.0 * d, S{});
        for (int j = 0; j < k_; ++j) {
            ay_[static_cast<std::size_t>(j)] += a_[static_cast<std::size_t>(j * k_ + i)] * delta;
        }
        ++steps_;
    }
    void term(FloatSum<S>& sum) const {
        double w = 1;
        int sign = 0;
        S quad{}, lin{};
        double quad_size = 0, drift = 0, lin_size = 0;
        const double per_step = gamma_dd(steps_ + k_ + 2);
        for (int j = 0; j < k_; ++j) {
            w *= binomial(r_[static_cast<std::size_t>(j)], nu_[static_cast<std::size_t>(j)]);
            sign += nu_[static_cast<std::size_t>(j)];
            const double y = y_[static_cast<std::size_t>(j)];
            quad += ay_[static_cast<std::size_t>(j)] * scalar(y, S{});
            quad_size += std::fabs(y) * magnitude(ay_[static_cast<std::size_t>(j)]);
            drift += std::fabs(y) * per_step * reach_[static_cast<std::size_t>(j)];
            if (loops_) {
                lin += mu_[static_cast<std::size_t>(j)] * scalar(y, S{});
                lin_size += std::fabs(y) * magnitude(mu_[static_cast<std::size_t>(j)]);
            }
        }
        // w: a product of binomials, exact below 2^53 (else within γ_k).
        const double eq = (gamma_dd(k_ + 1) * quad_size + drift) / 8;
        const double el = gamma_dd(k_ + 1) * lin_size / 2;
        const auto [value, error] = power_sum(quad * scalar(0.125, S{}), eq, lin * scalar(0.5, S{}),
                                              el, n_, loops_, inv_fact_);
        const double wrong = w < 0x1p53 ? 0.0 : 2.0 * k_ * 0x1p-53;
        sum.add(value * scalar(sign % 2 == 0 ? w : -w, S{}),
                w * (error + wrong * magnitude(value)) * (1 + 1e-12));
    }

private:
    std::vector<int> r_;
    int k_, n_;
    bool loops_;
    std::vector<DD> inv_fact_;
    std::vector<S> a_, mu_;
    std::vector<int> nu_, y_;
    std::vector<S> ay_;
    std::vector<double> reach_;  ///< Σ_i |a_ji|·r_i: a bound on |(Ay)_j| at every point
    int steps_ = 0;
};

/// The permanent's floating State: x = Aν (rows), updated by ±a_j at each step (refreshed at
/// a chunk's start); the term Π_i x_i^(r_i); double-double.
template <class T>
class PermanentFloat {
public:
    using S = Wide<T>;
    PermanentFloat(const DenseMatrix<T>& a, const std::vector<int>& r, const std::vector<int>& c)
        : r_(r),
          c_(c),
          m_(static_cast<int>(r.size())),
          n_(static_cast<int>(c.size())),
          photons_(std::accumulate(r.begin(), r.end(), 0)),
          x_(r.size()),
          reach_(r.size(), 0.0) {
        for (int i = 0; i < m_; ++i) {
            for (int j = 0; j < n_; ++j) {
                a_.push_back(widen(a(i, j)));
                reach_[static_cast<std::size_t>(i)] +=
                    std::abs(a(i, j)) * c_[static_cast<std::size_t>(j)] * (1 + 1e-12);
            }
        }
    }
    void reset(const std::vector<int>& nu) {
        nu_ = nu;
        for (int i = 0; i < m_; ++i) {
            S sum{};
            for (int j = 0; j < n_; ++j) {
                sum += a_[static_cast<std::size_t>(i * n_ + j)] *
                       scalar(nu_[static_cast<std::size_t>(j)], S{});
            }
            x_[static_cast<std::size_t>(i)] = sum;
        }
        steps_ = 0;
    }
    void step(int j, int d) {
        nu_[static_cast<std::size_t>(j)] += d;
        const S delta = scalar(d, S{});
        for (int i = 0; i < m_; ++i) {
            x_[static_cast<std::size_t>(i)] += a_[static_cast<std::size_t>(i * n_ + j)] * delta;
        }
        ++steps_;
    }
    void term(FloatSum<S>& sum) const {
        double w = 1;
        int sign = photons_;
        for (int j = 0; j < n_; ++j) {
            w *= binomial(c_[static_cast<std::size_t>(j)], nu_[static_cast<std::size_t>(j)]);
            sign += nu_[static_cast<std::size_t>(j)];
        }
        const double per_step = gamma_dd(steps_ + n_ + 2);
        S value = scalar(1.0, S{});
        double size = 1;
        std::vector<double>& x = scratch_x_;
        std::vector<double>& e = scratch_e_;
        x.resize(static_cast<std::size_t>(m_));
        e.resize(static_cast<std::size_t>(m_));
        for (int i = 0; i < m_; ++i) {
            const S xi = x_[static_cast<std::size_t>(i)];
            x[static_cast<std::size_t>(i)] = magnitude(xi);
            e[static_cast<std::size_t>(i)] = per_step * reach_[static_cast<std::size_t>(i)];
            for (int t = 0; t < r_[static_cast<std::size_t>(i)]; ++t) {
                value *= xi;
            }
            size *= std::pow(x[static_cast<std::size_t>(i)], r_[static_cast<std::size_t>(i)]);
        }
        size *= 1 + 1e-12;
        const double error =
            spread(x.data(), e.data(), r_.data(), m_, size) + gamma_dd(photons_ + n_ + 4) * size;
        const double wrong = w < 0x1p53 ? 0.0 : 2.0 * n_ * 0x1p-53;
        sum.add(value * scalar(sign % 2 == 0 ? w : -w, S{}),
                w * (error + wrong * size) * (1 + 1e-12));
    }

private:
    std::vector<int> r_, c_;
    int m_, n_, photons_;
    std::vector<S> a_;
    std::vector<int> nu_;
    std::vector<S> x_;
    std::vector<double> reach_;  ///< Σ_j |a_ij|·c_j: a bound on |x_i| at every point
    mutable std::vector<double> scratch_x_, scratch_e_;
    int steps_ = 0;
};

// ---- (3) Modular terms -------------------------------------------------------------------------

/// Arithmetic modulo one prime, values in Montgomery form.
class Mod {
public:
    explicit Mod(std::uint64_t p) : m_(p), one_(m_.to_montgomery(1)) {}
    std::uint64_t of(std::int64_t v) const {
        return m_.to_montgomery(numeric::reduce_signed(v, m_.modulus()));
    }
    std::uint64_t mul(std::uint64_t a, std::uint64_t b) const { return m_.mul(a, b); }
    std::uint64_t add(std::uint64_t a, std::uint64_t b) const {
        return numeric::add_mod(a, b, m_.modulus());
    }
    std::uint64_t sub(std::uint64_t a, std::uint64_t b) const {
        return numeric::sub_mod(a, b, m_.modulus());
    }
    std::uint64_t one() const { return one_; }
    /// The Montgomery form of 1/v for 0 < v < p.
    std::uint64_t inverse_of(std::uint64_t v) const {
        return of(static_cast<std::int64_t>(numeric::inverse_mod(v % m_.modulus(), m_.modulus())));
    }
    std::uint64_t residue(std::uint64_t v) const { return m_.redc(v); }

private:
    numeric::Montgomery64 m_;
    std::uint64_t one_;
};

struct ModSum {
    std::uint64_t value = 0;  ///< Montgomery form (0 is 0)
};

/// C(r, v) for v ≤ r in Montgomery form, per mode.
inline std::vector<std::vector<std::uint64_t>> binomials(const Mod& f, const std::vector<int>& r) {
    std::vector<std::vector<std::uint64_t>> table;
    for (const int ri : r) {
        std::vector<std::uint64_t> row(static_cast<std::size_t>(ri) + 1, f.one());
        for (int v = 1; v <= ri; ++v) {
            // C(r, v) = C(r, v − 1)·(r − v + 1)/v; v ≤ r < p is invertible.
            row[static_cast<std::size_t>(v)] =
                f.mul(f.mul(row[static_cast<std::size_t>(v) - 1], f.of(ri - v + 1)),
                      f.inverse_of(static_cast<std::uint64_t>(v)));
        }
        table.push_back(std::move(row));
    }
    return table;
}

/// The hafnian's modular State (as HafnianFloat, exactly).
class HafnianMod {
public:
    HafnianMod(const Mod& f, const DenseMatrix<std::int64_t>& a, const std::vector<int>& r,
               const std::vector<std::int64_t>* mu)
        : f_(f),
          r_(r),
          k_(static_cast<int>(r.size())),
          n_(std::accumulate(r.begin(), r.end(), 0)),
          loops_(mu != nullptr),
          binom_(binomials(f, r)),
          y_(r.size()),
          ym_(r.size()),
          ay_(r.size()) {
        for (int i = 0; i < k_; ++i) {
            for (int j = 0; j < k_; ++j) {
                a_.push_back(f.of(a(i, j)));
                two_a_.push_back(f.add(a_.back(), a_.back()));
            }
            mu_.push_back(loops_ ? f.of((*mu)[static_cast<std::size_t>(i)]) : 0);
        }
        // 1/(j!(n − 2j)!) with 8^−j·2^−(n−2j) folded in: q = yᵀAy, l = μᵀy enter unscaled.
        std::vector<std::uint64_t> inv_fact(static_cast<std::size_t>(n_) + 1, f.one());
        for (int j = 1; j <= n_; ++j) {
            inv_fact[static_cast<std::size_t>(j)] =
                f.mul(inv_fact[static_cast<std::size_t>(j) - 1],
                      f.inverse_of(static_cast<std::uint64_t>(j)));
        }
        const std::uint64_t inv2 = f.inverse_of(2), inv8 = f.inverse_of(8);
        for (int j = 0; 2 * j <= n_; ++j) {
            std::uint64_t c = f.mul(inv_fact[static_cast<std::size_t>(j)],
                                    inv_fact[static_cast<std::size_t>(n_ - 2 * j)]);
            for (int t = 0; t < j; ++t) {
                c = f.mul(c, inv8);
            }
            for (int t = 0; t < n_ - 2 * j; ++t) {
                c = f.mul(c, inv2);
            }
            coefficient_.push_back(c);
        }
    }
    void reset(const std::vector<int>& nu) {
        nu_ = nu;
        for (int i = 0; i < k_; ++i) {
            y_[static_cast<std::size_t>(i)] =
                r_[static_cast<std::size_t>(i)] - 2 * nu_[static_cast<std::size_t>(i)];
            ym_[static_cast<std::size_t>(i)] = f_.of(y_[static_cast<std::size_t>(i)]);
        }
        for (int j = 0; j < k_; ++j) {
            std::uint64_t s = 0;
            for (int i = 0; i < k_; ++i) {
                s = f_.add(s, f_.mul(a_[static_cast<std::size_t>(j * k_ + i)],
                                     ym_[static_cast<std::size_t>(i)]));
            }
            ay_[static_cast<std::size_t>(j)] = s;
        }
    }
    void step(int i, int d) {
        nu_[static_cast<std::size_t>(i)] += d;
        y_[static_cast<std::size_t>(i)] -= 2 * d;
        ym_[static_cast<std::size_t>(i)] = f_.of(y_[static_cast<std::size_t>(i)]);
        for (int j = 0; j < k_; ++j) {
            const std::uint64_t t = two_a_[static_cast<std::size_t>(j * k_ + i)];
            std::uint64_t& v = ay_[static_cast<std::size_t>(j)];
            v = d > 0 ? f_.sub(v, t) : f_.add(v, t);  // y_i moved by −2d
        }
    }
    void term(ModSum& sum) const {
        std::uint64_t w = f_.one(), q = 0, l = 0;
        int sign = 0;
        for (int i = 0; i < k_; ++i) {
            w = f_.mul(w, binom_[static_cast<std::size_t>(i)]
                                [static_cast<std::size_t>(nu_[static_cast<std::size_t>(i)])]);
            sign += nu_[static_cast<std::size_t>(i)];
            q = f_.add(q,
                       f_.mul(ym_[static_cast<std::size_t>(i)], ay_[static_cast<std::size_t>(i)]));
            l = f_.add(l,
                       f_.mul(ym_[static_cast<std::size_t>(i)], mu_[static_cast<std::size_t>(i)]));
        }
        std::uint64_t value = 0;
        for (int j = loops_ ? 0 : n_ / 2; 2 * j <= n_; ++j) {
            std::uint64_t p = coefficient_[static_cast<std::size_t>(j)];
            for (int t = 0; t < j; ++t) {
                p = f_.mul(p, q);
            }
            for (int t = 0; t < n_ - 2 * j; ++t) {
                p = f_.mul(p, l);
            }
            value = f_.add(value, p);
        }
        value = f_.mul(value, w);
        sum.value = sign % 2 == 0 ? f_.add(sum.value, value) : f_.sub(sum.value, value);
    }

private:
    const Mod& f_;
    std::vector<int> r_;
    int k_, n_;
    bool loops_;
    std::vector<std::vector<std::uint64_t>> binom_;
    std::vector<std::uint64_t> a_, two_a_, mu_, coefficient_;
    std::vector<int> nu_, y_;
    std::vector<std::uint64_t> ym_, ay_;
};

/// The permanent's modular State (as PermanentFloat, exactly).
class PermanentMod {
public:
    PermanentMod(const Mod& f, const DenseMatrix<std::int64_t>& a, const std::vector<int>& r,
                 const std::vector<int>& c)
        : f_(f),
          r_(r),
          m_(static_cast<int>(r.size())),
          n_(static_cast<int>(c.size())),
          photons_(std::accumulate(r.begin(), r.end(), 0)),
          binom_(binomials(f, c)),
          x_(r.size()) {
        for (int i = 0; i < m_; ++i) {
            for (int j = 0; j < n_; ++j) {
                a_.push_back(f.of(a(i, j)));
            }
        }
    }
    void reset(const std::vector<int>& nu) {
        nu_ = nu;
        for (int i = 0; i < m_; ++i) {
            std::uint64_t s = 0;
            for (int j = 0; j < n_; ++j) {
                s = f_.add(s, f_.mul(a_[static_cast<std::size_t>(i * n_ + j)],
                                     f_.of(nu_[static_cast<std::size_t>(j)])));
            }
            x_[static_cast<std::size_t>(i)] = s;
        }
    }
    void step(int j, int d) {
        nu_[static_cast<std::size_t>(j)] += d;
        for (int i = 0; i < m_; ++i) {
            const std::uint64_t t = a_[static_cast<std::size_t>(i * n_ + j)];
            std::uint64_t& v = x_[static_cast<std::size_t>(i)];
            v = d > 0 ? f_.add(v, t) : f_.sub(v, t);
        }
    }
    void term(ModSum& sum) const {
        std::uint64_t value = f_.one();
        int sign = photons_;
        for (int j = 0; j < n_; ++j) {
            value =
                f_.mul(value, binom_[static_cast<std::size_t>(j)]
                                    [static_cast<std::size_t>(nu_[static_cast<std::size_t>(j)])]);
            sign += nu_[static_cast<std::size_t>(j)];
        }
        for (int i = 0; i < m_; ++i) {
            for (int t = 0; t < r_[static_cast<std::size_t>(i)]; ++t) {
                value = f_.mul(value, x_[static_cast<std::size_t>(i)]);
            }
        }
        sum.value = sign % 2 == 0 ? f_.add(sum.value, value) : f_.sub(sum.value, value);
    }

private:
    const Mod& f_;
    std::vector<int> r_;
    int m_, n_, photons_;
    std::vector<std::vector<std::uint64_t>> binom_;
    std::vector<std::uint64_t> a_;
    std::vector<int> nu_;
    std::vector<std::uint64_t> x_;
};

}  // namespace pmcount::exact::repeated
