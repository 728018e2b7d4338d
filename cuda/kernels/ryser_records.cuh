// The dense Ryser program's kernels beside the walk (compiled in the same NVRTC program, after
// ryser_dense.cuh, whose Params, records and double-double they use): the reduction of the
// groups' records into one record per segment, and the FP64 throughput probe behind the cost
// model's GPU rate (backend::cuda::fp64_rate). No host includes: embedded as a string.

namespace pmcount_gpu {

/// Combines the records of aligned segments of kGroupsPerSegment groups, one block per segment,
/// in a fixed tree (double-double sums; modular sums mod p), and writes one record per segment:
/// with records of the whole range reduced segment by segment, the host's sum in segment order
/// is the same for any batching and any number of GPUs.
__global__ void __launch_bounds__(kGroupsPerSegment)
    reduce_records(const __grid_constant__ Params q, int modular, double* out) {
    __shared__ double part[kGroupsPerSegment][kRecordDoubles];
    const int t = threadIdx.x;
    const u64 index = static_cast<u64>(blockIdx.x) * kGroupsPerSegment + t;
#pragma unroll
    for (int w = 0; w < kRecordDoubles; ++w) {
        part[t][w] = index < q.group_count ? q.records[index * kRecordDoubles + w] : 0.0;
    }
    __syncthreads();
    for (int width = kGroupsPerSegment / 2; width > 0; width /= 2) {
        if (t < width) {
            if (modular != 0) {
                u32* a = reinterpret_cast<u32*>(part[t]);
                const u32* b = reinterpret_cast<const u32*>(part[t + width]);
                for (int k = 0; k < q.primes; ++k) {
                    const u32 v = a[k] + b[k];
                    a[k] = v >= q.p[k] ? v - q.p[k] : v;
                }
            } else {
                const DD re = dd_add({part[t][0], part[t][1]}, {part[t + width][0], part[t + width][1]});
                const DD im = dd_add({part[t][2], part[t][3]}, {part[t + width][2], part[t + width][3]});
                part[t][0] = re.hi;
                part[t][1] = re.lo;
                part[t][2] = im.hi;
                part[t][3] = im.lo;
                part[t][4] += part[t + width][4];
                part[t][5] += part[t + width][5];
            }
        }
        __syncthreads();
    }
    if (t < kRecordDoubles) {
        out[static_cast<u64>(blockIdx.x) * kRecordDoubles + t] = part[0][t];
    }
}

/// FP64 add/multiply throughput: 8 independent chains per thread, each iteration one multiply
/// and one add per chain (16 FP64 instructions), `iterations` times. Writes a value that depends
/// on every chain so nothing is optimised away.
__global__ void fp64_rate(double* out, double a, double b, int iterations) {
    double v[8];
#pragma unroll
    for (int c = 0; c < 8; ++c) {
        v[c] = threadIdx.x + c;
    }
    for (int i = 0; i < iterations; ++i) {
#pragma unroll
        for (int c = 0; c < 8; ++c) {
            v[c] = v[c] * a + b;  // compiled without contraction: one DMUL and one DADD
        }
    }
    double s = 0;
#pragma unroll
    for (int c = 0; c < 8; ++c) {
        s += v[c];
    }
    if (s == 12345.678) {
        out[0] = s;
    }
}

}  // namespace pmcount_gpu
