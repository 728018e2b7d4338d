// The planar engine for general graphs (see pfaffian.hpp).
//
// Phases: (1) symmetric check and the off-diagonal nonzero pattern as an undirected graph;
// (2) FKT orientation (embedding, faces, dual forest); (3) a perfect matching M₀ (Edmonds) and
// ε = sgn(π_M₀)·Π_{uv ∈ M₀} o_uv; (4) the oriented skew matrix K and the minimum degree order of
// the pairs of M₀; (5) Pf(K): a full elimination modulo the first prime chooses the pivot pairs
// and records the fill, the other primes replay that schedule kLanes at a time, in parallel
// (numeric/sparse_pfaffian.hpp); in floating point one elimination; (6) haf = ε·Pf, CRT with the
// spare's check.
// Workspaces: the pattern (2E), orientation (E), K's rows during the first elimination (2E
// growing to the fill), the schedule (fill/2 + 3n), per thread the replay's values (kLanes
// residues per slot, fill/2 + n slots), the residues (one per prime).
#include "exact/planar/pfaffian.hpp"

#include <algorithm>
#include <array>
#include <optional>
#include <string>
#include <type_traits>

#include "exact/planar/pivot_outcome.hpp"
#include "exact/planar/surface.hpp"
#include "exact/planar/torus_fourier.hpp"
#include "numeric/crt.hpp"
#include "numeric/montgomery.hpp"
#include "numeric/permanent_bound.hpp"
#include "numeric/scaled.hpp"
#include "numeric/sparse_pfaffian.hpp"
#include "pmcount/error.hpp"
#include "pmcount/structure.hpp"

namespace pmcount::exact {

namespace {

/// The oriented skew-symmetric matrices K_i with haf(A) = 2^−halvings · Σ_i constants[i] · Pf(K_i)
/// (one for a plane graph, 4^g for genus g: surface.hpp), and their pairing order.
template <class T>
struct OrientedMatrix {
    std::vector<int> constants;  ///< ±1 each; none: haf(A) = 0
    int halvings = 0;
    vertex_t n = 0;
    std::vector<UndirectedGraph::Edge> edges;            ///< u < v
    std::vector<T> values;                               ///< a_uv for edges[e] = (u, v)
    std::vector<std::vector<std::int8_t>> orientations;  ///< K_uv = orientations[i][e]·a_uv
    numeric::PairingOrder order;
};

/// The oriented matrices of `a`: by FKT when `embedding` is null (the pattern must be planar),
/// else by the embedding's Kasteleyn orientations.
template <class T>
OrientedMatrix<T> oriented_matrix(const SparseMatrix<T>& a, const Embedding* embedding) {
    if (!a.is_square()) {
        throw DimensionMismatch("pfaffian needs a square matrix, got " + std::to_string(a.rows()) +
                                "×" + std::to_string(a.cols()));
    }
    // (1) Off-diagonal nonzeros above the diagonal, in the order of UndirectedGraph::edges()
    // (row, then column, ascending); every stored entry must equal its mirror.
    OrientedMatrix<T> k;
    k.n = a.rows();
    for (vertex_t r = 0; r < a.rows(); ++r) {
        for (edge_t e = a.row_offsets()[static_cast<std::size_t>(r)];
             e < a.row_offsets()[static_cast<std::size_t>(r) + 1]; ++e) {
            const vertex_t c = a.col_indices()[static_cast<std::size_t>(e)];
            const T& v = a.values()[static_cast<std::size_t>(e)];
            if (c == r) {
                continue;
            }
            if (a.at(c, r) != v) {
                throw InvalidArgument("pfaffian: the matrix is not symmetric: entry (" +
                                      std::to_string(r) + ", " + std::to_string(c) +
                                      ") differs from (" + std::to_string(c) + ", " +
                                      std::to_string(r) + ")");
            }
            if (c > r && v != T{}) {
                k.edges.emplace_back(r, c);
                k.values.push_back(v);
            }
        }
    }
    const UndirectedGraph pattern(a.rows(), k.edges);
    // (2) Orientation. An embedding's orientations need M₀ (below); a count of 0 without them
    // still checks the embedding against the pattern.
    std::optional<std::vector<std::int8_t>> orientation;
    const auto zero = [&]() -> OrientedMatrix<T>& {
        if (embedding != nullptr) {
            surface_genus(pattern, *embedding);
        }
        return k;
    };
    if (embedding == nullptr) {
        orientation = pfaffian_orientation(pattern);
        if (!orientation) {
            throw InvalidArgument(
                "pfaffian: the nonzero pattern is not a planar graph (it contains a subdivision "
                "of K_5 or K_{3,3}); use another engine");
        }
    }
    if (k.n % 2 != 0) {
        return zero();
    }
    if (k.n == 0) {
        k.constants.assign(1, 1);  // the empty matching
        k.orientations.emplace_back();
        return zero();
    }
    // (3) ε_i from one perfect matching M₀: the sign of its term in Pf(K_i).
    const GeneralMatching matching = maximum_matching(pattern);
    if (!matching.is_perfect()) {
        return zero();
    }
    std::vector<int> signs{1};
    if (embedding != nullptr) {
        SurfaceOrientations surface = surface_orientations(pattern, *embedding, matching.mate);
        k.orientations = std::move(surface.orientations);
        k.halvings = surface.genus;
        signs = std::move(surface.signs);
    } else {
        k.orientations.push_back(std::move(*orientation));
    }
    std::vector<vertex_t> pairs;
    pairs.reserve(static_cast<std::size_t>(k.n));
    std::vector<std::size_t> matched_edges;
    for (vertex_t u = 0; u < k.n; ++u) {
        const vertex_t v = matching.mate[static_cast<std::size_t>(u)];
        if (u < v) {
            pairs.push_back(u);
            pairs.push_back(v);
            const auto it =
                std::lower_bound(k.edges.begin(), k.edges.end(), UndirectedGraph::Edge{u, v});
            matched_edges.push_back(static_cast<std::size_t>(it - k.edges.begin()));
        }
    }
    const int pairing_sign = numeric::permutation_sign(pairs);
    for (std::size_t i = 0; i < k.orientations.size(); ++i) {
        int constant = pairing_sign * signs[i];
        for (const std::size_t e : matched_edges) {
            constant *= k.orientations[i][e];
        }
        k.constants.push_back(constant);
    }
    // (4) K (its signs applied in the arithmetic of each run: −a_uv may overflow) and the order.
    k.order = numeric::minimum_degree_pairing(pattern, matching.mate);
    return k;
}

/// (K_i)_uv for edges[e] = (u, v) in a field's arithmetic.
template <class Field, class T>
typename Field::Value oriented_entry(const Field& field, const OrientedMatrix<T>& k, std::size_t i,
                                     std::size_t e) {
    typename Field::Value v;
    if constexpr (Field::kExact) {
        v = field.from_int(k.values[e]);
    } else {
        v = k.values[e];
    }
    return k.orientations[i][e] > 0 ? v : field.negate(v);
}

/// The rows of K_i (both K_uv and K_vu = −K_uv), each sorted.
template <class Field, class T>
numeric::SparseRows<typename Field::Value> rows_of(const Field& field, const OrientedMatrix<T>& k,
                                                   std::size_t i) {
    numeric::SparseRows<typename Field::Value> rows(static_cast<std::size_t>(k.n));
    for (std::size_t e = 0; e < k.edges.size(); ++e) {
        const auto [u, v] = k.edges[e];
        const auto value = oriented_entry(field, k, i, e);
        rows[static_cast<std::size_t>(u)].push_back({v, value});
        rows[static_cast<std::size_t>(v)].push_back({u, field.negate(value)});
    }
    for (auto& row : rows) {
        std::sort(row.begin(), row.end(),
                  [](const auto& x, const auto& y) { return x.col < y.col; });
    }
    return rows;
}

/// ±r mod p.
std::uint64_t with_sign(std::uint64_t r, int sign, std::uint64_t p) {
    return sign > 0 || r == 0 ? r : p - r;
}

/// constants[i] · Pf(K_i) mod p = ε_i · sgn · Π pivots by a fresh elimination (following
/// `follow` while usable), and its record.
std::uint64_t residue_mod(const OrientedMatrix<std::int64_t>& k, std::size_t i, std::uint64_t p,
                          const std::vector<vertex_t>& follow, numeric::PairingRecord* record) {
    const numeric::ModularField field(p);
    auto result = numeric::eliminate_pfaffian(field, rows_of(field, k, i), k.order, follow);
    if (record != nullptr) {
        *record = std::move(result.record);
    }
    if (result.singular) {
        return 0;
    }
    std::uint64_t product = field.one();
    for (const std::uint64_t pivot : result.pivots) {
        product = field.mul(product, pivot);
    }
    return with_sign(field.residue(product), result.sign * k.constants[i], p);
}

/// Primes per replay: the replay's scattered accesses to the rows are shared by the lanes. On
/// the 100×100 triangular patch one prime alone takes 65 ms, 4 lanes 28 ms a prime, 8 lanes 22.
constexpr std::size_t kLanes = 8;

/// constants[i] · Pf(K_i) modulo primes[first, last) (at most kLanes) into residues: one replay
/// of the first prime's schedule in lanes (the last prime repeated to fill them), or, when a
/// pivot vanishes modulo one of them, a fresh elimination per prime following the schedule's
/// pairs.
void replayed_residues(const OrientedMatrix<std::int64_t>& k, std::size_t i,
                       const numeric::PfaffianSchedule& schedule,
                       const std::vector<std::uint64_t>& primes, std::size_t first,
                       std::size_t last, std::vector<std::uint64_t>& residues) {
    std::array<std::uint64_t, kLanes> lanes{};
    for (std::size_t l = 0; l < kLanes; ++l) {
        lanes[l] = primes[std::min(first + l, last - 1)];
    }
    const numeric::ModularLanes<kLanes> field(lanes);
    const auto pf = numeric::replay_pfaffian(
        field, schedule, [&](std::size_t e) { return oriented_entry(field, k, i, e); });
    for (std::size_t j = first; j < last; ++j) {
        residues[j] = pf ? with_sign(field.residue(*pf, j - first), k.constants[i], primes[j])
                         : residue_mod(k, i, primes[j], schedule.pairs, nullptr);
    }
}

template <class T>
FloatOutcome pfaffian_float(const SparseMatrix<T>& a, const Embedding* embedding) {
    const OrientedMatrix<T> k = oriented_matrix(a, embedding);
    FloatOutcome out;
    out.arithmetic =
        std::string("sparse Pfaffian") +
        (k.orientations.size() > 1 ? " (" + std::to_string(k.orientations.size()) + " orientations)"
                                   : "") +
        (std::is_same_v<T, double> ? " in double" : " in complex double");
    if (k.constants.empty()) {
        return out;
    }
    double largest_input = 0;
    for (const T& v : k.values) {
        largest_input = std::max(largest_input, std::abs(v));
    }
    // 2^−halvings · Σ_i constants[i]·Pf(K_i), each term's error estimate added up.
    numeric::Scaled value, error;
    for (std::size_t i = 0; i < k.orientations.size(); ++i) {
        const auto result = numeric::eliminate_pfaffian(
            numeric::FloatField<T>{}, rows_of(numeric::FloatField<T>{}, k, i), k.order, {});
        const FloatOutcome term =
            pivot_outcome(out, result, static_cast<double>(k.constants[i]), k.n, largest_input);
        value = value + numeric::Scaled::from(term.mantissa, term.exponent2 - k.halvings);
        error = error + numeric::Scaled::from(term.abs_error_mantissa, term.exponent2 - k.halvings);
    }
    out.mantissa = value.mantissa;
    out.exponent2 = value.exponent;
    out.abs_error_mantissa = std::ldexp(std::abs(error.mantissa),
                                        static_cast<int>(std::clamp<std::int64_t>(
                                            error.exponent - value.exponent, -100000, 100000)));
    return out;
}

ExactOutcome exact_pfaffians(const SparseMatrix<std::int64_t>& a, const Embedding* embedding,
                             const run::EngineRun& run) {
    if (embedding != nullptr && embedding->cells) {
        if (std::optional<ExactOutcome> fourier = torus_fourier_exact(a, *embedding, run)) {
            return std::move(*fourier);
        }
    }
    const OrientedMatrix<std::int64_t> k = oriented_matrix(a, embedding);
    ExactOutcome out;
    out.arithmetic = embedding != nullptr ? "Kasteleyn Pfaffians on the surface, modular"
                                          : "FKT Pfaffian, modular";
    if (k.constants.empty()) {
        out.value = 0;
        return out;
    }
    const std::vector<std::uint64_t> primes =
        numeric::large_primes_with_spare(pfaffian_bound_log2(a));
    const std::size_t count = primes.size();
    const std::size_t orientations = k.orientations.size();
    std::vector<std::vector<std::uint64_t>> terms(orientations, std::vector<std::uint64_t>(count));
    // The first prime chooses the pivot pairs for the first orientation; every other (prime,
    // orientation) replays its schedule: the orientations share the pattern.
    numeric::PairingRecord record;
    terms[0][0] = residue_mod(k, 0, primes[0], {}, &record);
    const bool complete = 2 * (record.front_offsets.size() - 1) == static_cast<std::size_t>(k.n);
    const numeric::PfaffianSchedule schedule =
        complete ? numeric::make_schedule(record, k.edges) : numeric::PfaffianSchedule{};

    // Batches of kLanes primes (after the first for the first orientation), in parallel.
    const std::size_t per_orientation = (count + kLanes - 1) / kLanes;
    const auto batch_range = [&](std::int64_t b) {
        const std::size_t i = static_cast<std::size_t>(b) / per_orientation;
        const std::size_t first = std::max<std::size_t>(
            i == 0 ? 1 : 0, static_cast<std::size_t>(b) % per_orientation * kLanes);
        return std::array<std::size_t, 3>{
            i, first,
            std::min(count, static_cast<std::size_t>(b) % per_orientation * kLanes + kLanes)};
    };
    const auto batches = static_cast<std::int64_t>(orientations * per_orientation);
    run::parallel_units(batches, static_cast<std::int64_t>(count * orientations), 1, run,
                        [&](std::int64_t b) -> std::int64_t {
                            const auto [i, first, last] = batch_range(b);
                            if (first >= last) {
                                return 0;
                            }
                            if (complete) {
                                replayed_residues(k, i, schedule, primes, first, last, terms[i]);
                            } else {
                                for (std::size_t j = first; j < last; ++j) {
                                    terms[i][j] =
                                        residue_mod(k, i, primes[j], record.pairs, nullptr);
                                }
                            }
                            return static_cast<std::int64_t>(last - first);
                        });
    std::vector<std::uint64_t> residues(count);
    for (std::size_t j = 0; j < count; ++j) {
        const std::uint64_t p = primes[j];
        std::uint64_t sum = 0;
        for (std::size_t i = 0; i < orientations; ++i) {
            sum = numeric::add_mod(sum, terms[i][j], p);
        }
        residues[j] = numeric::mul_mod(
            sum,
            numeric::inverse_mod(numeric::pow_mod(2, static_cast<std::uint64_t>(k.halvings), p), p),
            p);
    }
    out.primes = static_cast<int>(count);
    out.arithmetic += " (" + std::to_string(count) + " primes of 62 bits, one spare";
    out.arithmetic +=
        orientations > 1 ? ", " + std::to_string(orientations) + " orientations)" : ")";
    out.arithmetic += " + CRT";
    out.value = numeric::crt_with_spare(residues, primes, "pfaffian");
    return out;
}

}  // namespace

double pfaffian_bound_log2(const SparseMatrix<std::int64_t>& a) {
    // Off-diagonal magnitudes all 1: |haf(A)| ≤ haf(|A|), and |A| is 0-1 off the diagonal.
    bool binary = true;
    // |Pf(K)|² = det(K) ≤ Π_v ‖row v of K‖₂² (Hadamard), the same for every orientation, and a
    // surface's |haf(A)| ≤ max over its orientations of |Pf(K)|: on sparse graphs far below the
    // general hafnian bound (a triangular lattice: 0.65 against 0.79 bits a vertex, and 1.29
    // once contractions made weights of 2).
    std::vector<long double> squares(static_cast<std::size_t>(a.rows()), 0);
    for (const auto& t : a.triplets()) {
        if (t.row != t.col && t.value != 0) {
            binary = binary && (t.value == 1 || t.value == -1);
            const auto v = static_cast<long double>(t.value);
            squares[static_cast<std::size_t>(t.row)] += v * v;
        }
    }
    long double hadamard = 0;
    for (const long double s : squares) {
        hadamard += std::log2(s) / 4;
    }
    // Padded far beyond the rounding of ≤ 2n long double terms, like permanent_bound_log2.
    return std::min(numeric::hafnian_bound_log2(a, binary),
                    static_cast<double>(hadamard + std::fabs(hadamard) * 1e-9L + 1.0L));
}

ExactOutcome pfaffian_exact(const SparseMatrix<std::int64_t>& a, const run::EngineRun& run) {
    return exact_pfaffians(a, nullptr, run);
}

FloatOutcome pfaffian_real(const SparseMatrix<double>& a, const run::EngineRun&) {
    return pfaffian_float(a, nullptr);
}

FloatOutcome pfaffian_complex(const SparseMatrix<std::complex<double>>& a, const run::EngineRun&) {
    return pfaffian_float(a, nullptr);
}

ExactOutcome surface_pfaffian_exact(const SparseMatrix<std::int64_t>& a, const Embedding& embedding,
                                    const run::EngineRun& run) {
    return exact_pfaffians(a, &embedding, run);
}

FloatOutcome surface_pfaffian_real(const SparseMatrix<double>& a, const Embedding& embedding) {
    return pfaffian_float(a, &embedding);
}

FloatOutcome surface_pfaffian_complex(const SparseMatrix<std::complex<double>>& a,
                                      const Embedding& embedding) {
    return pfaffian_float(a, &embedding);
}

}  // namespace pmcount::exact
