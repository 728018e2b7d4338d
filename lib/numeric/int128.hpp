// 128-bit unsigned integers (a GCC/Clang extension; __extension__ keeps -Wpedantic quiet).
#pragma once

namespace pmcount::numeric {

__extension__ using uint128_t = unsigned __int128;
__extension__ using int128_t = __int128;

}  // namespace pmcount::numeric
