# Warning, optimisation and sanitizer flags shared by every pmcount target, as an interface target.
include_guard(GLOBAL)
include(CheckCXXCompilerFlag)

add_library(pmcount_flags INTERFACE)
# -Wno-psabi: without AVX-512, GCC notes that passing the 8-double vectors (Double8) changes
# the ABI; every unit of pmcount is built with the same -march, so no call crosses that change.
target_compile_options(pmcount_flags INTERFACE
    $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion
    -Wno-psabi>)
if(PMCOUNT_WARNINGS_AS_ERRORS)
    target_compile_options(pmcount_flags INTERFACE $<$<COMPILE_LANGUAGE:CXX>:-Werror>)
endif()

# The Gray-code loops vectorise the x update and the lane products; -march=native lets them use
# the widest vectors of the machine that builds (and, for a source build, runs) pmcount.
# PMCOUNT_MARCH names another target instead (x86-64-v3: AVX2 without AVX-512, as on many AMD
# and older Intel machines; x86-64: the scalar fallbacks), so that one machine can build and test
# every vector width its users' machines have (scripts/vector-width-tests.sh).
if(PMCOUNT_MARCH)
    check_cxx_compiler_flag(-march=${PMCOUNT_MARCH} PMCOUNT_HAS_MARCH)
    if(NOT PMCOUNT_HAS_MARCH)
        message(FATAL_ERROR "PMCOUNT_MARCH=${PMCOUNT_MARCH}: the compiler does not accept "
                            "-march=${PMCOUNT_MARCH}")
    endif()
    target_compile_options(pmcount_flags INTERFACE
        $<$<COMPILE_LANGUAGE:CXX>:-march=${PMCOUNT_MARCH}>)
elseif(PMCOUNT_NATIVE)
    check_cxx_compiler_flag(-march=native PMCOUNT_HAS_MARCH_NATIVE)
    if(PMCOUNT_HAS_MARCH_NATIVE)
        target_compile_options(pmcount_flags INTERFACE $<$<COMPILE_LANGUAGE:CXX>:-march=native>)
    endif()
endif()

# Any report is a failure: undefined behaviour stops the program as AddressSanitizer does.
if(PMCOUNT_SANITIZE OR PMCOUNT_FUZZ)
    target_compile_options(pmcount_flags INTERFACE
        $<$<COMPILE_LANGUAGE:CXX>:-fsanitize=address,undefined -fno-sanitize-recover=all
                                  -fno-omit-frame-pointer>)
    target_link_options(pmcount_flags INTERFACE -fsanitize=address,undefined)
endif()

# libFuzzer's coverage instrumentation in every target; the harnesses link its main.
if(PMCOUNT_FUZZ)
    if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
        message(FATAL_ERROR "PMCOUNT_FUZZ needs clang (libFuzzer): configure with "
                            "-DCMAKE_CXX_COMPILER=clang++ (scripts/fuzz.sh does)")
    endif()
    target_compile_options(pmcount_flags INTERFACE
        $<$<COMPILE_LANGUAGE:CXX>:-fsanitize=fuzzer-no-link>)
endif()
