// The NVRTC programs the GPU engines compile, each built by the function its engine loads it
// with, so that they can be compiled without a GPU and without running an engine: the unit test
// of every embedded kernel source (tests/unit/cuda/kernel_programs_test.cpp, compile_program).
#pragma once

#include <vector>

#include "exact/hafnian/hafnian_gpu_mode.hpp"
#include "exact/ryser/ryser_device.hpp"
#include "nvrtc_cache.cuh"

namespace pmcount::backend::cuda {

/// The dense Ryser programs of order n: each arithmetic's kernel, the record reduction and the
/// FP64 throughput probe (ryser_dense.cu).
std::vector<KernelProgram> ryser_dense_programs(int n);

/// The program of a sparse job: its table kernel, or the kernel generated for its matrix
/// (ryser_sparse.cu). InvalidArgument for a malformed job.
KernelProgram ryser_sparse_program(const GpuSparseJob& job);

/// The hafnian's three kernels for order n and an arithmetic (hafnian_gpu.cu).
KernelProgram hafnian_program(int n, GpuHafnianMode mode);

}  // namespace pmcount::backend::cuda
