
namespace pmcount_gpu {
namespace generated {
__constant__ double base[] = {0x1.c28f5c28f5c2ap-3,0x1.999999999999ap-2,0x1.47ae147ae147bp+0,0x1.a3d70a3d70a3dp-1,0x1p+0,0x1.3d70a3d70a3d7p+1};
__constant__ u64 row_mask[] = {0};
}  // namespace generated
struct Generated {
    static constexpr int kTests = 0;
    static constexpr int kFreeBits = 0;
    static constexpr int kSubBits = 0;
    static constexpr u64 kDynamicRows = 0x0ULL;
    static constexpr int col_start[] = {0,4,8,12,16,20};
    static constexpr int col_row[] = {1,2,4,5,0,2,3,5
    ,0,1,3,4,1,2,4,5
    ,0,2,3,5};
    static constexpr double values[] = {0x1.999999999999ap-2,0x1.3333333333333p-1,0x1p+0,0x1.3333333333333p+0,0x1.c28f5c28f5c29p-3,0x1.3d70a3d70a3d7p-1,0x1.a3d70a3d70a3dp-1,0x1.3851eb851eb85p+0
    ,0x1.eb851eb851eb8p-3,0x1.c28f5c28f5c29p-2,0x1.ae147ae147ae1p-1,0x1.0a3d70a3d70a4p+0,0x1.d70a3d70a3d71p-2,0x1.51eb851eb851fp-1,0x1.0f5c28f5c28f6p+0,0x1.428f5c28f5c29p+0
    ,0x1.1eb851eb851ecp-2,0x1.5c28f5c28f5c3p-1,0x1.c28f5c28f5c29p-1,0x1.47ae147ae147bp+0};
    static constexpr u64 test_mask[] = {0};
    static constexpr u64 test_low[] = {0};
    static constexpr u64 test_low_bit[] = {0};
    static constexpr int test_count[] = {0};
    static constexpr int layer_start[] = {0,4,6,6};
    static constexpr int layer_row[] = {1,2,4,5,0,3};
    __device__ static double base_word(int k) { return generated::base[k]; }
    __device__ static u64 mask(int s) { return generated::row_mask[s]; }
};
}  // namespace pmcount_gpu
