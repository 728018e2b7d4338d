# Finds pmcount's dependencies. Each is a Debian/Ubuntu package; when one is missing, configuration
# stops with the package name, and scripts/install-deps.sh installs it.
include_guard(GLOBAL)

function(pmcount_missing what debian_package)
    message(FATAL_ERROR
        "pmcount needs ${what}, which was not found.\n"
        "Install it with:  apt-get install ${debian_package}\n"
        "or run:           scripts/install-deps.sh")
endfunction()

find_package(Boost 1.74 CONFIG QUIET)
if(NOT Boost_FOUND)
    find_package(Boost 1.74 QUIET)
endif()
if(NOT Boost_FOUND)
    pmcount_missing("Boost >= 1.74 headers (Graph, Multiprecision)" libboost-dev)
endif()

find_package(OpenMP QUIET COMPONENTS CXX)
if(NOT OpenMP_CXX_FOUND)
    pmcount_missing("OpenMP for C++" "libgomp1 (g++) or libomp-dev (clang)")
endif()

# The library's to_json (lib/count/result_json.cpp) writes with it, privately and header-only.
find_package(nlohmann_json 3.9 CONFIG QUIET)
if(NOT nlohmann_json_FOUND)
    pmcount_missing("nlohmann-json >= 3.9" nlohmann-json3-dev)
endif()

if(PMCOUNT_BUILD_TOOLS OR PMCOUNT_BUILD_TESTS)
    find_package(CLI11 CONFIG QUIET)
    if(NOT CLI11_FOUND)
        pmcount_missing("CLI11" libcli11-dev)
    endif()
endif()

if(PMCOUNT_BUILD_TESTS)
    find_package(GTest CONFIG QUIET)
    if(NOT GTest_FOUND)
        find_package(GTest QUIET)
    endif()
    if(NOT GTest_FOUND)
        pmcount_missing("GoogleTest" libgtest-dev)
    endif()
    find_package(Eigen3 3.3 CONFIG QUIET)
    if(NOT Eigen3_FOUND)
        pmcount_missing("Eigen >= 3.3" libeigen3-dev)
    endif()
endif()

# CUDA: used when found (PMCOUNT_ENABLE_CUDA), required with PMCOUNT_REQUIRE_CUDA.
set(PMCOUNT_HAVE_CUDA OFF)
if(PMCOUNT_ENABLE_CUDA OR PMCOUNT_REQUIRE_CUDA)
    include(CheckLanguage)
    check_language(CUDA)
    if(CMAKE_CUDA_COMPILER)
        if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
            set(CMAKE_CUDA_ARCHITECTURES ${PMCOUNT_CUDA_ARCHITECTURES})
        endif()
        enable_language(CUDA)
        find_package(CUDAToolkit REQUIRED)
        set(PMCOUNT_HAVE_CUDA ON)
    elseif(PMCOUNT_REQUIRE_CUDA)
        message(FATAL_ERROR
            "PMCOUNT_REQUIRE_CUDA is ON but no CUDA compiler was found. Put nvcc on PATH or set "
            "CMAKE_CUDA_COMPILER (e.g. -DCMAKE_CUDA_COMPILER=/usr/local/cuda/bin/nvcc).")
    endif()
endif()
if(PMCOUNT_HAVE_CUDA)
    set(PMCOUNT_CUDA_STATUS "on (nvcc ${CMAKE_CUDA_COMPILER_VERSION}, arch ${CMAKE_CUDA_ARCHITECTURES})")
else()
    set(PMCOUNT_CUDA_STATUS "off (stub)")
endif()

# MPI (OpenMPI from the distribution: openmpi-bin, libopenmpi-dev): used when found. Without it
# the library and count_matchings build alike and run as one rank.
set(PMCOUNT_HAVE_MPI OFF)
if(PMCOUNT_ENABLE_MPI)
    # The C API through the C++ compiler (the project enables no C); not MPI's C++ bindings.
    set(MPI_CXX_SKIP_MPICXX ON)
    find_package(MPI QUIET COMPONENTS CXX)
    if(MPI_CXX_FOUND)
        set(PMCOUNT_HAVE_MPI ON)
        set(PMCOUNT_MPI_STATUS "on (MPI ${MPI_CXX_VERSION}; ${MPIEXEC_EXECUTABLE})")
    else()
        set(PMCOUNT_MPI_STATUS "off (no MPI found: apt-get install libopenmpi-dev openmpi-bin)")
    endif()
else()
    set(PMCOUNT_MPI_STATUS "off (PMCOUNT_ENABLE_MPI=OFF)")
endif()
