// The names of the options' and results' enums (pmcount/options.hpp, pmcount/result.hpp): what
// the CLI accepts, JSON carries and error messages list, one table per enum read both ways.
#include <string>
#include <string_view>

#include "core/names.hpp"
#include "pmcount/options.hpp"
#include "pmcount/result.hpp"

namespace pmcount {

namespace {

constexpr detail::Named<Method> kMethods[] = {
    {Method::automatic, "auto"},    {Method::brute_force, "brute-force"},
    {Method::ryser, "ryser"},       {Method::sparyser, "sparyser"},
    {Method::skipper, "skipper"},   {Method::planar, "planar"},
    {Method::frontier, "frontier"}, {Method::hafnian, "hafnian"}};
constexpr detail::Named<Backend> kBackends[] = {
    {Backend::automatic, "auto"}, {Backend::cpu, "cpu"}, {Backend::cuda, "cuda"}};
constexpr detail::Named<GpuKernels> kGpuKernels[] = {{GpuKernels::automatic, "auto"},
                                                     {GpuKernels::tables, "tables"},
                                                     {GpuKernels::generated, "generated"}};
constexpr detail::Named<Precision> kPrecisions[] = {{Precision::automatic, "auto"},
                                                    {Precision::exact, "exact"},
                                                    {Precision::double_precision, "double"},
                                                    {Precision::double_double, "dd"},
                                                    {Precision::double_plain, "plain-double"},
                                                    {Precision::certified, "certified"}};
constexpr detail::Named<Estimator> kEstimators[] = {{Estimator::rasmussen, "rasmussen"},
                                                    {Estimator::rasmussen_plus, "rasmussen+"},
                                                    {Estimator::scaling, "scaling"},
                                                    {Estimator::scaling_plus, "scaling+"},
                                                    {Estimator::bethe, "bethe"}};
constexpr detail::Named<EstimatorLayout> kLayouts[] = {{EstimatorLayout::automatic, "auto"},
                                                       {EstimatorLayout::dense, "dense"},
                                                       {EstimatorLayout::sparse, "sparse"}};
constexpr detail::Named<StopReason> kStopReasons[] = {{StopReason::samples, "samples"},
                                                      {StopReason::time, "time"},
                                                      {StopReason::rel_error, "rel_error"},
                                                      {StopReason::exact, "exact"}};

}  // namespace

const char* to_string(Method method) noexcept {
    return detail::name_of(kMethods, method);
}

const char* to_string(Backend backend) noexcept {
    return detail::name_of(kBackends, backend);
}

Backend backend_from_string(std::string_view name) {
    return detail::value_named(kBackends, name, "backend");
}

const char* to_string(GpuKernels kernels) noexcept {
    return detail::name_of(kGpuKernels, kernels);
}

GpuKernels gpu_kernels_from_string(std::string_view name) {
    return detail::value_named(kGpuKernels, name, "GPU kernels");
}

const char* to_string(Precision precision) noexcept {
    return detail::name_of(kPrecisions, precision);
}

Method method_from_string(std::string_view name) {
    return detail::value_named(kMethods, name, "method");
}

Precision precision_from_string(std::string_view name) {
    return detail::value_named(kPrecisions, name, "precision");
}

const char* to_string(Estimator estimator) noexcept {
    return detail::name_of(kEstimators, estimator);
}

Estimator estimator_from_string(std::string_view name) {
    // "scaling-plus" is accepted for "scaling+" (shells and file names dislike '+').
    std::string canonical(name);
    constexpr std::string_view kPlus = "-plus";
    if (canonical.size() > kPlus.size() &&
        canonical.compare(canonical.size() - kPlus.size(), kPlus.size(), kPlus) == 0) {
        canonical.replace(canonical.size() - kPlus.size(), kPlus.size(), "+");
    }
    return detail::value_named(kEstimators, canonical, "estimator");
}

const char* to_string(EstimatorLayout layout) noexcept {
    return detail::name_of(kLayouts, layout);
}

EstimatorLayout estimator_layout_from_string(std::string_view name) {
    return detail::value_named(kLayouts, name, "layout");
}

const char* to_string(StopReason reason) noexcept {
    return detail::name_of(kStopReasons, reason);
}

}  // namespace pmcount
