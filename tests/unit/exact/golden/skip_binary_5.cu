
namespace pmcount_gpu {
namespace generated {
__constant__ double base[] = {0x1p+0,0x1p+0,0x1p+1,0x1p+0,0x1p+1};
__constant__ u64 row_mask[] = {0x3ULL,0x6ULL,0x5ULL,0xcULL,0xbULL};
}  // namespace generated
struct Generated {
    static constexpr int kTests = 2;
    static constexpr int kFreeBits = 0;
    static constexpr int kSubBits = 1;
    static constexpr u64 kDynamicRows = 0x15ULL;
    static constexpr int col_start[] = {0,3,6,9,12};
    static constexpr int col_row[] = {0,2,4,0,1,4,1,2
    ,3,2,3,4};
    static constexpr double values[] = {0x1p+1,0x1p+1,0x1p+1,0x1p+1,0x1p+1,0x1p+1,0x1p+1,0x1p+1
    ,0x1p+1,0x1p+1,0x1p+1,0x1p+1};
    static constexpr u64 test_mask[] = {0x3ULL,0xcULL};
    static constexpr u64 test_low[] = {0xffffffffffffffffULL,0xfffffffffffffffcULL};
    static constexpr u64 test_low_bit[] = {0x1ULL,0x4ULL};
    static constexpr int test_count[] = {1,2};
    static constexpr int layer_start[] = {0,3,4,5};
    static constexpr int layer_row[] = {0,2,4,1,3};
    __device__ static double base_word(int k) { return generated::base[k]; }
    __device__ static u64 mask(int s) { return generated::row_mask[s]; }
};
}  // namespace pmcount_gpu
