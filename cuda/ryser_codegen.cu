// Code generation for the sparse Ryser walk (ryser_codegen.cuh).
#include <cstdio>
#include <string>
#include <vector>

#include "kernels/ryser_abi.cuh"
#include "ryser_codegen.cuh"

namespace pmcount::backend::cuda {

namespace {

using pmcount_gpu::u64;

/// A C++ initializer list of `values` ({0} when empty: arrays may not be empty).
template <class T, class Format>
std::string literal_list(const std::vector<T>& values, Format format) {
    std::string text = "{";
    for (std::size_t k = 0; k < values.size(); ++k) {
        text += (k == 0 ? "" : ",") + format(values[k]);
        if (k % 8 == 7) {
            text += "\n    ";
        }
    }
    return text + (values.empty() ? "0}" : "}");
}

std::string double_literal(double v) {
    char buffer[40];
    std::snprintf(buffer, sizeof buffer, "%a", v);  // hexadecimal: exact
    return buffer;
}
std::string u64_literal(u64 v) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "0x%llxULL", v);
    return buffer;
}
std::string int_literal(int v) { return std::to_string(v); }

/// The walk's row layers for partial products (GeneratedPattern::layer): layer j < M holds the
/// rows first touched by Gray column j, layer M the rest; `start` has M + 2 entries.
void row_layers(const GpuSparseJob& job, int m, std::vector<int>& start, std::vector<int>& rows) {
    std::vector<bool> placed(static_cast<std::size_t>(job.n), false);
    start.assign(1, 0);
    rows.clear();
    for (int j = 0; j < m && !job.col_start.empty(); ++j) {
        for (int e = job.col_start[static_cast<std::size_t>(j)]; e < job.col_start[static_cast<std::size_t>(j) + 1]; ++e) {
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

}  // namespace

std::string generated_source(const GpuSparseJob& job, int unroll_log2) {
    std::vector<int> layer_start, layer_row;
    row_layers(job, unroll_log2, layer_start, layer_row);
    std::string text = "\nnamespace pmcount_gpu {\nnamespace generated {\n";
    text += "__constant__ double base[] = " + literal_list(job.base, double_literal) + ";\n";
    text += "__constant__ u64 row_mask[] = " + literal_list(job.row_mask, u64_literal) + ";\n";
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
    text += "    static constexpr u64 kDynamicRows = " + u64_literal(dynamic_rows) + ";\n";
    text += "    static constexpr int col_start[] = " + literal_list(job.col_start, int_literal) + ";\n";
    text += "    static constexpr int col_row[] = " + literal_list(job.col_row, int_literal) + ";\n";
    text += "    static constexpr double values[] = " + literal_list(job.col_value, double_literal) + ";\n";
    text += "    static constexpr u64 test_mask[] = " + literal_list(job.test_mask, u64_literal) + ";\n";
    text += "    static constexpr u64 test_low[] = " + literal_list(job.test_low, u64_literal) + ";\n";
    text += "    static constexpr u64 test_low_bit[] = " + literal_list(job.test_low_bit, u64_literal) + ";\n";
    text += "    static constexpr int test_count[] = " + literal_list(job.test_count, int_literal) + ";\n";
    text += "    static constexpr int layer_start[] = " + literal_list(layer_start, int_literal) + ";\n";
    text += "    static constexpr int layer_row[] = " + literal_list(layer_row, int_literal) + ";\n";
    text += "    __device__ static double base_word(int k) { return generated::base[k]; }\n";
    text += "    __device__ static u64 mask(int s) { return generated::row_mask[s]; }\n";
    text += "};\n}  // namespace pmcount_gpu\n";
    return text;
}

}  // namespace pmcount::backend::cuda
