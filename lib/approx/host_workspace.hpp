// The sampler's per-sample state on CPU threads (approx/sampler.hpp reads it through the
// accessors below; the GPU interleaves the same fields across threads).
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

#include "pmcount/types.hpp"

namespace pmcount::approx {

/// Per-thread sampler state, contiguous (the GPU interleaves the same fields across threads).
class HostWorkspace {
public:
    explicit HostWorkspace(vertex_t n)
        : row_scale_(n),
          col_scale_(n),
          row_degree_(n),
          col_degree_(n),
          row_match_(n),
          col_match_(n),
          queue_(n),
          row_stamp_(n),
          row_parent_(n),
          row_live_((n + 31) / 32),
          col_live_((n + 31) / 32) {}
    double& row_scale(vertex_t i) noexcept { return row_scale_[i]; }
    double& col_scale(vertex_t j) noexcept { return col_scale_[j]; }
    std::int32_t& row_degree(vertex_t i) noexcept { return row_degree_[i]; }
    std::int32_t& col_degree(vertex_t j) noexcept { return col_degree_[j]; }
    std::uint32_t& row_live(vertex_t k) noexcept { return row_live_[k]; }
    std::uint32_t& col_live(vertex_t k) noexcept { return col_live_[k]; }
    vertex_t& row_match(vertex_t i) noexcept { return row_match_[i]; }
    vertex_t& col_match(vertex_t j) noexcept { return col_match_[j]; }
    vertex_t& queue(std::int32_t k) noexcept { return queue_[k]; }
    std::int32_t& row_stamp(vertex_t i) noexcept { return row_stamp_[i]; }
    vertex_t& row_parent(vertex_t i) noexcept { return row_parent_[i]; }

private:
    std::vector<double> row_scale_, col_scale_;
    std::vector<std::int32_t> row_degree_, col_degree_;
    std::vector<vertex_t> row_match_, col_match_, queue_;
    std::vector<std::int32_t> row_stamp_;
    std::vector<vertex_t> row_parent_;
    std::vector<std::uint32_t> row_live_, col_live_;
};

/// Bytes of one HostWorkspace of order n: its eleven arrays, and per array the allocator's
/// header and rounding (about 32 bytes on glibc).
inline double host_workspace_bytes(vertex_t n) {
    const double arrays = (2 * sizeof(double) + 7 * sizeof(std::int32_t)) * static_cast<double>(n) +
                          2 * sizeof(std::uint32_t) * std::ceil(n / 32.0);
    return sizeof(HostWorkspace) + arrays + 11 * 32.0;
}

}  // namespace pmcount::approx
