// The torus's four Pfaffians by Fourier transform (see torus_fourier.hpp).
//
// Phases: (1) the nonzero pattern; (2) for each grouping of 1×1, 1×2, 2×1, 2×2 cells: every
// vertex's cell and site, every edge's class (its ends' sites and the cells between them, up to
// translation), checked to repeat in every cell with one weight, then a Kasteleyn orientation
// constant on classes (GF(2) over the faces); (3) a perfect matching M₀, the four twisted
// orientations, their signs (−1)^Arf (surface_signs checks them) and ε; (4) per prime, the four
// products of small determinants over the wave vectors; (5) haf = ½ Σ ±Pf, CRT with the spare.
// Workspaces: per edge its class, direction and seam crossings (E), the orientations (4E), per
// thread the root tables (2R + 2C) and one b×b matrix.
#include "exact/planar/torus_fourier.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <numeric>
#include <string>
#include <vector>

#include "exact/planar/pfaffian.hpp"
#include "exact/planar/surface.hpp"
#include "exact/torus_cells.hpp"
#include "numeric/crt.hpp"
#include "numeric/elimination_fields.hpp"
#include "numeric/montgomery.hpp"
#include "numeric/primes.hpp"
#include "pmcount/error.hpp"
#include "pmcount/structure.hpp"

namespace pmcount::exact {

namespace {

/// A directed bond of K before the twist: K[(x, from), (x + (di, dj), to)] = value.
struct Term {
    int from, to, di, dj;
    std::int64_t value;
};

/// The tiling grouped into cells of fa×fb, with its translation-invariant orientation.
struct Tiling {
    TorusGrid grid;
    std::vector<vertex_t> place;               ///< vertex → sites·(i·cols + j) + s
    std::vector<std::int8_t> orientation;      ///< per edge, +1: u → v
    std::vector<char> cross_rows, cross_cols;  ///< per edge: wraps from the last row (column)
    std::vector<Term> terms;                   ///< both directions of every class, oriented
};

std::optional<Tiling> tiling_of(const WeightedEdges& p, const Embedding& embedding, vertex_t fa,
                                vertex_t fb) {
    std::optional<CellTiling> cells = cell_tiling(p, *embedding.cells, fa, fb);
    if (!cells || cells->sites % 2 != 0 || cells->sites > 16 || cells->classes.size() > 63) {
        return std::nullopt;
    }
    Tiling t;
    TorusGrid& g = t.grid;
    g.rows = cells->rows;
    g.cols = cells->cols;
    g.sites = static_cast<int>(cells->sites);
    g.classes = static_cast<int>(cells->classes.size());
    for (vertex_t v = 0; v < p.graph.num_vertices(); ++v) {
        t.place.push_back(cells->place(v));
    }
    std::optional<std::vector<std::int8_t>> orientation = class_kasteleyn_orientation(
        p.graph, embedding, cells->edge_class, cells->direction, g.classes);
    if (!orientation) {
        return std::nullopt;
    }
    t.orientation = std::move(*orientation);
    t.cross_rows = std::move(cells->cross_rows);
    t.cross_cols = std::move(cells->cross_cols);
    std::vector<int> class_sign(static_cast<std::size_t>(g.classes), 0);
    for (std::size_t e = 0; e < t.orientation.size(); ++e) {
        class_sign[static_cast<std::size_t>(cells->edge_class[e])] =
            t.orientation[e] * cells->direction[e];
    }
    for (std::size_t c = 0; c < cells->classes.size(); ++c) {
        const CellClass& k = cells->classes[c];
        const std::int64_t w = k.weight * class_sign[c];
        t.terms.push_back({static_cast<int>(k.from), static_cast<int>(k.to),
                           static_cast<int>(k.di), static_cast<int>(k.dj), w});
        t.terms.push_back({static_cast<int>(k.to), static_cast<int>(k.from),
                           static_cast<int>(-k.di), static_cast<int>(-k.dj), -w});
    }
    return t;
}

std::optional<Tiling> find_tiling(const WeightedEdges& p, const Embedding& embedding) {
    if (!embedding.cells ||
        embedding.rotation.size() != static_cast<std::size_t>(p.graph.num_vertices())) {
        return std::nullopt;
    }
    for (const auto& [fa, fb] :
         std::array<std::pair<vertex_t, vertex_t>, 4>{{{1, 1}, {1, 2}, {2, 1}, {2, 2}}}) {
        if (std::optional<Tiling> t = tiling_of(p, embedding, fa, fb)) {
            return t;
        }
    }
    return std::nullopt;
}

/// Modulo one prime: the small matrices M(k) and their determinants or Pfaffians.
class FourierField {
public:
    FourierField(std::uint64_t p, const TorusGrid& grid, const std::vector<Term>& terms)
        : field_(p), p_(p), grid_(grid) {
        const auto b = static_cast<std::size_t>(grid.sites);
        matrix_.assign(b * b, 0);
        // Terms grouped by their offset g, each group's weights in Montgomery form.
        std::map<std::pair<int, int>, std::size_t> group;
        for (const Term& t : terms) {
            const auto [it, fresh] = group.emplace(std::make_pair(t.di, t.dj), offsets_.size());
            if (fresh) {
                offsets_.push_back({t.di, t.dj, {}});
            }
            offsets_[it->second].entries.push_back(
                {static_cast<std::size_t>(t.from) * b + static_cast<std::size_t>(t.to),
                 field_.from_int(t.value)});
        }
        row_roots_ = powers(2 * grid.rows);
        col_roots_ = powers(2 * grid.cols);
    }

    /// Pf(K_θφ) mod p.
    std::uint64_t pfaffian(int theta, int phi) {
        const vertex_t rows = grid_.rows, cols = grid_.cols;
        std::uint64_t product = field_.one();
        denominator_ = field_.one();
        for (vertex_t k1 = 0; k1 < rows; ++k1) {
            const vertex_t p1 = ((-k1 - theta) % rows + rows) % rows;
            for (vertex_t k2 = 0; k2 < cols; ++k2) {
                const vertex_t p2 = ((-k2 - phi) % cols + cols) % cols;
                const std::int64_t k = std::int64_t{k1} * cols + k2;
                const std::int64_t partner = std::int64_t{p1} * cols + p2;
                if (partner < k) {
                    continue;  // its pair was taken at the partner
                }
                fill(2 * k1 + theta, 2 * k2 + phi);
                product = field_.mul(product, partner == k ? small_pfaffian() : determinant());
            }
        }
        if (denominator_ != field_.one()) {
            product = product == 0 ? 0 : field_.mul(product, field_.inverse(denominator_));
        }
        return field_.residue(product);
    }

private:
    struct Offset {
        int di, dj;
        std::vector<std::pair<std::size_t, std::uint64_t>> entries;
    };

    /// ζ^e for e in [0, n), ζ a primitive n-th root of unity, Montgomery form.
    std::vector<std::uint64_t> powers(vertex_t n) const {
        const std::uint64_t root = field_.from_int(static_cast<std::int64_t>(
            numeric::primitive_root_of_unity(static_cast<std::uint64_t>(n), p_)));
        std::vector<std::uint64_t> out(static_cast<std::size_t>(n));
        std::uint64_t x = field_.one();
        for (auto& v : out) {
            v = x;
            x = field_.mul(x, root);
        }
        return out;
    }

    /// M(k) = Σ_g α^(−g) A_g with α_rows = ζ^(a1), α_cols = ζ^(a2).
    void fill(std::int64_t a1, std::int64_t a2) {
        std::fill(matrix_.begin(), matrix_.end(), 0);
        const std::int64_t n1 = 2 * std::int64_t{grid_.rows}, n2 = 2 * std::int64_t{grid_.cols};
        for (const Offset& o : offsets_) {
            const std::uint64_t w =
                field_.mul(row_roots_[static_cast<std::size_t>(((-a1 * o.di) % n1 + n1) % n1)],
                           col_roots_[static_cast<std::size_t>(((-a2 * o.dj) % n2 + n2) % n2)]);
            for (const auto& [at, value] : o.entries) {
                matrix_[at] = numeric::add_mod(matrix_[at], field_.mul(w, value), p_);
            }
        }
    }

    std::uint64_t& at(std::size_t i, std::size_t j) {
        return matrix_[i * static_cast<std::size_t>(grid_.sites) + j];
    }

    /// det of the b×b matrix times the pivots' powers it adds to denominator_, by elimination
    /// without division (the matrix is overwritten): row r ← pivot·row r − a_rc·row c multiplies
    /// the determinant by the pivot once per row below it, so det = Π diagonal / Π pivot^(b−c−1),
    /// and one inversion per Pfaffian takes the denominators out of the product.
    std::uint64_t determinant() {
        const auto b = static_cast<std::size_t>(grid_.sites);
        if (b == 2) {
            return field_.sub(field_.mul(at(0, 0), at(1, 1)), field_.mul(at(0, 1), at(1, 0)));
        }
        std::uint64_t det = field_.one();
        for (std::size_t c = 0; c < b; ++c) {
            std::size_t pivot = c;
            while (pivot < b && at(pivot, c) == 0) {
                ++pivot;
            }
            if (pivot == b) {
                return 0;
            }
            if (pivot != c) {
                for (std::size_t j = c; j < b; ++j) {
                    std::swap(at(pivot, j), at(c, j));
                }
                det = field_.negate(det);
            }
            const std::uint64_t a = at(c, c);
            det = field_.mul(det, a);
            for (std::size_t r = c + 1; r < b; ++r) {
                const std::uint64_t f = at(r, c);
                for (std::size_t j = c + 1; j < b; ++j) {
                    at(r, j) = field_.sub(field_.mul(a, at(r, j)), field_.mul(f, at(c, j)));
                }
                denominator_ = field_.mul(denominator_, a);
            }
        }
        return det;
    }

    /// Pf of the skew-symmetric b×b matrix: Pf(A) = a₀₁·Pf(A′), A′ = the Schur complement of
    /// the leading 2×2 block, A′_ij = A_ij + (A_i0·A_1j − A_i1·A_0j)/a₀₁ (after moving a nonzero
    /// entry of the first row to column 1, which flips the sign).
    std::uint64_t small_pfaffian() {
        const auto b = static_cast<std::size_t>(grid_.sites);
        std::uint64_t pf = field_.one();
        for (std::size_t s = 0; s + 1 < b; s += 2) {
            std::size_t j = s + 1;
            while (j < b && at(s, j) == 0) {
                ++j;
            }
            if (j == b) {
                return 0;
            }
            if (j != s + 1) {  // swap rows and columns j and s + 1
                for (std::size_t x = 0; x < b; ++x) {
                    std::swap(at(j, x), at(s + 1, x));
                }
                for (std::size_t x = 0; x < b; ++x) {
                    std::swap(at(x, j), at(x, s + 1));
                }
                pf = field_.negate(pf);
            }
            const std::uint64_t a = at(s, s + 1);
            pf = field_.mul(pf, a);
            if (s + 2 >= b) {
                break;
            }
            const std::uint64_t inverse = field_.inverse(a);
            for (std::size_t r = s + 2; r < b; ++r) {
                for (std::size_t c = s + 2; c < b; ++c) {
                    const std::uint64_t cross = field_.sub(field_.mul(at(r, s), at(s + 1, c)),
                                                           field_.mul(at(r, s + 1), at(s, c)));
                    at(r, c) = numeric::add_mod(at(r, c), field_.mul(cross, inverse), p_);
                }
            }
        }
        return pf;
    }

    numeric::ModularField field_;
    std::uint64_t p_;
    TorusGrid grid_;
    std::vector<Offset> offsets_;
    std::vector<std::uint64_t> row_roots_, col_roots_, matrix_;
    std::uint64_t denominator_ = 0;  ///< of the determinants since pfaffian() began
};

}  // namespace

std::optional<TorusGrid> torus_grid(const SparseMatrix<std::int64_t>& a,
                                    const Embedding& embedding) {
    if (!a.is_square() || !embedding.cells) {
        return std::nullopt;
    }
    const std::optional<Tiling> t = find_tiling(weighted_edges(a), embedding);
    return t ? std::optional<TorusGrid>(t->grid) : std::nullopt;
}

std::optional<ExactOutcome> torus_fourier_exact(const SparseMatrix<std::int64_t>& a,
                                                const Embedding& embedding,
                                                const run::EngineRun& run) {
    if (!a.is_square() || !embedding.cells) {
        return std::nullopt;
    }
    // (1), (2)
    const WeightedEdges p = weighted_edges(a);
    const std::optional<Tiling> tiling = find_tiling(p, embedding);
    if (!tiling) {
        return std::nullopt;
    }
    const TorusGrid& grid = tiling->grid;
    ExactOutcome out;
    out.arithmetic = "Kasteleyn Pfaffians on the torus by Fourier transform (" +
                     std::to_string(grid.rows) + "×" + std::to_string(grid.cols) + " cells of " +
                     std::to_string(grid.sites) + " sites), modular";
    // (3) M₀, the twisted orientations, their signs and ε.
    const GeneralMatching matching = maximum_matching(p.graph);
    if (!matching.is_perfect()) {
        out.value = 0;
        return out;
    }
    std::vector<std::vector<std::int8_t>> orientations;
    for (int twist = 0; twist < 4; ++twist) {
        std::vector<std::int8_t> o = tiling->orientation;
        for (std::size_t e = 0; e < o.size(); ++e) {
            const bool flip = ((twist & 1) != 0 && tiling->cross_rows[e] != 0) !=
                              ((twist & 2) != 0 && tiling->cross_cols[e] != 0);
            o[e] = static_cast<std::int8_t>(flip ? -o[e] : o[e]);
        }
        orientations.push_back(std::move(o));
    }
    const std::optional<std::vector<int>> signs =
        surface_signs(p.graph, embedding, matching.mate, orientations);
    if (!signs) {
        return std::nullopt;
    }
    const std::vector<UndirectedGraph::Edge> edges = p.graph.edges();
    std::vector<vertex_t> pairs;  // M₀ in the order of the grid's vertices
    std::vector<std::size_t> matched;
    for (std::size_t e = 0; e < edges.size(); ++e) {
        const auto [u, v] = edges[e];
        if (matching.mate[static_cast<std::size_t>(u)] == v) {
            pairs.push_back(tiling->place[static_cast<std::size_t>(u)]);
            pairs.push_back(tiling->place[static_cast<std::size_t>(v)]);
            matched.push_back(e);
        }
    }
    const int pairing_sign = numeric::permutation_sign(pairs);
    std::array<int, 4> constants{};
    for (std::size_t i = 0; i < 4; ++i) {
        int c = pairing_sign * (*signs)[i];
        for (const std::size_t e : matched) {
            c *= orientations[i][e];
        }
        constants[i] = c;
    }
    // (4) Primes holding the 2R-th and 2C-th roots of unity.
    const std::uint64_t l = std::lcm(2 * static_cast<std::uint64_t>(grid.rows),
                                     2 * static_cast<std::uint64_t>(grid.cols));
    const double bound = pfaffian_bound_log2(a);
    const auto needed =
        static_cast<std::size_t>(std::max(0.0, bound + 1.0) / numeric::kLargePrimeLog2) + 1;
    const std::vector<std::uint64_t> primes = numeric::large_primes_one_mod(l, needed + 1);
    std::vector<std::uint64_t> residues(primes.size());
    const auto count = static_cast<std::int64_t>(primes.size());
    run::parallel_units(count, count, 0, run, [&](std::int64_t j) -> std::int64_t {
        const std::uint64_t prime = primes[static_cast<std::size_t>(j)];
        FourierField field(prime, grid, tiling->terms);
        std::uint64_t sum = 0;
        for (int i = 0; i < 4; ++i) {
            const std::uint64_t pf = field.pfaffian(i & 1, (i >> 1) & 1);
            sum = constants[static_cast<std::size_t>(i)] > 0 ? numeric::add_mod(sum, pf, prime)
                                                             : numeric::sub_mod(sum, pf, prime);
        }
        // (5) ½ Σ.
        residues[static_cast<std::size_t>(j)] =
            numeric::mul_mod(sum, numeric::inverse_mod(2, prime), prime);
        return 1;
    });
    out.primes = static_cast<int>(primes.size());
    out.arithmetic += " (" + std::to_string(primes.size()) + " primes of 62 bits, one spare) + CRT";
    out.value = numeric::crt_with_spare(residues, primes, "torus Fourier");
    return out;
}

}  // namespace pmcount::exact
