// GPU sampler of the estimators (lib/approx/sampler.hpp, the same code the CPU runs): one sample
// per thread, the matrix (CSR + CSC, or row-major dense) read-only in global memory, every
// thread's state in global memory, so graphs with 10^4+ vertices per side fit.
//
// Layout. A launch has T slots (threads); element k of slot t's workspace lives at k·T + t. The
// threads of a warp walk the same matrix structure in the same order (the Sinkhorn sweeps visit
// every line; the live tests only predicate the arithmetic), so their workspace accesses fall on
// consecutive addresses — one transaction per warp — and their matrix reads are broadcasts. Only
// the partner choice and the sparsest-line scan read data-dependent lines.
//
// Slots: as many as are resident at once (occupancy of the kernel at 128 threads per block),
// capped so that the workspaces take at most half of the free memory. Each launch gives slot t
// the samples first + t, first + t + T', … (T' = min(T, count)); results are written by sample
// index, so the order of completion does not matter.
//
// Compiled with -fmad=false (cuda/CMakeLists.txt): the CPU build of the sampler does not fuse
// multiply-adds either, so both pick the same partners for a seed.
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <string>

#include "approx/sampler.hpp"
#include "backend/cuda_backend.hpp"
#include "cuda_status.cuh"
#include "pmcount/error.hpp"

namespace pmcount::backend::cuda {

namespace {

constexpr int kThreadsPerBlock = 128;
// Share of the free device memory the workspaces may take (the rest: matrix, output, others).
constexpr double kWorkspaceMemoryShare = 0.5;

/// Device arrays of all slots' workspaces; pointers of unused fields are null.
struct WorkspaceArrays {
    double* row_scale = nullptr;
    double* col_scale = nullptr;
    std::int32_t* row_degree = nullptr;
    std::int32_t* col_degree = nullptr;
    std::uint32_t* row_live = nullptr;
    std::uint32_t* col_live = nullptr;
    vertex_t* row_match = nullptr;
    vertex_t* col_match = nullptr;
    vertex_t* queue = nullptr;
    std::int32_t* row_stamp = nullptr;
    vertex_t* row_parent = nullptr;
    std::uint64_t slots = 0;
};

/// One slot's view of WorkspaceArrays, with the accessors sample_log_estimate() expects.
struct InterleavedWorkspace {
    WorkspaceArrays a;
    std::uint64_t slot;

    __device__ std::uint64_t at(vertex_t k) const noexcept {
        return static_cast<std::uint64_t>(k) * a.slots + slot;
    }
    __device__ double& row_scale(vertex_t i) noexcept { return a.row_scale[at(i)]; }
    __device__ double& col_scale(vertex_t j) noexcept { return a.col_scale[at(j)]; }
    __device__ std::int32_t& row_degree(vertex_t i) noexcept { return a.row_degree[at(i)]; }
    __device__ std::int32_t& col_degree(vertex_t j) noexcept { return a.col_degree[at(j)]; }
    __device__ std::uint32_t& row_live(vertex_t k) noexcept { return a.row_live[at(k)]; }
    __device__ std::uint32_t& col_live(vertex_t k) noexcept { return a.col_live[at(k)]; }
    __device__ vertex_t& row_match(vertex_t i) noexcept { return a.row_match[at(i)]; }
    __device__ vertex_t& col_match(vertex_t j) noexcept { return a.col_match[at(j)]; }
    __device__ vertex_t& queue(std::int32_t k) noexcept { return a.queue[at(k)]; }
    __device__ std::int32_t& row_stamp(vertex_t i) noexcept { return a.row_stamp[at(i)]; }
    __device__ vertex_t& row_parent(vertex_t i) noexcept { return a.row_parent[at(i)]; }
};

template <class Matrix>
__global__ void __launch_bounds__(kThreadsPerBlock)
    sample_kernel(Matrix matrix, approx::SamplerStart start, approx::SamplerConfig config,
                  WorkspaceArrays workspaces, std::uint64_t first, std::uint64_t count,
                  std::uint64_t active, double* log_out) {
    const std::uint64_t slot = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (slot >= active) {
        return;
    }
    InterleavedWorkspace w{workspaces, slot};
    for (std::uint64_t k = slot; k < count; k += active) {
        log_out[k] = approx::sample_log_estimate(matrix, start, config, w, first + k);
    }
}

/// A device copy of a host vector, freed with the owner.
template <class T>
class DeviceArray {
public:
    DeviceArray() = default;
    explicit DeviceArray(const std::vector<T>& host) { assign(host); }
    DeviceArray(const DeviceArray&) = delete;
    DeviceArray& operator=(const DeviceArray&) = delete;
    ~DeviceArray() { release(); }

    void allocate(std::size_t count) {
        release();
        if (count > 0) {
            check(cudaMalloc(&data_, count * sizeof(T)), "cudaMalloc (estimator)");
        }
        size_ = count;
    }
    void assign(const std::vector<T>& host) {
        allocate(host.size());
        if (!host.empty()) {
            check(cudaMemcpy(data_, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice),
                  "cudaMemcpy to device (estimator)");
        }
    }
    T* get() const noexcept { return data_; }
    std::size_t size() const noexcept { return size_; }

private:
    void release() noexcept {
        if (data_ != nullptr) {
            cudaFree(data_);
            data_ = nullptr;
        }
        size_ = 0;
    }
    T* data_ = nullptr;
    std::size_t size_ = 0;
};

class CudaSampler final : public GpuSampler {
public:
    explicit CudaSampler(const GpuSamplerJob& job) : job_config_(job.config), n_(job.problem->n) {
        const approx::SamplerProblem& p = *job.problem;
        device_ = job.device;
        check(cudaSetDevice(device_), "cudaSetDevice");
        cudaDeviceProp prop{};
        check(cudaGetDeviceProperties(&prop, device_), "cudaGetDeviceProperties");
        name_ = prop.name;
        dense_ = p.dense;
        dense_values_.assign(p.dense_values);
        row_ptr_.assign(p.row_ptr);
        col_ptr_.assign(p.col_ptr);
        col_idx_.assign(p.col_idx);
        row_idx_.assign(p.row_idx);
        row_val_.assign(p.row_val);
        col_val_.assign(p.col_val);
        row_scale0_.assign(p.row_scale);
        col_scale0_.assign(p.col_scale);
        row_degree0_.assign(p.row_degree);
        col_degree0_.assign(p.col_degree);
        row_match0_.assign(p.row_match);
        col_match0_.assign(p.col_match);
        allocate_workspaces(prop);
    }

    void sample(std::uint64_t first, std::uint64_t count, double* log_out) override {
        if (count == 0) {
            return;
        }
        const auto t0 = std::chrono::steady_clock::now();
        check(cudaSetDevice(device_), "cudaSetDevice");
        if (out_.size() < count) {
            out_.allocate(count);
        }
        const std::uint64_t active = std::min<std::uint64_t>(workspaces_.slots, count);
        const unsigned blocks =
            static_cast<unsigned>((active + kThreadsPerBlock - 1) / kThreadsPerBlock);
        const approx::SamplerStart start{row_scale0_.get(),  col_scale0_.get(), row_degree0_.get(),
                                         col_degree0_.get(), row_match0_.get(), col_match0_.get()};
        if (dense_) {
            sample_kernel<<<blocks, kThreadsPerBlock>>>(
                dense_view(), start, job_config_, workspaces_, first, count, active, out_.get());
        } else {
            sample_kernel<<<blocks, kThreadsPerBlock>>>(
                sparse_view(), start, job_config_, workspaces_, first, count, active, out_.get());
        }
        check(cudaGetLastError(), "estimator kernel launch");
        check(cudaMemcpy(log_out, out_.get(), count * sizeof(double), cudaMemcpyDeviceToHost),
              "estimator kernel / cudaMemcpy to host");
        seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    }

    double device_seconds() const override { return seconds_; }
    std::uint64_t slots() const override { return workspaces_.slots; }

    std::string description() const override {
        return "GPU " + std::to_string(device_) + " (" + name_ + ", " +
               std::to_string(workspaces_.slots) + " samples in flight)";
    }

private:
    approx::SparseView sparse_view() const {
        return {n_,
                row_ptr_.get(),
                col_idx_.get(),
                row_val_.get(),
                col_ptr_.get(),
                row_idx_.get(),
                col_val_.get()};
    }
    approx::DenseView dense_view() const { return {n_, dense_values_.get()}; }

    /// Slots: resident threads of the kernel, capped by memory (see the file comment).
    void allocate_workspaces(const cudaDeviceProp& prop) {
        int blocks_per_sm = 0;
        if (dense_) {
            check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
                      &blocks_per_sm, sample_kernel<approx::DenseView>, kThreadsPerBlock, 0),
                  "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
        } else {
            check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
                      &blocks_per_sm, sample_kernel<approx::SparseView>, kThreadsPerBlock, 0),
                  "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
        }
        const std::uint64_t resident = static_cast<std::uint64_t>(std::max(1, blocks_per_sm)) *
                                       kThreadsPerBlock * prop.multiProcessorCount;
        const auto n = static_cast<std::uint64_t>(n_);
        const std::uint64_t words = (n + 31) / 32;
        const std::uint64_t per_slot =
            2 * words * sizeof(std::uint32_t) + (job_config_.scaled ? 2 * n * sizeof(double) : 0) +
            (job_config_.sparsest_line ? 2 * n * sizeof(std::int32_t) : 0) +
            (job_config_.prune ? 5 * n * sizeof(std::int32_t) : 0);
        std::size_t free_bytes = 0, total_bytes = 0;
        check(cudaMemGetInfo(&free_bytes, &total_bytes), "cudaMemGetInfo");
        const auto budget = static_cast<std::uint64_t>(kWorkspaceMemoryShare * free_bytes);
        std::uint64_t slots = std::min(resident, budget / std::max<std::uint64_t>(1, per_slot));
        slots = slots / kThreadsPerBlock * kThreadsPerBlock;
        if (slots == 0) {
            throw DeviceError("GPU " + std::to_string(device_) + ": " +
                              std::to_string(free_bytes >> 20) + " MiB free is too little for " +
                              "one block of estimator workspaces of order " + std::to_string(n_));
        }
        workspaces_.slots = slots;
        row_live_.allocate(words * slots);
        col_live_.allocate(words * slots);
        workspaces_.row_live = row_live_.get();
        workspaces_.col_live = col_live_.get();
        if (job_config_.scaled) {
            row_scale_.allocate(n * slots);
            col_scale_.allocate(n * slots);
            workspaces_.row_scale = row_scale_.get();
            workspaces_.col_scale = col_scale_.get();
        }
        if (job_config_.sparsest_line) {
            row_degree_.allocate(n * slots);
            col_degree_.allocate(n * slots);
            workspaces_.row_degree = row_degree_.get();
            workspaces_.col_degree = col_degree_.get();
        }
        if (job_config_.prune) {
            for (auto* array : {&row_match_, &col_match_, &queue_, &row_stamp_, &row_parent_}) {
                array->allocate(n * slots);
            }
            workspaces_.row_match = row_match_.get();
            workspaces_.col_match = col_match_.get();
            workspaces_.queue = queue_.get();
            workspaces_.row_stamp = row_stamp_.get();
            workspaces_.row_parent = row_parent_.get();
        }
    }

    approx::SamplerConfig job_config_;
    vertex_t n_ = 0;
    int device_ = 0;
    std::string name_;
    bool dense_ = false;
    DeviceArray<double> dense_values_;
    DeviceArray<std::int64_t> row_ptr_, col_ptr_;
    DeviceArray<vertex_t> col_idx_, row_idx_;
    DeviceArray<double> row_val_, col_val_;
    DeviceArray<double> row_scale0_, col_scale0_;
    DeviceArray<std::int32_t> row_degree0_, col_degree0_;
    DeviceArray<vertex_t> row_match0_, col_match0_;
    DeviceArray<double> row_scale_, col_scale_;
    DeviceArray<std::int32_t> row_degree_, col_degree_;
    DeviceArray<std::uint32_t> row_live_, col_live_;
    DeviceArray<vertex_t> row_match_, col_match_, queue_, row_parent_;
    DeviceArray<std::int32_t> row_stamp_;
    DeviceArray<double> out_;
    WorkspaceArrays workspaces_;
    double seconds_ = 0;
};

}  // namespace

std::unique_ptr<GpuSampler> make_gpu_sampler(const GpuSamplerJob& job) {
    return std::make_unique<CudaSampler>(job);
}

}  // namespace pmcount::backend::cuda
