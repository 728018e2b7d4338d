// The matrix as the estimators' sampler reads it, in host memory: CSR + CSC of the positive
// entries (sparse) or row-major (dense), and the state every sample starts from. The CPU engine
// samples from it directly; the GPU sampler copies it to the device.
#pragma once

#include <cstdint>
#include <vector>

#include "approx/sampler.hpp"
#include "pmcount/types.hpp"

namespace pmcount::approx {

struct SamplerProblem {
    vertex_t n = 0;
    bool dense = false;
    std::vector<double> dense_values;  ///< dense: n·n row-major
    std::vector<std::int64_t> row_ptr, col_ptr;
    std::vector<vertex_t> col_idx, row_idx;
    std::vector<double> row_val, col_val;
    /// SamplerStart's arrays (scales: scaling estimators; matching: pruning).
    std::vector<double> row_scale, col_scale;
    std::vector<std::int32_t> row_degree, col_degree;
    std::vector<vertex_t> row_match, col_match;

    SparseView sparse_view() const {
        return {n,
                row_ptr.data(),
                col_idx.data(),
                row_val.data(),
                col_ptr.data(),
                row_idx.data(),
                col_val.data()};
    }
    DenseView dense_view() const { return {n, dense_values.data()}; }
    SamplerStart start() const {
        return {row_scale.data(),  col_scale.data(), row_degree.data(),
                col_degree.data(), row_match.data(), col_match.data()};
    }
};

}  // namespace pmcount::approx
