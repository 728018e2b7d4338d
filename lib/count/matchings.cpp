// Matchings of every size (pmcount/matchings.hpp).
//
// Phases: (1) the weighted graph: a symmetric integer matrix, its diagonal dropped (a bipartite
// input's two sides as one graph); (2) connected components, each with the engine predicted
// faster — the frontier DP with monomers (exact/frontier/frontier.hpp), or the loop hafnian of
// y·A + x·I (pmcount::loop_hafnian) for small dense components — and a bound on its
// |Σ_M Π_{e∈M} w_e y^|M| x^(n−2|M|)|: the frontier's own DP over |w| in double (every term
// nonnegative: sharp), else Π_v (|x| + √y Σ_u √|w_uv|) (a matching is the set of its vertices'
// choices, each vertex choosing its partner or none, and the term splits into those choices'
// factors √(y|w_uv|) or |x|); (3) primes for the product of the bounds, plus a spare
// (CountOptions::prime_set picks a disjoint set); (4) per component the residues at the points
// asked (coefficients: y = 0 … ν with ν the largest matching, found by blossom), the polynomial
// interpolated modulo each prime (Newton's forward differences: the points are 0 … ν, so the
// divided differences are Δ^k/k!); (5) the components combined modulo each prime (products,
// convolutions), then CRT with the spare for each number. Workspaces: the components' matrices
// (E), per prime a coefficient vector (n/2 + 1).
#include "pmcount/matchings.hpp"

#include <algorithm>
#include <boost/multiprecision/cpp_int.hpp>
#include <chrono>
#include <cmath>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "core/stop.hpp"
#include "count/pipeline.hpp"
#include "exact/frontier/frontier.hpp"
#include "numeric/crt.hpp"
#include "numeric/montgomery.hpp"
#include "numeric/primes.hpp"
#include "plan/cost_model.hpp"
#include "plan/engines.hpp"
#include "pmcount/count.hpp"
#include "pmcount/error.hpp"
#include "pmcount/io.hpp"
#include "pmcount/structure.hpp"
#include "run/chunked_run.hpp"

namespace pmcount {

const char* to_string(MatchingQuery query) noexcept {
    switch (query) {
        case MatchingQuery::all:
            return "all matchings";
        case MatchingQuery::polynomial:
            return "matching polynomial";
        case MatchingQuery::size:
            return "matchings of one size";
        case MatchingQuery::monomer_dimer:
            return "monomer-dimer partition function";
    }
    return "?";
}

std::string MatchingsResult::value_string() const {
    return denominator == BigInt(1) ? numerator.to_string()
                                    : numerator.to_string() + "/" + denominator.to_string();
}

namespace {

using Wide = boost::multiprecision::cpp_int;

/// A rational monomer weight num/den, den > 0, from "3", "-1/2", "0.25", "2.5e-3".
struct Rational {
    std::int64_t num = 1;
    std::int64_t den = 1;
};

Rational parse_rational(const std::string& text) {
    const auto fail = [&](const std::string& why) -> Rational {
        throw InvalidArgument("monomer weight '" + text + "': " + why +
                              " (give an integer, a fraction p/q or a decimal such as 0.25 or "
                              "1e-3, numerator and denominator within 64 bits)");
    };
    Wide num = 0, den = 1;
    std::size_t i = 0;
    bool negative = false;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) {
        negative = text[i] == '-';
        ++i;
    }
    bool digits = false;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])) != 0) {
        num = num * 10 + (text[i] - '0');
        digits = true;
        ++i;
    }
    if (i < text.size() && text[i] == '/') {
        ++i;
        Wide q = 0;
        bool q_digits = false;
        while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])) != 0) {
            q = q * 10 + (text[i] - '0');
            q_digits = true;
            ++i;
        }
        if (!digits || !q_digits || i != text.size()) {
            return fail("not a number");
        }
        if (q == 0) {
            return fail("the denominator is 0");
        }
        den = q;
    } else {
        if (i < text.size() && text[i] == '.') {
            ++i;
            while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])) != 0) {
                num = num * 10 + (text[i] - '0');
                den *= 10;
                digits = true;
                ++i;
                if (den > Wide(1) << 80) {
                    return fail("too many digits");
                }
            }
        }
        if (!digits) {
            return fail("not a number");
        }
        if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
            ++i;
            bool e_negative = false;
            if (i < text.size() && (text[i] == '+' || text[i] == '-')) {
                e_negative = text[i] == '-';
                ++i;
            }
            int e = 0;
            bool e_digits = false;
            while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])) != 0 &&
                   e < 100) {
                e = e * 10 + (text[i] - '0');
                e_digits = true;
                ++i;
            }
            if (!e_digits || e >= 100) {
                return fail(e_digits ? "exponent out of range" : "not a number");
            }
            const Wide scale = boost::multiprecision::pow(Wide(10), static_cast<unsigned>(e));
            (e_negative ? den : num) *= scale;
        }
        if (i != text.size()) {
            return fail("not a number");
        }
    }
    const Wide g = boost::multiprecision::gcd(num, den);
    if (g > 1) {
        num /= g;
        den /= g;
    }
    const Wide limit = Wide(std::numeric_limits<std::int64_t>::max());
    if (num > limit || den > limit) {
        return fail("beyond 64 bits");
    }
    return {negative ? -num.convert_to<std::int64_t>() : num.convert_to<std::int64_t>(),
            den.convert_to<std::int64_t>()};
}

/// The matrix without its diagonal and its zeros; DimensionMismatch when not square,
/// InvalidArgument when not symmetric.
SparseMatrix<std::int64_t> off_diagonal(const SparseMatrix<std::int64_t>& a) {
    counting::check_symmetric(a, "matchings of every size");
    std::vector<Triplet<std::int64_t>> entries;
    for (const auto& t : a.triplets()) {
        if (t.row != t.col && t.value != 0) {
            entries.push_back(t);
        }
    }
    return {a.rows(), a.cols(), std::move(entries)};
}

/// log2 of Π_v (|x| + √y Σ_u √|w_uv|), the degree bound of phase (2).
double bound_log2(const SparseMatrix<std::int64_t>& a, double y, double monomer) {
    double bits = 0;
    for (vertex_t v = 0; v < a.rows(); ++v) {
        double sum = 0;
        for (edge_t e = a.row_offsets()[static_cast<std::size_t>(v)];
             e < a.row_offsets()[static_cast<std::size_t>(v) + 1]; ++e) {
            sum +=
                std::sqrt(std::fabs(static_cast<double>(a.values()[static_cast<std::size_t>(e)])));
        }
        bits += std::log2(std::max(1e-300, std::fabs(monomer) + std::sqrt(y) * sum));
    }
    return bits * (1 + 1e-12) + 1;  // rounding of the sums
}

/// One connected component: its matrix, its graph and its largest matching's size.
struct Component {
    SparseMatrix<std::int64_t> matrix;
    UndirectedGraph graph;
    vertex_t matching = 0;
};

std::vector<Component> components_of(const SparseMatrix<std::int64_t>& a) {
    const std::vector<std::vector<vertex_t>> blocks = counting::connected_blocks(a);
    std::vector<std::size_t> block(static_cast<std::size_t>(a.rows()));
    std::vector<vertex_t> local(static_cast<std::size_t>(a.rows()));
    for (std::size_t b = 0; b < blocks.size(); ++b) {
        for (std::size_t i = 0; i < blocks[b].size(); ++i) {
            block[static_cast<std::size_t>(blocks[b][i])] = b;
            local[static_cast<std::size_t>(blocks[b][i])] = static_cast<vertex_t>(i);
        }
    }
    std::vector<std::vector<Triplet<std::int64_t>>> entries(blocks.size());
    std::vector<std::vector<UndirectedGraph::Edge>> edges(blocks.size());
    for (const auto& t : a.triplets()) {
        const std::size_t b = block[static_cast<std::size_t>(t.row)];
        const vertex_t u = local[static_cast<std::size_t>(t.row)];
        const vertex_t v = local[static_cast<std::size_t>(t.col)];
        entries[b].push_back({u, v, t.value});
        if (t.row < t.col) {
            edges[b].emplace_back(u, v);
        }
    }
    std::vector<Component> out;
    for (std::size_t b = 0; b < blocks.size(); ++b) {
        const auto n = static_cast<vertex_t>(blocks[b].size());
        Component c{SparseMatrix<std::int64_t>(n, n, std::move(entries[b])),
                    UndirectedGraph(n, edges[b]), 0};
        c.matching = maximum_matching(c.graph).size;
        out.push_back(std::move(c));
    }
    return out;
}

enum class Engine { frontier, loop_hafnian };

/// The engine predicted faster for one component at `points` points with `primes` primes: the
/// frontier's state visits (no parity without perfect matchings: twice the perfect-matching
/// bound) times the lanes, against one loop hafnian per point; `order` receives the frontier's.
Engine choose_engine(const Component& c, std::size_t points, std::int64_t largest_point,
                     std::int64_t monomer, std::size_t primes, const CountOptions& options,
                     exact::FrontierOrder& order) {
    const vertex_t n = c.matrix.rows();
    order = exact::frontier_order(c.graph);
    const bool frontier_fits = order.width <= exact::kMaxFrontierWidth && order.slots <= 63;
    const double lanes = static_cast<double>(points * primes);
    const double frontier_s = frontier_fits ? plan::matchings_frontier_seconds(
                                                  2 * order.states, 2 * order.peak_states, lanes,
                                                  run::resolve_threads(options.threads))
                                            : std::numeric_limits<double>::infinity();
    double hafnian_s = std::numeric_limits<double>::infinity();
    std::int64_t largest = std::abs(monomer);
    for (const std::int64_t w : c.matrix.values()) {
        largest = std::max(largest, std::abs(w) * std::max<std::int64_t>(1, largest_point));
    }
    if (n <= 64 && largest < (std::int64_t{1} << 40)) {
        plan::LeafFacts f;
        f.problem = plan::Problem::hafnian;
        f.order = n + n % 2;
        f.threads = run::resolve_threads(options.threads);
        f.arithmetic = plan::Arithmetic::exact;
        f.primes = static_cast<int>(primes) + 1;
        // The loops add about a third to the recursion (docs/photonics.md).
        hafnian_s = static_cast<double>(points) * plan::hafnian_seconds(f) * 1.35;
    }
    if (options.method == Method::frontier && !std::isinf(frontier_s)) {
        return Engine::frontier;
    }
    if (options.method == Method::hafnian && !std::isinf(hafnian_s)) {
        return Engine::loop_hafnian;
    }
    if (options.method != Method::automatic) {
        throw ProblemTooLarge(std::string("matchings of every size: --method ") +
                              to_string(options.method) + " cannot count a component of " +
                              std::to_string(n) + " vertices (frontier width " +
                              std::to_string(order.width) + "; the loop hafnian takes ≤ 64)");
    }
    if (std::isinf(frontier_s) && std::isinf(hafnian_s)) {
        throw ProblemTooLarge("matchings of every size: a component of " + std::to_string(n) +
                              " vertices has frontier width " + std::to_string(order.width) +
                              " (the frontier DP takes ≤ " +
                              std::to_string(exact::kMaxFrontierWidth) +
                              ") and is beyond the loop hafnian's 64 vertices");
    }
    return frontier_s <= hafnian_s ? Engine::frontier : Engine::loop_hafnian;
}

/// The residues of one component at `points` (and monomer weight): residues[point][prime], by
/// the frontier DP (`frontier`, prepared) or else the loop hafnian.
std::vector<std::vector<std::uint64_t>> component_residues(const Component& c,
                                                           const exact::MatchingsFrontier* frontier,
                                                           const std::vector<std::int64_t>& points,
                                                           std::int64_t monomer,
                                                           const std::vector<std::uint64_t>& primes,
                                                           const CountOptions& options) {
    if (frontier != nullptr) {
        return frontier->residues(points, monomer, primes, counting::engine_run(options)).residues;
    }
    const vertex_t n = c.matrix.rows();
    std::vector<std::vector<std::uint64_t>> out;
    CountOptions exact_options = options;
    exact_options.precision = Precision::exact;
    exact_options.method = Method::automatic;
    for (const std::int64_t y : points) {
        DenseMatrix<std::int64_t> b(n, n);
        for (const auto& t : c.matrix.triplets()) {
            b(t.row, t.col) = t.value * y;
        }
        for (vertex_t v = 0; v < n; ++v) {
            b(v, v) = monomer;
        }
        const BigInt value = loop_hafnian(b, exact_options).exact;
        std::vector<std::uint64_t> r;
        for (const std::uint64_t p : primes) {
            r.push_back(numeric::mod(value, p));
        }
        out.push_back(std::move(r));
    }
    return out;
}

/// Coefficients c_0 … c_d modulo p of the polynomial with values[j] = P(j), j = 0 … d.
std::vector<std::uint64_t> interpolate(const std::vector<std::uint64_t>& values, std::uint64_t p) {
    const std::size_t d = values.size() - 1;
    // Forward differences Δ^k P(0), divided by k!.
    std::vector<std::uint64_t> diff = values, newton(d + 1);
    std::uint64_t factorial = 1;
    for (std::size_t k = 0; k <= d; ++k) {
        if (k > 0) {
            factorial = numeric::mul_mod(factorial, k % p, p);
        }
        newton[k] = numeric::mul_mod(diff[0], numeric::inverse_mod(factorial, p), p);
        for (std::size_t j = 0; j + 1 < diff.size(); ++j) {
            diff[j] = numeric::sub_mod(diff[j + 1], diff[j], p);
        }
        diff.pop_back();
    }
    // Σ newton[k] · y(y − 1)⋯(y − k + 1), by Horner's rule on the falling factorials.
    std::vector<std::uint64_t> c{newton[d]};
    for (std::size_t k = d; k-- > 0;) {
        std::vector<std::uint64_t> next(c.size() + 1, 0);
        const std::uint64_t minus_k = numeric::reduce_signed(-static_cast<std::int64_t>(k), p);
        for (std::size_t i = 0; i < c.size(); ++i) {
            next[i + 1] = numeric::add_mod(next[i + 1], c[i], p);
            next[i] = numeric::add_mod(next[i], numeric::mul_mod(c[i], minus_k, p), p);
        }
        next[0] = numeric::add_mod(next[0], newton[k], p);
        c = std::move(next);
    }
    return c;
}

MatchingsResult count_symmetric(const SparseMatrix<std::int64_t>& given, MatchingQuery query,
                                int size, const std::string& monomer_text,
                                const CountOptions& options, vertex_t extra_vertices = 0) {
    const auto start = std::chrono::steady_clock::now();
    if (query == MatchingQuery::size && size < 0) {
        throw InvalidArgument("matchings of size " + std::to_string(size) +
                              ": the size must be 0 or more");
    }
    if (options.method != Method::automatic && options.method != Method::frontier &&
        options.method != Method::hafnian) {
        throw InvalidArgument(std::string("matchings of every size are counted by the frontier "
                                          "DP or the loop hafnian (method frontier or hafnian), "
                                          "not by method ") +
                              to_string(options.method));
    }
    if (options.prime_set < 0 || options.prime_set > 64) {
        throw InvalidArgument("prime set " + std::to_string(options.prime_set) +
                              ": choose 0 to 64");
    }
    if (options.backend == Backend::cuda) {
        throw InvalidArgument(
            "matchings of every size are counted on CPU threads; no GPU engine "
            "counts them yet");
    }
    const Rational x =
        query == MatchingQuery::monomer_dimer ? parse_rational(monomer_text) : Rational{};
    const SparseMatrix<std::int64_t> a = off_diagonal(given);
    MatchingsResult r;
    r.query = query;
    r.size = size;
    r.monomer_weight = query == MatchingQuery::monomer_dimer ? monomer_text : "";
    r.vertices = a.rows() + extra_vertices;
    r.edges = static_cast<edge_t>(a.values().size() / 2);
    // Z(x) with x = p/q: Σ_M Π w_e (q²)^|M| p^(n−2|M|) = q^n Z(x).
    const bool polynomial = query == MatchingQuery::polynomial || query == MatchingQuery::size;
    const std::int64_t y = query == MatchingQuery::monomer_dimer ? x.den : 1;
    if (query == MatchingQuery::monomer_dimer &&
        std::abs(static_cast<double>(y) * static_cast<double>(y)) >= 0x1p62) {
        throw InvalidArgument("monomer weight '" + monomer_text +
                              "': its denominator squared is beyond 62 bits");
    }
    const std::int64_t y2 = y * y;
    const std::int64_t monomer = query == MatchingQuery::monomer_dimer ? x.num : 1;
    // (2) Components, each with its engine and its bound.
    const std::vector<Component> comps = components_of(a);
    r.components = static_cast<int>(comps.size());
    const double point_y = polynomial ? 1.0 : static_cast<double>(y2);
    const double rough_primes =
        std::ceil(bound_log2(a, point_y, static_cast<double>(monomer)) / 62) + 1;
    // Per component: the frontier DP, prepared once for its bound and its residues (null for
    // the loop hafnian and for a lone vertex, a monomer).
    std::vector<std::unique_ptr<exact::MatchingsFrontier>> frontiers(comps.size());
    std::vector<std::vector<std::int64_t>> points(comps.size());
    double bound = static_cast<double>(extra_vertices) *
                   std::log2(std::max(1.0, std::fabs(static_cast<double>(monomer))));
    for (std::size_t i = 0; i < comps.size(); ++i) {
        pmcount::detail::throw_if_stopped("counting matchings of every size");
        const Component& c = comps[i];
        if (polynomial) {
            for (vertex_t j = 0; j <= c.matching; ++j) {
                points[i].push_back(j);
            }
        } else {
            points[i].push_back(y2);
        }
        if (c.matrix.rows() == 1) {
            bound += std::log2(std::max(1.0, std::fabs(static_cast<double>(monomer))));
            continue;
        }
        exact::FrontierOrder order;
        if (choose_engine(c, points[i].size(), points[i].back(), monomer,
                          static_cast<std::size_t>(rough_primes), options,
                          order) == Engine::frontier) {
            frontiers[i] = std::make_unique<exact::MatchingsFrontier>(c.matrix, order);
            bound += frontiers[i]->magnitude_log2(point_y, static_cast<double>(monomer),
                                                  counting::engine_run(options)) +
                     1e-6;
        } else {
            bound += bound_log2(c.matrix, point_y, static_cast<double>(monomer));
        }
    }
    // (3)
    const std::size_t needed =
        numeric::large_primes_with_spare(std::isinf(bound) ? 0 : bound + 1).size();
    const std::vector<std::uint64_t> all_primes =
        numeric::large_primes(needed * static_cast<std::size_t>(options.prime_set + 1));
    const std::vector<std::uint64_t> primes(all_primes.end() - static_cast<std::ptrdiff_t>(needed),
                                            all_primes.end());
    const std::size_t P = primes.size();
    // Per prime: the polynomial's coefficients (polynomial) or the value (one point).
    std::vector<std::vector<std::uint64_t>> total(P, std::vector<std::uint64_t>{1});
    std::vector<std::string> methods;
    std::size_t points_used = 0;
    // (4), (5)
    for (std::size_t i = 0; i < comps.size(); ++i) {
        pmcount::detail::throw_if_stopped("counting matchings of every size");
        const Component& c = comps[i];
        std::vector<std::vector<std::uint64_t>> part(P);  // per prime
        if (c.matrix.rows() == 1) {
            for (std::size_t l = 0; l < P; ++l) {
                part[l] = {polynomial ? 1 : numeric::reduce_signed(monomer, primes[l])};
            }
        } else {
            points_used = std::max(points_used, points[i].size());
            const auto residues =
                component_residues(c, frontiers[i].get(), points[i], monomer, primes, options);
            const std::string method = frontiers[i] ? "frontier" : "loop-hafnian";
            if (std::find(methods.begin(), methods.end(), method) == methods.end()) {
                methods.push_back(method);
            }
            for (std::size_t l = 0; l < P; ++l) {
                std::vector<std::uint64_t> values;
                for (const auto& at_point : residues) {
                    values.push_back(at_point[l]);
                }
                part[l] = polynomial ? interpolate(values, primes[l]) : values;
            }
        }
        for (std::size_t l = 0; l < P; ++l) {
            const std::uint64_t p = primes[l];
            std::vector<std::uint64_t> product(total[l].size() + part[l].size() - 1, 0);
            for (std::size_t i2 = 0; i2 < total[l].size(); ++i2) {
                for (std::size_t j = 0; j < part[l].size(); ++j) {
                    product[i2 + j] = numeric::add_mod(
                        product[i2 + j], numeric::mul_mod(total[l][i2], part[l][j], p), p);
                }
            }
            total[l] = std::move(product);
        }
    }
    // Extra (declared, untouched) vertices: unmatched in every matching.
    if (query == MatchingQuery::monomer_dimer) {
        for (std::size_t l = 0; l < P; ++l) {
            const std::uint64_t m = numeric::reduce_signed(monomer, primes[l]);
            total[l][0] = numeric::mul_mod(
                total[l][0],
                numeric::pow_mod(m, static_cast<std::uint64_t>(extra_vertices), primes[l]),
                primes[l]);
        }
    }
    const auto reconstruct = [&](std::size_t k) {
        std::vector<std::uint64_t> residues;
        for (std::size_t l = 0; l < P; ++l) {
            residues.push_back(k < total[l].size() ? total[l][k] : 0);
        }
        return numeric::crt_with_spare(residues, primes, "matchings of every size");
    };
    if (polynomial) {
        const std::size_t degree = static_cast<std::size_t>(r.vertices / 2);
        BigInt sum = 0;
        for (std::size_t k = 0; k <= degree; ++k) {
            r.coefficients.push_back(reconstruct(k));
            sum += r.coefficients.back();
        }
        if (query == MatchingQuery::size) {
            r.numerator = static_cast<std::size_t>(size) <= degree
                              ? r.coefficients[static_cast<std::size_t>(size)]
                              : BigInt(0);
            r.coefficients.clear();
        } else {
            r.numerator = sum;
        }
    } else {
        r.numerator = reconstruct(0);
    }
    if (query == MatchingQuery::monomer_dimer && x.den != 1) {
        // Z = value / q^n in lowest terms.
        Wide num(r.numerator.to_string());
        Wide den = boost::multiprecision::pow(Wide(x.den), static_cast<unsigned>(r.vertices));
        const Wide g = boost::multiprecision::gcd(num, den);
        if (g > 1) {
            num /= g;
            den /= g;
        }
        r.numerator = BigInt::from_string(num.str());
        r.denominator = BigInt::from_string(den.str());
    }
    for (const std::string& m : methods) {
        r.method += (r.method.empty() ? "" : "+") + m;
    }
    if (r.method.empty()) {
        r.method = "direct";
    }
    r.arithmetic = "modular (" + std::to_string(P) + " primes of 62 bits, one spare" +
                   (options.prime_set > 0 ? ", set " + std::to_string(options.prime_set) : "") +
                   ") + CRT";
    if (polynomial && points_used > 0) {
        r.arithmetic += ", " + std::to_string(points_used) +
                        " evaluation points and interpolation per component";
    }
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return r;
}

}  // namespace

double counting::monomer_weight_value(const std::string& text) {
    const Rational x = parse_rational(text);
    return static_cast<double>(x.num) / static_cast<double>(x.den);
}

MatchingsResult matching_polynomial(const UndirectedGraph& graph, const CountOptions& options) {
    return count_symmetric(counting::adjacency_matrix(graph), MatchingQuery::polynomial, 0, "",
                           options);
}
MatchingsResult matching_polynomial(const SparseMatrix<std::int64_t>& symmetric,
                                    const CountOptions& options) {
    return count_symmetric(symmetric, MatchingQuery::polynomial, 0, "", options);
}
MatchingsResult count_all_matchings(const UndirectedGraph& graph, const CountOptions& options) {
    return count_symmetric(counting::adjacency_matrix(graph), MatchingQuery::all, 0, "", options);
}
MatchingsResult count_all_matchings(const SparseMatrix<std::int64_t>& symmetric,
                                    const CountOptions& options) {
    return count_symmetric(symmetric, MatchingQuery::all, 0, "", options);
}
MatchingsResult count_matchings_of_size(const UndirectedGraph& graph, int size,
                                        const CountOptions& options) {
    return count_symmetric(counting::adjacency_matrix(graph), MatchingQuery::size, size, "",
                           options);
}
MatchingsResult count_matchings_of_size(const SparseMatrix<std::int64_t>& symmetric, int size,
                                        const CountOptions& options) {
    return count_symmetric(symmetric, MatchingQuery::size, size, "", options);
}
MatchingsResult monomer_dimer(const UndirectedGraph& graph, const std::string& monomer_weight,
                              const CountOptions& options) {
    return count_symmetric(counting::adjacency_matrix(graph), MatchingQuery::monomer_dimer, 0,
                           monomer_weight, options);
}
MatchingsResult monomer_dimer(const SparseMatrix<std::int64_t>& symmetric,
                              const std::string& monomer_weight, const CountOptions& options) {
    return count_symmetric(symmetric, MatchingQuery::monomer_dimer, 0, monomer_weight, options);
}

MatchingsResult count_matchings(const Input& input, MatchingQuery query,
                                const CountOptions& options, int size,
                                const std::string& monomer_weight) {
    const SparseMatrix<std::int64_t> a = std::visit(
        [&](const auto& data) -> SparseMatrix<std::int64_t> {
            using D = std::decay_t<decltype(data)>;
            if constexpr (std::is_same_v<D, UndirectedGraph>) {
                return counting::adjacency_matrix(data);
            } else if constexpr (std::is_same_v<D, BipartiteGraph>) {
                return plan::bipartite_embedding(counting::ones(data));
            } else if constexpr (std::is_same_v<D, SparseMatrix<std::int64_t>>) {
                return input.hafnian ? data : plan::bipartite_embedding(data);
            } else if constexpr (std::is_same_v<D, Digraph>) {
                throw InvalidArgument(input.source +
                                      ": matchings are counted on undirected graphs; this is a "
                                      "digraph (read it as a bipartite graph or a general one)");
            } else {
                throw InvalidArgument(input.source +
                                      ": matchings of every size are counted for integer weights; "
                                      "this matrix has real or complex entries");
            }
        },
        input.data);
    // Vertices a huge header declares and no entry touches: unmatched in every matching.
    vertex_t extra = 0;
    if (input.isolated) {
        const vertex_t declared =
            input.is_general() ? input.isolated->rows : input.isolated->rows + input.isolated->cols;
        extra = std::max<vertex_t>(0, declared - a.rows());
    }
    return count_symmetric(a, query, size, monomer_weight, options, extra);
}

}  // namespace pmcount
