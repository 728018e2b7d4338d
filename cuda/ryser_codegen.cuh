// Code generation for the sparse Ryser walk (cuda/kernels/ryser_sparse.cuh, GeneratedPattern):
// one matrix's tables written as C++ literals, compiled by NVRTC with the sparse program.
#pragma once

#include <string>

#include "exact/ryser/ryser_device.hpp"

namespace pmcount::backend::cuda {

/// The struct pmcount_gpu::Generated that GeneratedPattern reads: the job's tables as literals,
/// its row layers for super-blocks of 2^unroll_log2 steps.
std::string generated_source(const GpuSparseJob& job, int unroll_log2);

}  // namespace pmcount::backend::cuda
