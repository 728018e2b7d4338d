// Double-double on the device (Dekker 1971; the "accurate" additions of Hida, Li and Bailey's QD
// library, as lib/numeric/double_double.hpp on the host): the kernels' records and the
// double-double arithmetic. Prepended to every kernel source that NVRTC compiles
// (cuda/CMakeLists.txt). No includes: NVRTC sees no host headers.
#pragma once

namespace pmcount_kernels {

struct DD {
    double hi;
    double lo;
};
__device__ __forceinline__ DD two_sum(double a, double b) {
    const double s = a + b;
    const double bb = s - a;
    return {s, (a - (s - bb)) + (b - bb)};
}
__device__ __forceinline__ DD quick_two_sum(double a, double b) {
    const double s = a + b;
    return {s, b - (s - a)};
}
__device__ __forceinline__ DD dd_add(DD a, DD b) {
    DD s = two_sum(a.hi, b.hi);
    const DD t = two_sum(a.lo, b.lo);
    s.lo += t.hi;
    s = quick_two_sum(s.hi, s.lo);
    s.lo += t.lo;
    return quick_two_sum(s.hi, s.lo);
}
__device__ __forceinline__ DD dd_mul(DD a, DD b) {
    const double p = a.hi * b.hi;
    const double e = fma(a.hi, b.hi, -p);
    return quick_two_sum(p, e + (a.hi * b.lo + a.lo * b.hi));
}
__device__ __forceinline__ DD dd_neg(DD a) { return {-a.hi, -a.lo}; }

}  // namespace pmcount_kernels
