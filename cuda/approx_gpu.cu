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
// Populations (particles > 1, estimate.cpp's run_populations): particle k owns workspace k of a
// set sized for all particles side by side; advance_kernel takes every particle's steps up to the
// next resampling point (a grid-stride loop over the particles), the host draws the ancestors
// from the weights (the same code as the CPU's), and select_kernel copies the chosen particles'
// workspaces into a second set, which becomes the current one. Both sets take at most half of the
// free memory together.
//
// Compiled with -fmad=false (cuda/CMakeLists.txt): the CPU build of the sampler does not fuse
// multiply-adds either, so both pick the same partners for a seed.
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <string>

#include "approx/sampler.hpp"
#include "approx/sampler_device.hpp"
#include "common/cuda_status.cuh"
#include "common/device_buffer.cuh"
#include "common/sampler_launch.cuh"
#include "pmcount/error.hpp"

namespace pmcount::backend::cuda {

namespace {

constexpr int kThreadsPerBlock = kSamplerThreadsPerBlock;

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

// Particle populations (estimate.cpp's run_populations): workspace k is particle k's, all
// particles side by side; the cursors live in a plain array.
template <class Matrix>
__global__ void __launch_bounds__(kThreadsPerBlock)
    advance_kernel(Matrix matrix, approx::SamplerConfig config, WorkspaceArrays workspaces,
                   approx::SampleCursor* cursors, std::uint64_t first, std::uint64_t count,
                   vertex_t until) {
    const std::uint64_t stride = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
    for (std::uint64_t k = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
         k < count; k += stride) {
        InterleavedWorkspace w{workspaces, k};
        approx::SampleCursor cursor = cursors[k];
        approx::advance_sample(matrix, config, w, cursor, first + k, until);
        cursors[k] = cursor;
    }
}

__global__ void __launch_bounds__(kThreadsPerBlock)
    begin_kernel(vertex_t n, approx::SamplerStart start, approx::SamplerConfig config,
                 WorkspaceArrays workspaces, approx::SampleCursor* cursors, std::uint64_t count) {
    const std::uint64_t stride = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
    for (std::uint64_t k = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
         k < count; k += stride) {
        InterleavedWorkspace w{workspaces, k};
        approx::begin_sample(n, start, config, w, cursors[k]);
    }
}

/// to[·][k] = from[·][ancestors[k]] for the `length` elements of one workspace field.
template <class T>
__device__ void copy_field(const T* from, T* to, std::uint64_t length, std::uint64_t slots,
                           std::uint64_t k, std::uint64_t ancestor) {
    if (from == nullptr) {
        return;
    }
    for (std::uint64_t i = 0; i < length; ++i) {
        to[i * slots + k] = from[i * slots + ancestor];
    }
}

/// Particle k of `to` becomes a copy of particle ancestors[k] of `from` (the search scratch —
/// queue and parents — is not carried over), its weight restarting at 1/Φ unless it is 0.
__global__ void __launch_bounds__(kThreadsPerBlock)
    select_kernel(vertex_t n, WorkspaceArrays from, WorkspaceArrays to,
                  const approx::SampleCursor* from_cursors, approx::SampleCursor* to_cursors,
                  const std::uint32_t* ancestors, std::uint64_t count) {
    const std::uint64_t k = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (k >= count) {
        return;
    }
    const std::uint64_t a = ancestors[k], slots = from.slots;
    const auto un = static_cast<std::uint64_t>(n), words = (un + 31) / 32;
    copy_field(from.row_live, to.row_live, words, slots, k, a);
    copy_field(from.col_live, to.col_live, words, slots, k, a);
    copy_field(from.row_scale, to.row_scale, un, slots, k, a);
    copy_field(from.col_scale, to.col_scale, un, slots, k, a);
    copy_field(from.row_degree, to.row_degree, un, slots, k, a);
    copy_field(from.col_degree, to.col_degree, un, slots, k, a);
    copy_field(from.row_match, to.row_match, un, slots, k, a);
    copy_field(from.col_match, to.col_match, un, slots, k, a);
    copy_field(from.row_stamp, to.row_stamp, un, slots, k, a);
    approx::SampleCursor c = from_cursors[a];
    if (c.log_estimate > -HUGE_VAL) {
        c.log_estimate = -c.log_potential;
    }
    to_cursors[k] = c;
}

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

constexpr const char* kAllocate = "cudaMalloc (estimator)";
constexpr const char* kCopy = "cudaMemcpy to device (estimator)";

/// Bytes of one sample's workspace (the fields `config` uses).
std::uint64_t workspace_bytes(vertex_t order, const approx::SamplerConfig& config) {
    const auto n = static_cast<std::uint64_t>(order);
    const std::uint64_t words = (n + 31) / 32;
    return 2 * words * sizeof(std::uint32_t) + (config.scaled ? 2 * n * sizeof(double) : 0) +
           (config.sparsest_line ? 2 * n * sizeof(std::int32_t) : 0) +
           (config.prune ? 5 * n * sizeof(std::int32_t) : 0);
}

/// The device arrays behind one WorkspaceArrays of `slots` interleaved workspaces.
struct WorkspaceStore {
    DeviceBuffer<double> row_scale, col_scale;
    DeviceBuffer<std::int32_t> row_degree, col_degree;
    DeviceBuffer<std::uint32_t> row_live, col_live;
    DeviceBuffer<vertex_t> row_match, col_match, queue, row_parent;
    DeviceBuffer<std::int32_t> row_stamp;
    WorkspaceArrays view;

    void allocate(vertex_t order, const approx::SamplerConfig& config, std::uint64_t slots) {
        const auto n = static_cast<std::uint64_t>(order);
        const std::uint64_t words = (n + 31) / 32;
        view = WorkspaceArrays{};
        view.slots = slots;
        row_live.allocate(words * slots, kAllocate);
        col_live.allocate(words * slots, kAllocate);
        view.row_live = row_live.get();
        view.col_live = col_live.get();
        if (config.scaled) {
            row_scale.allocate(n * slots, kAllocate);
            col_scale.allocate(n * slots, kAllocate);
            view.row_scale = row_scale.get();
            view.col_scale = col_scale.get();
        }
        if (config.sparsest_line) {
            row_degree.allocate(n * slots, kAllocate);
            col_degree.allocate(n * slots, kAllocate);
            view.row_degree = row_degree.get();
            view.col_degree = col_degree.get();
        }
        if (config.prune) {
            for (auto* array : {&row_match, &col_match, &queue, &row_parent}) {
                array->allocate(n * slots, kAllocate);
            }
            row_stamp.allocate(n * slots, kAllocate);
            view.row_match = row_match.get();
            view.col_match = col_match.get();
            view.queue = queue.get();
            view.row_stamp = row_stamp.get();
            view.row_parent = row_parent.get();
        }
    }
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
        dense_values_.assign(p.dense_values, kCopy, kAllocate);
        row_ptr_.assign(p.row_ptr, kCopy, kAllocate);
        col_ptr_.assign(p.col_ptr, kCopy, kAllocate);
        col_idx_.assign(p.col_idx, kCopy, kAllocate);
        row_idx_.assign(p.row_idx, kCopy, kAllocate);
        row_val_.assign(p.row_val, kCopy, kAllocate);
        col_val_.assign(p.col_val, kCopy, kAllocate);
        row_scale0_.assign(p.row_scale, kCopy, kAllocate);
        col_scale0_.assign(p.col_scale, kCopy, kAllocate);
        row_degree0_.assign(p.row_degree, kCopy, kAllocate);
        col_degree0_.assign(p.col_degree, kCopy, kAllocate);
        row_match0_.assign(p.row_match, kCopy, kAllocate);
        col_match0_.assign(p.col_match, kCopy, kAllocate);
        multiprocessors_ = prop.multiProcessorCount;
        slots_ = independent_slots();
    }

    void sample(std::uint64_t first, std::uint64_t count, double* log_out) override {
        if (count == 0) {
            return;
        }
        const auto t0 = std::chrono::steady_clock::now();
        check(cudaSetDevice(device_), "cudaSetDevice");
        if (independent_.view.slots == 0) {
            independent_.allocate(n_, job_config_, slots_);
        }
        const WorkspaceArrays& workspaces = independent_.view;
        if (out_.size() < count) {
            out_.allocate(count, kAllocate);
        }
        const std::uint64_t active = std::min<std::uint64_t>(workspaces.slots, count);
        const unsigned blocks =
            static_cast<unsigned>((active + kThreadsPerBlock - 1) / kThreadsPerBlock);
        const approx::SamplerStart start{row_scale0_.get(),  col_scale0_.get(), row_degree0_.get(),
                                         col_degree0_.get(), row_match0_.get(), col_match0_.get()};
        if (dense_) {
            sample_kernel<<<blocks, kThreadsPerBlock>>>(
                dense_view(), start, job_config_, workspaces, first, count, active, out_.get());
        } else {
            sample_kernel<<<blocks, kThreadsPerBlock>>>(
                sparse_view(), start, job_config_, workspaces, first, count, active, out_.get());
        }
        check(cudaGetLastError(), "estimator kernel launch");
        check(cudaMemcpy(log_out, out_.get(), count * sizeof(double), cudaMemcpyDeviceToHost),
              "estimator kernel / cudaMemcpy to host");
        seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    }

    double device_seconds() const override { return seconds_; }
    std::uint64_t slots() const override { return slots_; }

    std::string description() const override {
        return "GPU " + std::to_string(device_) + " (" + name_ + ", " + std::to_string(slots_) +
               " threads)";
    }

    /// Resident threads of advance_kernel, or `particles` if more, capped so that two sets of
    /// workspaces (resampling copies from one into the other) take at most half of the free
    /// memory; a multiple of `particles`.
    std::uint64_t population_capacity(std::uint64_t particles) override {
        if (capacity_particles_ == particles) {
            return capacity_;
        }
        check(cudaSetDevice(device_), "cudaSetDevice");
        resident_ = dense_ ? resident_threads(advance_kernel<approx::DenseView>)
                           : resident_threads(advance_kernel<approx::SparseView>);
        const std::uint64_t per_particle = 2 * workspace_bytes(n_, job_config_) +
                                           2 * sizeof(approx::SampleCursor) +
                                           sizeof(std::uint32_t) + sizeof(double);
        // What this sampler already holds for populations counts as free.
        const auto held = static_cast<std::uint64_t>(population_[0].view.slots) * per_particle;
        capacity_ = population_capacity_within(particles, per_particle, resident_,
                                               sampler_memory_budget(held), device_, n_);
        capacity_particles_ = particles;
        return capacity_;
    }

    void begin_particles(std::uint64_t first, std::uint64_t count) override {
        const auto t0 = std::chrono::steady_clock::now();
        check(cudaSetDevice(device_), "cudaSetDevice");
        if (population_[0].view.slots < count) {
            for (int b = 0; b < 2; ++b) {
                population_[b].allocate(n_, job_config_, count);
                cursors_[b].allocate(count, kAllocate);
            }
            ancestors_.allocate(count, kAllocate);
        }
        first_ = first;
        count_ = count;
        current_ = 0;
        const approx::SamplerStart start{row_scale0_.get(),  col_scale0_.get(), row_degree0_.get(),
                                         col_degree0_.get(), row_match0_.get(), col_match0_.get()};
        begin_kernel<<<blocks_for(count), kThreadsPerBlock>>>(
            n_, start, job_config_, population_[0].view, cursors_[0].get(), count);
        check(cudaGetLastError(), "estimator begin kernel launch");
        seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    }

    void advance_particles(vertex_t until) override {
        const auto t0 = std::chrono::steady_clock::now();
        check(cudaSetDevice(device_), "cudaSetDevice");
        const unsigned blocks = blocks_for(std::min(count_, std::max<std::uint64_t>(resident_, 1)));
        const WorkspaceArrays& w = population_[current_].view;
        approx::SampleCursor* c = cursors_[current_].get();
        if (dense_) {
            advance_kernel<<<blocks, kThreadsPerBlock>>>(dense_view(), job_config_, w, c, first_,
                                                         count_, until);
        } else {
            advance_kernel<<<blocks, kThreadsPerBlock>>>(sparse_view(), job_config_, w, c, first_,
                                                         count_, until);
        }
        check(cudaGetLastError(), "estimator advance kernel launch");
        seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    }

    void particle_log_weights(double* out) override {
        const auto t0 = std::chrono::steady_clock::now();
        check(cudaSetDevice(device_), "cudaSetDevice");
        host_cursors_.resize(count_);
        check(cudaMemcpy(host_cursors_.data(), cursors_[current_].get(),
                         count_ * sizeof(approx::SampleCursor), cudaMemcpyDeviceToHost),
              "estimator kernel / cudaMemcpy to host");
        for (std::uint64_t k = 0; k < count_; ++k) {
            out[k] = host_cursors_[k].log_estimate + host_cursors_[k].log_potential;
        }
        seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    }

    void select_particles(const std::uint32_t* ancestors) override {
        const auto t0 = std::chrono::steady_clock::now();
        check(cudaSetDevice(device_), "cudaSetDevice");
        check(cudaMemcpy(ancestors_.get(), ancestors, count_ * sizeof(std::uint32_t),
                         cudaMemcpyHostToDevice),
              "cudaMemcpy to device (ancestors)");
        const int next = 1 - current_;
        select_kernel<<<blocks_for(count_), kThreadsPerBlock>>>(
            n_, population_[current_].view, population_[next].view, cursors_[current_].get(),
            cursors_[next].get(), ancestors_.get(), count_);
        check(cudaGetLastError(), "estimator select kernel launch");
        current_ = next;
        seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
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

    template <class Kernel>
    std::uint64_t resident_threads(Kernel kernel) const {
        return sampler_resident_threads(kernel, multiprocessors_);
    }

    static unsigned blocks_for(std::uint64_t threads) { return sampler_blocks(threads); }

    /// Slots of independent sampling: resident threads of the kernel, capped by memory (see
    /// the file comment); allocated at the first sample() call.
    std::uint64_t independent_slots() const {
        const std::uint64_t resident = dense_ ? resident_threads(sample_kernel<approx::DenseView>)
                                              : resident_threads(sample_kernel<approx::SparseView>);
        return independent_sampler_slots(resident, workspace_bytes(n_, job_config_), device_, n_);
    }

    approx::SamplerConfig job_config_;
    vertex_t n_ = 0;
    int device_ = 0;
    std::string name_;
    bool dense_ = false;
    DeviceBuffer<double> dense_values_;
    DeviceBuffer<std::int64_t> row_ptr_, col_ptr_;
    DeviceBuffer<vertex_t> col_idx_, row_idx_;
    DeviceBuffer<double> row_val_, col_val_;
    DeviceBuffer<double> row_scale0_, col_scale0_;
    DeviceBuffer<std::int32_t> row_degree0_, col_degree0_;
    DeviceBuffer<vertex_t> row_match0_, col_match0_;
    int multiprocessors_ = 1;
    std::uint64_t slots_ = 0;
    WorkspaceStore independent_;
    DeviceBuffer<double> out_;
    // Populations: two sets of workspaces and cursors (selection copies from one to the other).
    WorkspaceStore population_[2];
    DeviceBuffer<approx::SampleCursor> cursors_[2];
    DeviceBuffer<std::uint32_t> ancestors_;
    std::vector<approx::SampleCursor> host_cursors_;
    std::uint64_t capacity_ = 0, capacity_particles_ = 0, resident_ = 0;
    std::uint64_t first_ = 0, count_ = 0;
    int current_ = 0;
    double seconds_ = 0;
};

}  // namespace

std::unique_ptr<GpuSampler> make_gpu_sampler(const GpuSamplerJob& job) {
    return std::make_unique<CudaSampler>(job);
}

}  // namespace pmcount::backend::cuda
