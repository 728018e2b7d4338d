// Probe behind docs/gpu.md ("FP64 tensor cores"): do DMMA (mma.sync f64) and the FP64 vector
// instructions (DMUL, DADD) run side by side, or share one pipe? Each kernel runs VEC vector
// instructions per iteration (8 independent chains) and TCOUNT tensor operations of one shape
// (TEN: 1 m8n8k4, 2 m16n8k4, 3 m16n8k16; 4 independent accumulators); the mixed kernels do both
// in one loop. If the two ran side by side, a mixed kernel would take about as long as the
// slower of its two parts; sharing a pipe, about the sum.
//   nvcc -arch=sm_90 -O3 -fmad=false -o fp64_tensor_overlap fp64_tensor_overlap.cu
#include <cstdio>
#include <cuda_runtime.h>
__device__ __forceinline__ void mma884(double (&d)[2], double a, double b) {
  asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0,%1}, {%2}, {%3}, {%0,%1};"
               : "+d"(d[0]), "+d"(d[1]) : "d"(a), "d"(b));
}
__device__ __forceinline__ void mma1684(double (&d)[4], double a0, double a1, double b) {
  asm volatile("mma.sync.aligned.m16n8k4.row.col.f64.f64.f64.f64 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};"
               : "+d"(d[0]), "+d"(d[1]), "+d"(d[2]), "+d"(d[3]) : "d"(a0), "d"(a1), "d"(b));
}
__device__ __forceinline__ void mma16816(double (&d)[4], const double (&a)[8], const double (&b)[4]) {
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64 {%0,%1,%2,%3}, {%4,%5,%6,%7,%8,%9,%10,%11}, {%12,%13,%14,%15}, {%0,%1,%2,%3};"
               : "+d"(d[0]), "+d"(d[1]), "+d"(d[2]), "+d"(d[3])
               : "d"(a[0]), "d"(a[1]), "d"(a[2]), "d"(a[3]), "d"(a[4]), "d"(a[5]), "d"(a[6]), "d"(a[7]),
                 "d"(b[0]), "d"(b[1]), "d"(b[2]), "d"(b[3]));
}
// VEC: vector FP64 instructions per iteration (in chains of 8), TEN: tensor op kind
template <int VEC, int TEN, int TCOUNT>
__global__ void k(double* out, double a, double b, int iters) {
  double v[8];
  for (int c = 0; c < 8; ++c) v[c] = threadIdx.x + c;
  double d2[4][2] = {}; double d4[4][4] = {};
  double ta = a * threadIdx.x, tb = b + threadIdx.x;
  double A8[8], B4[4];
  for (int c = 0; c < 8; ++c) A8[c] = ta + c;
  for (int c = 0; c < 4; ++c) B4[c] = tb + c;
  for (int i = 0; i < iters; ++i) {
#pragma unroll
    for (int r = 0; r < VEC / 16; ++r) {
#pragma unroll
      for (int c = 0; c < 8; ++c) v[c] = v[c] * a + b;
    }
#pragma unroll
    for (int t = 0; t < TCOUNT; ++t) {
      if (TEN == 1) mma884(d2[t % 4], ta, tb);
      if (TEN == 2) mma1684(d4[t % 4], ta, tb, tb);
      if (TEN == 3) mma16816(d4[t % 4], A8, B4);
    }
  }
  double s = 0;
  for (int c = 0; c < 8; ++c) s += v[c];
  for (int c = 0; c < 4; ++c) s += d2[c][0] + d2[c][1] + d4[c][0] + d4[c][1] + d4[c][2] + d4[c][3];
  if (s == 12345.678) out[0] = s;
}
template <int VEC, int TEN, int TCOUNT>
void run(const char* name, int iters, int blocksPerSm) {
  int sms; cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  double* out; cudaMalloc(&out, 8);
  cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
  k<VEC, TEN, TCOUNT><<<sms * blocksPerSm, 128>>>(out, 1.0000001, 1e-9, 10);
  cudaEventRecord(e0);
  k<VEC, TEN, TCOUNT><<<sms * blocksPerSm, 128>>>(out, 1.0000001, 1e-9, iters);
  cudaEventRecord(e1); cudaEventSynchronize(e1);
  float ms; cudaEventElapsedTime(&ms, e0, e1);
  double warps = double(sms) * blocksPerSm * 4;
  double vec = warps * 32 * VEC * (double)iters;
  int fma_per = TEN == 1 ? 256 : TEN == 2 ? 512 : 2048;
  double ten = warps * TCOUNT * (double)iters * fma_per;
  printf("%-28s %8.3f ms  vec %.3e instr/s  tensor %.3e FMA/s  err=%s\n", name, ms, vec / ms * 1e3,
         ten / ms * 1e3, cudaGetErrorString(cudaGetLastError()));
  cudaFree(out);
}
int main() {
  const int it = 20000;
  for (int bps : {2, 4}) {
    printf("blocks/SM %d\n", bps);
    run<64, 0, 0>("vec64", it, bps);
    run<0, 1, 4>("m8n8k4 x4", it, bps);
    run<0, 1, 8>("m8n8k4 x8", it, bps);
    run<0, 2, 4>("m16n8k4 x4", it, bps);
    run<0, 3, 4>("m16n8k16 x4", it, bps);
    run<64, 1, 4>("vec64 + m8n8k4 x4", it, bps);
    run<64, 1, 8>("vec64 + m8n8k4 x8", it, bps);
    run<64, 2, 4>("vec64 + m16n8k4 x4", it, bps);
    run<64, 3, 1>("vec64 + m16n8k16 x1", it, bps);
    run<64, 3, 2>("vec64 + m16n8k16 x2", it, bps);
  }
}
