// Stand-in for the CUDA target in builds without a CUDA toolkit.
#include "approx/sampler_device.hpp"
#include "exact/hafnian/hafnian_device.hpp"
#include "exact/ryser/ryser_device.hpp"
#include "exact/torontonian/torontonian_device.hpp"
#include "pmcount/error.hpp"

namespace pmcount::backend::cuda {

namespace {

[[noreturn]] void not_compiled() {
    throw NotCompiled("this build has no CUDA backend (configured without a CUDA toolkit)");
}

}  // namespace

bool compiled() noexcept { return false; }

std::string toolkit_version() { return {}; }

std::vector<DeviceInfo> devices(std::string& status) {
    status = "this build has no CUDA backend (configured without a CUDA toolkit)";
    return {};
}

GpuRyserResult ryser_dense(const GpuRyserJob&) { not_compiled(); }

GpuRyserResult ryser_sparse(const GpuSparseJob&) { not_compiled(); }

bool sparse_kernel_cached(const GpuSparseJob&) {
    not_compiled();
}

std::uint64_t range_units(const GpuRyserJob&) { not_compiled(); }

std::uint64_t range_units(const GpuSparseJob&) { not_compiled(); }

void merge_range_records(GpuMode, const std::vector<std::uint32_t>&,
                         const std::vector<unsigned char>&, GpuRyserResult&) {
    not_compiled();
}

void forget_loaded_kernels() {}

GpuHafnianResult hafnian(const GpuHafnianJob&) { not_compiled(); }

std::uint64_t hafnian_units(const GpuHafnianJob&) {
    not_compiled();
}

void merge_hafnian_records(const GpuHafnianJob&, const std::vector<unsigned char>&,
                           GpuHafnianResult&) {
    not_compiled();
}

GpuTorontonianResult torontonian(const GpuTorontonianJob&) { not_compiled(); }

double fp64_rate(int) { not_compiled(); }

std::unique_ptr<GpuSampler> make_gpu_sampler(const GpuSamplerJob&) { not_compiled(); }

std::unique_ptr<GpuSampler> make_gpu_monomer_dimer(const GpuMonomerDimerJob&) { not_compiled(); }

}  // namespace pmcount::backend::cuda
