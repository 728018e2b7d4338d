// NVRTC compilation and the on-disk kernel cache (see nvrtc_cache.cuh).
#include <nvrtc.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>

#include "core/hash.hpp"
#include "common/cuda_status.cuh"
#include "nvrtc_cache.cuh"
#include "pmcount/error.hpp"

namespace pmcount::backend::cuda {

namespace {

void check(nvrtcResult status, const char* what) {
    if (status != NVRTC_SUCCESS) {
        throw DeviceError(std::string(what) + ": " + nvrtcGetErrorString(status));
    }
}

std::string cache_directory() {
    if (const char* dir = std::getenv("PMCOUNT_KERNEL_CACHE"); dir != nullptr && *dir != 0) {
        return dir;
    }
    std::string base;
    if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg != nullptr && *xdg != 0) {
        base = xdg;
    } else if (const char* home = std::getenv("HOME"); home != nullptr && *home != 0) {
        base = std::string(home) + "/.cache";
    } else {
        base = "/tmp/pmcount-" + std::to_string(getuid());
    }
    return base + "/pmcount/kernels";
}

void make_directories(const std::string& path) {
    for (std::size_t slash = path.find('/', 1);; slash = path.find('/', slash + 1)) {
        mkdir(path.substr(0, slash).c_str(), 0755);
        if (slash == std::string::npos) {
            break;
        }
    }
}

std::string read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        return {};
    }
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

void write_file(const std::string& path, const std::string& data) {
    const std::string temporary = path + ".tmp" + std::to_string(getpid());
    {
        std::ofstream out(temporary, std::ios::binary);
        out.write(data.data(), static_cast<std::streamsize>(data.size()));
        if (!out) {
            std::remove(temporary.c_str());
            return;
        }
    }
    std::rename(temporary.c_str(), path.c_str());
}

/// The names joined by newlines (neither name expressions nor lowered names contain one).
std::string join_lines(const std::vector<std::string>& lines) {
    std::string text;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        text += (i == 0 ? "" : "\n") + lines[i];
    }
    return text;
}

std::vector<std::string> split_lines(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
        lines.push_back(line);
    }
    return lines;
}

struct Compiled {
    std::string cubin;
    std::vector<std::string> lowered_names;
};

/// Cache file: a header line "pmcount-cubin 1 <bytes> <FNV-1a of the cubin>", the lowered names
/// (one per line), an empty line, then the cubin. Anything else, a short file or a checksum that
/// does not match, is not trusted: the caller compiles again and overwrites it.
constexpr const char* kCacheMagic = "pmcount-cubin 1";

std::string cache_file_text(const Compiled& compiled) {
    char header[96];
    std::snprintf(header, sizeof header, "%s %zu %016llx\n", kCacheMagic, compiled.cubin.size(),
                  static_cast<unsigned long long>(fnv1a(compiled.cubin)));
    return header + join_lines(compiled.lowered_names) + "\n\n" + compiled.cubin;
}

/// The cache file's contents, or an empty Compiled when it is missing or malformed.
Compiled parse_cache_file(const std::string& text, std::size_t names) {
    const std::size_t header_end = text.find('\n');
    const std::size_t names_end = text.find("\n\n", header_end == std::string::npos ? 0 : header_end);
    if (header_end == std::string::npos || names_end == std::string::npos) {
        return {};
    }
    std::size_t size = 0;
    unsigned long long hash = 0;
    char magic[32] = {};
    char version[8] = {};
    if (std::sscanf(text.substr(0, header_end).c_str(), "%31s %7s %zu %llx", magic, version, &size,
                    &hash) != 4 ||
        std::string(magic) + " " + version != kCacheMagic) {
        return {};
    }
    Compiled compiled{text.substr(names_end + 2),
                      split_lines(text.substr(header_end + 1, names_end - header_end - 1))};
    if (compiled.cubin.size() != size || fnv1a(compiled.cubin) != hash ||
        compiled.lowered_names.size() != names) {
        return {};
    }
    return compiled;
}

std::vector<std::string> compile_options(int major, int minor) {
    return {"--gpu-architecture=sm_" + std::to_string(major) + std::to_string(minor), "-std=c++17",
            "--fmad=false", "-default-device"};
}

std::mutex loaded_mutex;
/// Kernels loaded in this process, by cache key.
std::map<std::string, std::vector<cudaKernel_t>> loaded_kernels;

std::string cache_key(const KernelSource& source, const std::vector<std::string>& names,
                      const std::vector<std::string>& options) {
    int nvrtc_major = 0, nvrtc_minor = 0;
    check(nvrtcVersion(&nvrtc_major, &nvrtc_minor), "nvrtcVersion");
    std::string key_text = std::string(source.text) + '\n' + join_lines(names) + '\n' +
                           std::to_string(nvrtc_major) + "." + std::to_string(nvrtc_minor);
    for (const auto& o : options) {
        key_text += '\n' + o;
    }
    char key[17];
    std::snprintf(key, sizeof key, "%016llx", static_cast<unsigned long long>(fnv1a(key_text)));
    return key;
}

Compiled run_nvrtc(const KernelSource& source, const std::vector<std::string>& names,
                   const std::vector<std::string>& options) {
    nvrtcProgram program;
    check(nvrtcCreateProgram(&program, source.text, source.file_name, 0, nullptr, nullptr),
          "nvrtcCreateProgram");
    struct Destroy {
        nvrtcProgram& p;
        ~Destroy() { nvrtcDestroyProgram(&p); }
    } destroy{program};
    for (const auto& name : names) {
        check(nvrtcAddNameExpression(program, name.c_str()), "nvrtcAddNameExpression");
    }
    std::vector<const char*> argv;
    for (const auto& o : options) {
        argv.push_back(o.c_str());
    }
    const nvrtcResult result =
        nvrtcCompileProgram(program, static_cast<int>(argv.size()), argv.data());
    if (result != NVRTC_SUCCESS) {
        std::size_t size = 0;
        nvrtcGetProgramLogSize(program, &size);
        std::string log(size, '\0');
        nvrtcGetProgramLog(program, log.data());
        throw DeviceError("NVRTC could not compile " + names.front() + ": " + log.substr(0, 400));
    }
    Compiled compiled;
    for (const auto& name : names) {
        const char* lowered = nullptr;
        check(nvrtcGetLoweredName(program, name.c_str(), &lowered), "nvrtcGetLoweredName");
        compiled.lowered_names.emplace_back(lowered);
    }
    std::size_t size = 0;
    check(nvrtcGetCUBINSize(program, &size), "nvrtcGetCUBINSize");
    compiled.cubin.assign(size, '\0');
    check(nvrtcGetCUBIN(program, compiled.cubin.data()), "nvrtcGetCUBIN");
    return compiled;
}

/// Loads a cubin into `kernels`; false when the driver refuses it (a corrupt cache file).
bool load_library(const Compiled& compiled, std::vector<cudaKernel_t>& kernels) {
    cudaLibrary_t library;
    if (cudaLibraryLoadData(&library, compiled.cubin.data(), nullptr, nullptr, 0, nullptr, nullptr,
                            0) != cudaSuccess) {
        cudaGetLastError();  // clear the (non-sticky) error so later calls do not report it
        return false;
    }
    kernels.clear();
    for (const auto& lowered : compiled.lowered_names) {
        cudaKernel_t kernel;
        if (cudaLibraryGetKernel(&kernel, library, lowered.c_str()) != cudaSuccess) {
            cudaGetLastError();
            cudaLibraryUnload(library);
            return false;
        }
        kernels.push_back(kernel);
    }
    return true;
}

}  // namespace

const char* to_string(KernelCache cache) noexcept {
    switch (cache) {
        case KernelCache::memory: return "memory";
        case KernelCache::disk: return "disk";
        case KernelCache::compiled: return "compiled";
    }
    return "?";
}

LoadedKernels load_kernels_reporting(const KernelSource& source,
                                     const std::vector<std::string>& name_expressions, int major,
                                     int minor) {
    const auto start = std::chrono::steady_clock::now();
    const std::vector<std::string> options = compile_options(major, minor);
    const std::string key = cache_key(source, name_expressions, options);
    const std::lock_guard<std::mutex> lock(loaded_mutex);
    LoadedKernels out;
    if (const auto it = loaded_kernels.find(key); it != loaded_kernels.end()) {
        out.kernels = it->second;
        out.cache = KernelCache::memory;
        return out;
    }
    const std::string directory = cache_directory();
    const std::string path = directory + "/" + key + ".cubin";
    const Compiled cached = parse_cache_file(read_file(path), name_expressions.size());
    if (!cached.cubin.empty() && load_library(cached, out.kernels)) {
        out.cache = KernelCache::disk;
    } else {
        const Compiled compiled = run_nvrtc(source, name_expressions, options);
        if (!load_library(compiled, out.kernels)) {
            throw DeviceError("the CUDA driver could not load the kernels compiled for " +
                              name_expressions.front());
        }
        make_directories(directory);
        write_file(path, cache_file_text(compiled));
        out.cache = KernelCache::compiled;
    }
    out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    loaded_kernels[key] = out.kernels;
    return out;
}

std::size_t compile_program(const KernelProgram& program, int major, int minor) {
    return run_nvrtc(program.source(), program.names, compile_options(major, minor)).cubin.size();
}

bool kernels_cached(const KernelSource& source, const std::vector<std::string>& name_expressions,
                    int major, int minor) {
    const std::string key = cache_key(source, name_expressions, compile_options(major, minor));
    {
        const std::lock_guard<std::mutex> lock(loaded_mutex);
        if (loaded_kernels.count(key) != 0) {
            return true;
        }
    }
    const std::string path = cache_directory() + "/" + key + ".cubin";
    return !parse_cache_file(read_file(path), name_expressions.size()).cubin.empty();
}

void forget_loaded_kernels() {
    const std::lock_guard<std::mutex> lock(loaded_mutex);
    loaded_kernels.clear();  // the libraries stay loaded: kernels handed out remain valid
}

std::vector<cudaKernel_t> load_kernels(const KernelSource& source,
                                       const std::vector<std::string>& name_expressions, int major,
                                       int minor) {
    return load_kernels_reporting(source, name_expressions, major, minor).kernels;
}

cudaKernel_t load_kernel(const KernelSource& source, const std::string& name_expression, int major,
                         int minor) {
    return load_kernels(source, {name_expression}, major, minor).front();
}

}  // namespace pmcount::backend::cuda
