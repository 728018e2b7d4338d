// GPU sampler of the monomer–dimer estimator (lib/approx/monomer_dimer_sampler.hpp, the same
// code the CPU runs): one sample or particle per thread, the graph (CSR, Bethe messages) read-only
// in global memory, each thread's free bits in global memory, interleaved as in approx_gpu.cu
// (word k of slot t at k·T + t), so that the threads of a warp — all at the same step of the
// sweep, hence reading the same vertex's list — touch consecutive words.
//
// Populations: particle k owns slot k of a set sized for all particles side by side;
// advance_kernel takes every particle's steps up to the next resampling point (grid-stride over
// the particles), the host draws the ancestors (population.hpp) from the weights, and
// select_kernel copies the chosen particles' bits and cursors into the second set. Both sets
// take at most half of the free memory together.
//
// Compiled with -fmad=false (cuda/CMakeLists.txt), as the CPU build is, so both draw the same
// samples.
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

#include "approx/monomer_dimer.hpp"
#include "approx/sampler_device.hpp"
#include "common/cuda_status.cuh"
#include "common/device_buffer.cuh"
#include "common/sampler_launch.cuh"
#include "pmcount/error.hpp"

namespace pmcount::backend::cuda {

namespace {

constexpr int kThreadsPerBlock = kSamplerThreadsPerBlock;
constexpr const char* kAllocate = "cudaMalloc (monomer-dimer estimator)";
constexpr const char* kCopy = "cudaMemcpy to device (monomer-dimer estimator)";

/// Slot `slot`'s free bits among `slots` interleaved ones.
struct InterleavedBits {
    std::uint32_t* bits;
    std::uint64_t slots;
    std::uint64_t slot;
    __device__ std::uint32_t& operator()(vertex_t k) const noexcept {
        return bits[static_cast<std::uint64_t>(k) * slots + slot];
    }
};

__global__ void __launch_bounds__(kThreadsPerBlock)
    sample_kernel(approx::MonomerDimerView g, std::uint32_t* bits, std::uint64_t slots,
                  std::uint64_t seed, std::uint64_t first, std::uint64_t count, double* log_out) {
    const std::uint64_t slot = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (slot >= slots) {
        return;
    }
    const InterleavedBits live{bits, slots, slot};
    for (std::uint64_t k = slot; k < count; k += slots) {
        approx::MonomerDimerCursor cursor;
        approx::monomer_dimer_begin(g.n, live, cursor);
        approx::monomer_dimer_advance(g, live, cursor, seed, first + k, g.n);
        log_out[k] = cursor.log_estimate;
    }
}

__global__ void __launch_bounds__(kThreadsPerBlock)
    begin_kernel(vertex_t n, std::uint32_t* bits, approx::MonomerDimerCursor* cursors,
                 std::uint64_t count) {
    const std::uint64_t stride = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
    for (std::uint64_t k = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
         k < count; k += stride) {
        approx::monomer_dimer_begin(n, InterleavedBits{bits, count, k}, cursors[k]);
    }
}

__global__ void __launch_bounds__(kThreadsPerBlock)
    advance_kernel(approx::MonomerDimerView g, std::uint32_t* bits,
                   approx::MonomerDimerCursor* cursors, std::uint64_t seed, std::uint64_t first,
                   std::uint64_t count, vertex_t until) {
    const std::uint64_t stride = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
    for (std::uint64_t k = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
         k < count; k += stride) {
        approx::MonomerDimerCursor cursor = cursors[k];
        approx::monomer_dimer_advance(g, InterleavedBits{bits, count, k}, cursor, seed, first + k,
                                      until);
        cursors[k] = cursor;
    }
}

/// Particle k of the next set becomes a copy of particle ancestors[k], its weight restarting
/// at 1/Φ^e.
__global__ void __launch_bounds__(kThreadsPerBlock)
    select_kernel(vertex_t words, const std::uint32_t* from, std::uint32_t* to,
                  const approx::MonomerDimerCursor* from_cursors,
                  approx::MonomerDimerCursor* to_cursors, const std::uint32_t* ancestors,
                  double exponent, std::uint64_t count) {
    const std::uint64_t stride = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
    for (std::uint64_t k = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
         k < count; k += stride) {
        const std::uint64_t a = ancestors[k];
        for (vertex_t i = 0; i < words; ++i) {
            to[static_cast<std::uint64_t>(i) * count + k] =
                from[static_cast<std::uint64_t>(i) * count + a];
        }
        approx::MonomerDimerCursor c = from_cursors[a];
        if (c.log_estimate > -HUGE_VAL) {  // a zero stays 0
            c.log_estimate = -exponent * c.log_taken;
        }
        to_cursors[k] = c;
    }
}

class MonomerDimerSampler final : public GpuSampler {
public:
    explicit MonomerDimerSampler(const GpuMonomerDimerJob& job)
        : device_(job.device), seed_(job.seed), exponent_(job.exponent) {
        const approx::MonomerDimerProblem& p = *job.problem;
        n_ = p.n;
        words_ = (p.n + 31) / 32;
        monomer_ = p.monomer;
        check(cudaSetDevice(device_), "cudaSetDevice");
        cudaDeviceProp prop{};
        check(cudaGetDeviceProperties(&prop, device_), "cudaGetDeviceProperties");
        name_ = prop.name;
        multiprocessors_ = prop.multiProcessorCount;
        offsets_.assign(p.offsets, kCopy, kAllocate);
        neighbours_.assign(p.neighbours, kCopy, kAllocate);
        weights_.assign(p.weights, kCopy, kAllocate);
        incoming_.assign(p.incoming, kCopy, kAllocate);
        log_ratio_.assign(p.log_ratio, kCopy, kAllocate);
        // Independent samples: the resident threads, capped by memory, whole blocks.
        slots_ = independent_sampler_slots(
            sampler_resident_threads(sample_kernel, multiprocessors_),
            static_cast<std::uint64_t>(words_) * sizeof(std::uint32_t), device_, n_);
    }

    void sample(std::uint64_t first, std::uint64_t count, double* log_out) override {
        if (count == 0) {
            return;
        }
        const auto t0 = std::chrono::steady_clock::now();
        check(cudaSetDevice(device_), "cudaSetDevice");
        if (independent_.size() < slots_ * static_cast<std::uint64_t>(words_)) {
            independent_.allocate(slots_ * static_cast<std::uint64_t>(words_), kAllocate);
        }
        if (out_.size() < count) {
            out_.allocate(count, kAllocate);
        }
        sample_kernel<<<sampler_blocks(slots_), kThreadsPerBlock>>>(
            view(), independent_.get(), slots_, seed_, first, count, out_.get());
        check(cudaGetLastError(), "monomer-dimer kernel launch");
        check(cudaMemcpy(log_out, out_.get(), count * sizeof(double), cudaMemcpyDeviceToHost),
              "monomer-dimer kernel / cudaMemcpy to host");
        seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    }

    double device_seconds() const override { return seconds_; }
    std::uint64_t slots() const override { return slots_; }
    std::string description() const override {
        return "GPU " + std::to_string(device_) + " (" + name_ + ", " + std::to_string(slots_) +
               " threads)";
    }

    /// Resident threads of advance_kernel, or `particles` if more, capped so that two sets of
    /// bits and cursors take at most half of the free memory; a multiple of `particles`.
    std::uint64_t population_capacity(std::uint64_t particles) override {
        if (capacity_particles_ == particles) {
            return capacity_;
        }
        check(cudaSetDevice(device_), "cudaSetDevice");
        resident_ = sampler_resident_threads(advance_kernel, multiprocessors_);
        const std::uint64_t per_particle =
            2 * (static_cast<std::uint64_t>(words_) * sizeof(std::uint32_t) +
                 sizeof(approx::MonomerDimerCursor)) +
            sizeof(std::uint32_t) + sizeof(double);
        capacity_ = population_capacity_within(
            particles, per_particle, resident_,
            sampler_memory_budget(held_particles_ * per_particle), device_, n_);
        capacity_particles_ = particles;
        return capacity_;
    }

    void begin_particles(std::uint64_t first, std::uint64_t count) override {
        const auto t0 = std::chrono::steady_clock::now();
        check(cudaSetDevice(device_), "cudaSetDevice");
        if (held_particles_ < count) {
            for (int b = 0; b < 2; ++b) {
                bits_[b].allocate(count * static_cast<std::uint64_t>(words_), kAllocate);
                cursors_[b].allocate(count, kAllocate);
            }
            ancestors_.allocate(count, kAllocate);
            held_particles_ = count;
        }
        first_ = first;
        count_ = count;
        current_ = 0;
        begin_kernel<<<sampler_blocks(count), kThreadsPerBlock>>>(n_, bits_[0].get(),
                                                                  cursors_[0].get(), count);
        check(cudaGetLastError(), "monomer-dimer begin kernel launch");
        seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    }

    void advance_particles(vertex_t until) override {
        const auto t0 = std::chrono::steady_clock::now();
        check(cudaSetDevice(device_), "cudaSetDevice");
        const unsigned blocks =
            sampler_blocks(std::min(count_, std::max<std::uint64_t>(resident_, 1)));
        advance_kernel<<<blocks, kThreadsPerBlock>>>(
            view(), bits_[current_].get(), cursors_[current_].get(), seed_, first_, count_, until);
        check(cudaGetLastError(), "monomer-dimer advance kernel launch");
        seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    }

    void particle_log_weights(double* out) override {
        const auto t0 = std::chrono::steady_clock::now();
        check(cudaSetDevice(device_), "cudaSetDevice");
        host_cursors_.resize(count_);
        check(cudaMemcpy(host_cursors_.data(), cursors_[current_].get(),
                         count_ * sizeof(approx::MonomerDimerCursor), cudaMemcpyDeviceToHost),
              "monomer-dimer kernel / cudaMemcpy to host");
        for (std::uint64_t k = 0; k < count_; ++k) {
            out[k] = host_cursors_[k].log_estimate + exponent_ * host_cursors_[k].log_taken;
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
        select_kernel<<<sampler_blocks(count_), kThreadsPerBlock>>>(
            words_, bits_[current_].get(), bits_[next].get(), cursors_[current_].get(),
            cursors_[next].get(), ancestors_.get(), exponent_, count_);
        check(cudaGetLastError(), "monomer-dimer select kernel launch");
        current_ = next;
        seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    }

private:
    approx::MonomerDimerView view() const {
        return {n_,
                monomer_,
                offsets_.get(),
                neighbours_.get(),
                weights_.get(),
                incoming_.get(),
                log_ratio_.get()};
    }

    int device_ = 0;
    std::uint64_t seed_ = 0;
    double exponent_ = 1;
    vertex_t n_ = 0, words_ = 0;
    double monomer_ = 1;
    std::string name_;
    int multiprocessors_ = 1;
    DeviceBuffer<std::int64_t> offsets_;
    DeviceBuffer<vertex_t> neighbours_;
    DeviceBuffer<double> weights_, incoming_, log_ratio_;
    std::uint64_t slots_ = 0;
    DeviceBuffer<std::uint32_t> independent_;
    DeviceBuffer<double> out_;
    DeviceBuffer<std::uint32_t> bits_[2];
    DeviceBuffer<approx::MonomerDimerCursor> cursors_[2];
    DeviceBuffer<std::uint32_t> ancestors_;
    std::vector<approx::MonomerDimerCursor> host_cursors_;
    std::uint64_t held_particles_ = 0;
    std::uint64_t capacity_ = 0, capacity_particles_ = 0, resident_ = 0;
    std::uint64_t first_ = 0, count_ = 0;
    int current_ = 0;
    double seconds_ = 0;
};

}  // namespace

std::unique_ptr<GpuSampler> make_gpu_monomer_dimer(const GpuMonomerDimerJob& job) {
    return std::make_unique<MonomerDimerSampler>(job);
}

}  // namespace pmcount::backend::cuda
