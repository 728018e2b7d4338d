// A read-only view of a contiguous array (std::span is C++20; the library is C++17).
#pragma once

#include <cstddef>
#include <vector>

namespace pmcount {

template <class T>
class ArrayView {
public:
    constexpr ArrayView() noexcept = default;
    constexpr ArrayView(const T* data, std::size_t size) noexcept : data_(data), size_(size) {}
    ArrayView(const std::vector<T>& v) noexcept  // NOLINT(google-explicit-constructor)
        : data_(v.data()), size_(v.size()) {}

    constexpr const T* begin() const noexcept { return data_; }
    constexpr const T* end() const noexcept { return data_ + size_; }
    constexpr const T* data() const noexcept { return data_; }
    constexpr std::size_t size() const noexcept { return size_; }
    constexpr bool empty() const noexcept { return size_ == 0; }
    constexpr const T& operator[](std::size_t i) const noexcept { return data_[i]; }

private:
    const T* data_ = nullptr;
    std::size_t size_ = 0;
};

}  // namespace pmcount
