// Device memory and events that free themselves: every path out of a host function, an exception
// included, releases what it allocated (the one RAII owner of device memory in cuda/).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <utility>
#include <vector>

#include "cuda_status.cuh"

namespace pmcount::backend::cuda {

/// `size()` elements of T in device memory (null when empty), freed with the owner. Moves, never
/// copies.
template <class T>
class DeviceBuffer {
public:
    DeviceBuffer() = default;
    explicit DeviceBuffer(std::size_t count, const char* what = "cudaMalloc") {
        allocate(count, what);
    }
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;
    DeviceBuffer(DeviceBuffer&& other) noexcept
        : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)) {}
    DeviceBuffer& operator=(DeviceBuffer&& other) noexcept {
        if (this != &other) {
            release();
            data_ = std::exchange(other.data_, nullptr);
            size_ = std::exchange(other.size_, 0);
        }
        return *this;
    }
    ~DeviceBuffer() { release(); }

    /// Replaces the contents by `count` uninitialised elements (none: null); `what` names the
    /// allocation in the DeviceError of a failure.
    void allocate(std::size_t count, const char* what = "cudaMalloc") {
        release();
        if (count > 0) {
            check(cudaMalloc(&data_, count * sizeof(T)), what);
        }
        size_ = count;
    }
    /// Replaces the contents by a copy of `host`.
    void assign(const std::vector<T>& host, const char* what = "cudaMemcpy to device",
                const char* what_allocate = "cudaMalloc") {
        allocate(host.size(), what_allocate);
        if (!host.empty()) {
            check(cudaMemcpy(data_, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice),
                  what);
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

/// The buffers of one worker, allocated one by one and freed together with it; hands out raw
/// pointers for kernel parameter structs.
class DeviceAllocations {
public:
    /// `count` elements of T (null when none).
    template <class T>
    T* allocate(std::size_t count, const char* what = "cudaMalloc") {
        DeviceBuffer<unsigned char> buffer(count * sizeof(T), what);
        auto* p = reinterpret_cast<T*>(buffer.get());
        buffers_.push_back(std::move(buffer));
        return p;
    }
    /// A device copy of `values` (null when empty).
    template <class T>
    const T* upload(const std::vector<T>& values, const char* what = "cudaMemcpy to device") {
        T* p = allocate<T>(values.size());
        if (!values.empty()) {
            check(cudaMemcpy(p, values.data(), values.size() * sizeof(T), cudaMemcpyHostToDevice),
                  what);
        }
        return p;
    }

private:
    std::vector<DeviceBuffer<unsigned char>> buffers_;
};

/// A CUDA event, destroyed with the owner.
class DeviceEvent {
public:
    DeviceEvent() { check(cudaEventCreate(&event_), "cudaEventCreate"); }
    DeviceEvent(const DeviceEvent&) = delete;
    DeviceEvent& operator=(const DeviceEvent&) = delete;
    ~DeviceEvent() { cudaEventDestroy(event_); }
    cudaEvent_t get() const noexcept { return event_; }

private:
    cudaEvent_t event_ = nullptr;
};

}  // namespace pmcount::backend::cuda
