// The estimator's set-up (setup.hpp). Built with -ffp-contract=off, as the sampler: every sample
// on the CPU and on the GPU starts from the scaling computed here.
#include "approx/setup.hpp"

#include <algorithm>
#include <cmath>

#include "approx/host_workspace.hpp"
#include "core/stop.hpp"

namespace pmcount::approx {

namespace {

template <class Matrix>
void scale_matrix(const Matrix& a, SamplerProblem& p) {
    const vertex_t n = p.n;
    HostWorkspace w(n);
    for (vertex_t k = 0; k < n; ++k) {
        w.row_scale(k) = 1;
        w.col_scale(k) = 1;
    }
    for (vertex_t k = 0; k < (n + 31) / 32; ++k) {
        w.row_live(k) = w.col_live(k) = 0xFFFFFFFFu;
    }
    constexpr int kMaxSweeps = 10000;
    constexpr double kTolerance = 1e-9;
    for (int sweep = 0; sweep < kMaxSweeps; ++sweep) {
        pmcount::detail::throw_if_stopped(kSettingUp);  // a sweep is O(nnz)
        if (detail::sinkhorn(a, w, 1) == detail::Rescale::empty_line) {
            break;
        }
        double worst = 0;
        for (vertex_t i = 0; i < n; ++i) {
            double s = 0;
            a.for_row(i, [&](vertex_t j, double v) { s += v * w.col_scale(j); });
            worst = std::max(worst, std::abs(s * w.row_scale(i) - 1));
        }
        if (worst < kTolerance) {
            break;
        }
    }
    p.row_scale.resize(static_cast<std::size_t>(n));
    p.col_scale.resize(static_cast<std::size_t>(n));
    for (vertex_t k = 0; k < n; ++k) {
        p.row_scale[static_cast<std::size_t>(k)] = w.row_scale(k);
        p.col_scale[static_cast<std::size_t>(k)] = w.col_scale(k);
    }
}

}  // namespace

BipartiteGraph pattern_of(vertex_t n, const std::vector<Entry>& entries) {
    std::vector<BipartiteGraph::Edge> edges;
    edges.reserve(entries.size());
    for (const Entry& e : entries) {
        edges.emplace_back(e.row, e.col);
    }
    return BipartiteGraph(n, n, std::move(edges));
}

std::vector<Entry> prune(const std::vector<Entry>& entries, const DMDecomposition& dm) {
    std::vector<Entry> kept;
    kept.reserve(entries.size());
    for (const Entry& e : entries) {
        const int block = dm.row_block[static_cast<std::size_t>(e.row)];
        if (block >= 0 && block == dm.col_block[static_cast<std::size_t>(e.col)]) {
            kept.push_back(e);
        }
    }
    return kept;
}

SamplerProblem build_problem(vertex_t n, const std::vector<Entry>& entries, bool dense) {
    SamplerProblem p;
    p.n = n;
    p.dense = dense;
    const auto un = static_cast<std::size_t>(n);
    p.row_degree.assign(un, 0);
    p.col_degree.assign(un, 0);
    for (const Entry& e : entries) {
        ++p.row_degree[static_cast<std::size_t>(e.row)];
        ++p.col_degree[static_cast<std::size_t>(e.col)];
    }
    if (dense) {
        p.dense_values.assign(un * un, 0.0);
        for (const Entry& e : entries) {
            p.dense_values[static_cast<std::size_t>(e.row) * un + static_cast<std::size_t>(e.col)] =
                e.value;
        }
        return p;
    }
    p.row_ptr.assign(un + 1, 0);
    p.col_ptr.assign(un + 1, 0);
    for (std::size_t k = 0; k < un; ++k) {
        p.row_ptr[k + 1] = p.row_ptr[k] + p.row_degree[k];
        p.col_ptr[k + 1] = p.col_ptr[k] + p.col_degree[k];
    }
    p.col_idx.resize(entries.size());
    p.row_val.resize(entries.size());
    p.row_idx.resize(entries.size());
    p.col_val.resize(entries.size());
    std::vector<std::int64_t> row_fill(p.row_ptr.begin(), p.row_ptr.end() - 1);
    std::vector<std::int64_t> col_fill(p.col_ptr.begin(), p.col_ptr.end() - 1);
    std::vector<Entry> sorted = entries;
    std::sort(sorted.begin(), sorted.end(), [](const Entry& a, const Entry& b) {
        return a.row != b.row ? a.row < b.row : a.col < b.col;
    });
    for (const Entry& e : sorted) {
        const auto r = static_cast<std::size_t>(row_fill[static_cast<std::size_t>(e.row)]++);
        p.col_idx[r] = e.col;
        p.row_val[r] = e.value;
        const auto c = static_cast<std::size_t>(col_fill[static_cast<std::size_t>(e.col)]++);
        p.row_idx[c] = e.row;
        p.col_val[c] = e.value;
    }
    return p;
}

void scale_whole_matrix(SamplerProblem& p) {
    if (p.dense) {
        scale_matrix(p.dense_view(), p);
    } else {
        scale_matrix(p.sparse_view(), p);
    }
}

SamplerConfig sampler_config(const EstimateOptions& o, std::uint64_t particles) {
    SamplerConfig c;
    c.sparsest_line =
        o.estimator == Estimator::rasmussen_plus || o.estimator == Estimator::scaling_plus;
    c.scaled = o.estimator == Estimator::scaling || o.estimator == Estimator::scaling_plus;
    c.scale_every = o.scale_every;
    c.scale_iters = o.scale_iters;
    c.prune = c.sparsest_line;
    // Exponent 0 resamples on plain weights: no potential to compute.
    c.potential = c.scaled && particles > 1 && o.potential_exponent > 0;
    c.potential_exponent = o.potential_exponent;
    c.seed = o.seed;
    return c;
}

}  // namespace pmcount::approx
