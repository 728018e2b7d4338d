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

#include <omp.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <optional>
#include <string>
#include <type_traits>

#include "exact/planar/pivot_outcome.hpp"
#include "numeric/crt.hpp"
#include "numeric/permanent_bound.hpp"
#include "numeric/primes.hpp"
#include "numeric/scaled.hpp"
#include "numeric/sparse_pfaffian.hpp"
#include "pmcount/error.hpp"
#include "pmcount/structure.hpp"

namespace pmcount::exact {

namespace {


/// The oriented skew-symmetric matrix K with haf(A) = constant · Pf(K), and its pairing order.
template <class T>
struct OrientedMatrix {
    int constant = 0;  ///< 0: haf(A) = 0
    vertex_t n = 0;
    std::vector<UndirectedGraph::Edge> edges;  ///< u < v
    std::vector<T> values;                     ///< a_uv for edges[e] = (u, v)
    std::vector<std::int8_t> orientation;      ///< K_uv = orientation[e]·a_uv
    numeric::PairingOrder order;
};

template <class T>
OrientedMatrix<T> oriented_matrix(const SparseMatrix<T>& a) {
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
    // (2) Orientation.
    const std::optional<std::vector<std::int8_t>> orientation = pfaffian_orientation(pattern);
    if (!orientation) {
        throw InvalidArgument(
            "pfaffian: the nonzero pattern is not a planar graph (it contains a subdivision of "
            "K_5 or K_{3,3}); use another engine");
    }
    if (k.n % 2 != 0) {
        return k;
    }
    if (k.n == 0) {
        k.constant = 1;  // the empty matching
        return k;
    }
    // (3) ε from one perfect matching.
    const GeneralMatching matching = maximum_matching(pattern);
    if (!matching.is_perfect()) {
        return k;
    }
    std::vector<vertex_t> pairs;
    pairs.reserve(static_cast<std::size_t>(k.n));
    int constant = 1;
    for (vertex_t u = 0; u < k.n; ++u) {
        const vertex_t v = matching.mate[static_cast<std::size_t>(u)];
        if (u < v) {
            pairs.push_back(u);
            pairs.push_back(v);
            const auto it =
                std::lower_bound(k.edges.begin(), k.edges.end(), UndirectedGraph::Edge{u, v});
            constant *= (*orientation)[static_cast<std::size_t>(it - k.edges.begin())];
        }
    }
    k.constant = constant * numeric::permutation_sign(pairs);
    // (4) K (its signs applied in the arithmetic of each run: −a_uv may overflow) and the order.
    k.orientation = std::move(*orientation);
    k.order = numeric::minimum_degree_pairing(pattern, matching.mate);
    return k;
}

/// K_uv for edges[e] = (u, v) in a field's arithmetic.
template <class Field, class T>
typename Field::Value oriented_entry(const Field& field, const OrientedMatrix<T>& k,
                                     std::size_t e) {
    typename Field::Value v;
    if constexpr (Field::kExact) {
        v = field.from_int(k.values[e]);
    } else {
        v = k.values[e];
    }
    return k.orientation[e] > 0 ? v : field.negate(v);
}

/// The rows of K (both K_uv and K_vu = −K_uv), each sorted.
template <class Field, class T>
numeric::SparseRows<typename Field::Value> rows_of(const Field& field, const OrientedMatrix<T>& k) {
    numeric::SparseRows<typename Field::Value> rows(static_cast<std::size_t>(k.n));
    for (std::size_t e = 0; e < k.edges.size(); ++e) {
        const auto [u, v] = k.edges[e];
        const auto value = oriented_entry(field, k, e);
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

/// haf(A) mod p = ε · sgn · Π pivots by a fresh elimination (following `follow` while usable),
/// and its record.
std::uint64_t residue_mod(const OrientedMatrix<std::int64_t>& k, std::uint64_t p,
                          const std::vector<vertex_t>& follow, numeric::PairingRecord* record) {
    const numeric::ModularField field(p);
    auto result = numeric::eliminate_pfaffian(field, rows_of(field, k), k.order, follow);
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
    return with_sign(field.residue(product), result.sign * k.constant, p);
}

/// Primes per replay: the replay's scattered accesses to the rows are shared by the lanes. On
/// the 100×100 triangular patch one prime alone takes 65 ms, 4 lanes 28 ms a prime, 8 lanes 22.
constexpr std::size_t kLanes = 8;

/// haf(A) modulo primes[first, last) (at most kLanes) into residues: one replay of the first
/// prime's schedule in lanes (the last prime repeated to fill them), or, when a pivot vanishes
/// modulo one of them, a fresh elimination per prime following the schedule's pairs.
void replayed_residues(const OrientedMatrix<std::int64_t>& k,
                       const numeric::PfaffianSchedule& schedule,
                       const std::vector<std::uint64_t>& primes, std::size_t first,
                       std::size_t last, std::vector<std::uint64_t>& residues) {
    std::array<std::uint64_t, kLanes> lanes{};
    for (std::size_t l = 0; l < kLanes; ++l) {
        lanes[l] = primes[std::min(first + l, last - 1)];
    }
    const numeric::ModularLanes<kLanes> field(lanes);
    const auto pf = numeric::replay_pfaffian(
        field, schedule, [&](std::size_t e) { return oriented_entry(field, k, e); });
    for (std::size_t i = first; i < last; ++i) {
        residues[i] = pf ? with_sign(field.residue(*pf, i - first), k.constant, primes[i])
                         : residue_mod(k, primes[i], schedule.pairs, nullptr);
    }
}

template <class T>
FloatOutcome pfaffian_float(const SparseMatrix<T>& a) {
    const OrientedMatrix<T> k = oriented_matrix(a);
    FloatOutcome out;
    out.arithmetic = std::is_same_v<T, double> ? "sparse Pfaffian in double"
                                               : "sparse Pfaffian in complex double";
    if (k.constant == 0) {
        return out;
    }
    double largest_input = 0;
    for (const T& v : k.values) {
        largest_input = std::max(largest_input, std::abs(v));
    }
    const auto result = numeric::eliminate_pfaffian(
        numeric::FloatField<T>{}, rows_of(numeric::FloatField<T>{}, k), k.order, {});
    return pivot_outcome(out, result, static_cast<double>(k.constant), k.n, largest_input);
}

}  // namespace

ExactOutcome pfaffian_exact(const SparseMatrix<std::int64_t>& a, const EngineRun& run) {
    const OrientedMatrix<std::int64_t> k = oriented_matrix(a);
    ExactOutcome out;
    out.arithmetic = "FKT Pfaffian, modular";
    if (k.constant == 0) {
        out.value = 0;
        return out;
    }
    // Off-diagonal magnitudes all 1: |haf(A)| ≤ haf(|A|), and |A| is 0-1 off the diagonal.
    const bool binary = std::all_of(k.values.begin(), k.values.end(),
                                    [](std::int64_t v) { return v == 1 || v == -1; });
    // |haf(A)| = |Pf(K)| and Pf(K)² = det(K) ≤ Π_i ‖K_i‖₂² (Hadamard), so log2|haf| ≤
    // ¼ Σ_i log2 ‖K_i‖₂²: on sparse graphs far below the general hafnian bound (a triangular
    // lattice: 0.65 against 0.79 bits a vertex, and 1.29 once contractions made weights of 2).
    std::vector<long double> squares(static_cast<std::size_t>(k.n), 0);
    for (std::size_t e = 0; e < k.edges.size(); ++e) {
        const auto v = static_cast<long double>(k.values[e]);
        squares[static_cast<std::size_t>(k.edges[e].first)] += v * v;
        squares[static_cast<std::size_t>(k.edges[e].second)] += v * v;
    }
    long double hadamard = 0;
    for (const long double s : squares) {
        hadamard += std::log2(s) / 4;  // a perfect matching exists: no row is zero
    }
    // Padded far beyond the rounding of ≤ 2n long double terms, like permanent_bound_log2.
    const double bound_log2 =
        std::min(numeric::hafnian_bound_log2(a, binary),
                 static_cast<double>(hadamard + std::fabs(hadamard) * 1e-9L + 1.0L));
    // Symmetric reconstruction needs Π p > 2·|haf| + 1; one more prime checks the result.
    const auto needed =
        static_cast<std::size_t>(std::max(0.0, bound_log2 + 1.0) / numeric::kLargePrimeLog2) + 1;
    const std::vector<std::uint64_t> primes = numeric::large_primes(needed + 1);
    std::vector<std::uint64_t> residues(primes.size());
    // The first prime chooses the pivot pairs; the others replay its schedule.
    numeric::PairingRecord record;
    residues[0] = residue_mod(k, primes[0], {}, &record);
    const bool complete = 2 * (record.front_offsets.size() - 1) == static_cast<std::size_t>(k.n);
    const numeric::PfaffianSchedule schedule =
        complete ? numeric::make_schedule(record, k.edges) : numeric::PfaffianSchedule{};

    // Batches of kLanes primes after the first, in parallel.
    ProgressThrottle progress(run);
    std::atomic<std::int64_t> done{1};
    const std::size_t count = primes.size();
    const auto batches = static_cast<std::int64_t>((count - 1 + kLanes - 1) / kLanes);
    const int threads =
        static_cast<int>(std::min<std::int64_t>(resolve_threads(run.threads), batches));
    parallel_for(batches, threads, [&](std::int64_t b) {
        const std::size_t first = 1 + static_cast<std::size_t>(b) * kLanes;
        const std::size_t last = std::min(count, first + kLanes);
        if (complete) {
            replayed_residues(k, schedule, primes, first, last, residues);
        } else {
            for (std::size_t i = first; i < last; ++i) {
                residues[i] = residue_mod(k, primes[i], record.pairs, nullptr);
            }
        }
        const std::int64_t finished =
            done.fetch_add(static_cast<std::int64_t>(last - first), std::memory_order_relaxed) +
            static_cast<std::int64_t>(last - first);
        if (omp_get_thread_num() == 0) {
            progress.report(static_cast<double>(finished) / static_cast<double>(count));
        }
    });
    out.primes = static_cast<int>(primes.size());
    out.arithmetic += " (" + std::to_string(primes.size()) + " primes of 62 bits, one spare) + CRT";
    out.value = numeric::crt_with_spare(residues, primes, "pfaffian");
    return out;
}

FloatOutcome pfaffian_real(const SparseMatrix<double>& a, const EngineRun&) {
    return pfaffian_float(a);
}

FloatOutcome pfaffian_complex(const SparseMatrix<std::complex<double>>& a, const EngineRun&) {
    return pfaffian_float(a);
}

}  // namespace pmcount::exact
