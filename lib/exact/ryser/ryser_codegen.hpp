// Code generation for the sparse Ryser walk on the GPU (cuda/kernels/ryser_sparse.cuh,
// GeneratedPattern): one matrix's tables written as C++ literals, which NVRTC compiles with the
// sparse program. Plain host C++ in lib/ (header-only: the CUDA target, which calls it, is linked
// after the library), so CI tests it without a GPU against golden files
// (tests/unit/exact/gpu_host_test.cpp).
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <type_traits>
#include <vector>

#include "exact/ryser/ryser_device.hpp"

namespace pmcount::backend::cuda {

namespace codegen {

using u64 = std::uint64_t;

/// The exact C++ literal of a value: hexadecimal for doubles.
inline std::string literal(double v) {
    char buffer[40];
    std::snprintf(buffer, sizeof buffer, "%a", v);
    return buffer;
}
inline std::string literal(u64 v) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "0x%llxULL", static_cast<unsigned long long>(v));
    return buffer;
}
inline std::string literal(int v) {
    return std::to_string(v);
}

template <class T>
constexpr const char* type_name() {
    return std::is_same_v<T, double> ? "double" : std::is_same_v<T, int> ? "int" : "u64";
}

/// "`prefix`T name[] = {…};" with `values` as literals, eight to a line ({0} when empty: arrays
/// may not be empty).
template <class T>
std::string array(const char* prefix, const char* name, const std::vector<T>& values) {
    std::string text = std::string(prefix) + type_name<T>() + " " + name + "[] = {";
    for (std::size_t k = 0; k < values.size(); ++k) {
        text += (k == 0 ? "" : ",") + literal(values[k]);
        if (k % 8 == 7) {
            text += "\n    ";
        }
    }
    return text + (values.empty() ? "0};\n" : "};\n");
}

/// The walk's row layers for partial products (GeneratedPattern::layer): layer j < M holds the
/// rows first touched by Gray column j, layer M the rest; `start` has M + 2 entries.
inline void row_layers(const GpuSparseJob& job, int m, std::vector<int>& start,
                       std::vector<int>& rows) {
    std::vector<bool> placed(static_cast<std::size_t>(job.n), false);
    start.assign(1, 0);
    rows.clear();
    for (int j = 0; j < m && !job.col_start.empty(); ++j) {
        for (int e = job.col_start[static_cast<std::size_t>(j)];
             e < job.col_start[static_cast<std::size_t>(j) + 1]; ++e) {
            const int r = job.col_row[static_cast<std::size_t>(e)];
            if (!placed[static_cast<std::size_t>(r)]) {
                placed[static_cast<std::size_t>(r)] = true;
                rows.push_back(r);
            }
        }
        start.push_back(static_cast<int>(rows.size()));
    }
    while (static_cast<int>(start.size()) < m + 1) {
        start.push_back(static_cast<int>(rows.size()));
    }
    for (int r = 0; r < job.n; ++r) {
        if (!placed[static_cast<std::size_t>(r)]) {
            rows.push_back(r);
        }
    }
    start.push_back(static_cast<int>(rows.size()));
}

}  // namespace codegen

/// The struct pmcount_gpu::Generated that GeneratedPattern reads: the job's tables as literals,
/// its row layers for super-blocks of 2^unroll_log2 steps.
inline std::string generated_source(const GpuSparseJob& job, int unroll_log2) {
    std::vector<int> layer_start, layer_row;
    codegen::row_layers(job, unroll_log2, layer_start, layer_row);
    using codegen::array;
    using codegen::u64;
    const char* const member = "    static constexpr ";
    std::string text = "\nnamespace pmcount_gpu {\nnamespace generated {\n";
    text += array("__constant__ ", "base", job.base);
    text += array("__constant__ ", "row_mask", job.row_mask);
    text += "}  // namespace generated\nstruct Generated {\n";
    text += "    static constexpr int kTests = " + std::to_string(job.test_mask.size()) + ";\n";
    text += "    static constexpr int kFreeBits = " + std::to_string(job.free_bits) + ";\n";
    text += "    static constexpr int kSubBits = " + std::to_string(job.sub_bits) + ";\n";
    u64 dynamic_rows = 0;  // the rows a sub-block changes (GeneratedPattern::dynamic_row)
    for (std::size_t s = 0; s < job.row_mask.size(); ++s) {
        if ((job.row_mask[s] & ((u64{1} << job.sub_bits) - 1)) != 0) {
            dynamic_rows |= u64{1} << s;
        }
    }
    text += "    static constexpr u64 kDynamicRows = " + codegen::literal(dynamic_rows) + ";\n";
    text += array(member, "col_start", job.col_start);
    text += array(member, "col_row", job.col_row);
    text += array(member, "values", job.col_value);
    text += array(member, "test_mask", job.test_mask);
    text += array(member, "test_low", job.test_low);
    text += array(member, "test_low_bit", job.test_low_bit);
    text += array(member, "test_count", job.test_count);
    text += array(member, "layer_start", layer_start);
    text += array(member, "layer_row", layer_row);
    text += "    __device__ static double base_word(int k) { return generated::base[k]; }\n";
    text += "    __device__ static u64 mask(int s) { return generated::row_mask[s]; }\n";
    text += "};\n}  // namespace pmcount_gpu\n";
    return text;
}

}  // namespace pmcount::backend::cuda
