// NVRTC compilation and the on-disk kernel cache (see nvrtc_cache.cuh).
#include <nvrtc.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>

#include "cuda_status.cuh"
#include "nvrtc_cache.cuh"
#include "pmcount/error.hpp"

namespace pmcount::backend::cuda {

namespace {

void check(nvrtcResult status, const char* what) {
    if (status != NVRTC_SUCCESS) {
        throw DeviceError(std::string(what) + ": " + nvrtcGetErrorString(status));
    }
}

std::uint64_t fnv1a(const std::string& text, std::uint64_t hash = 0xcbf29ce484222325ULL) {
    for (const unsigned char c : text) {
        hash = (hash ^ c) * 0x100000001b3ULL;
    }
    return hash;
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

Compiled compile(const KernelSource& source, const std::vector<std::string>& names, int major,
                 int minor) {
    const std::string arch =
        "--gpu-architecture=sm_" + std::to_string(major) + std::to_string(minor);
    const std::vector<std::string> options = {arch, "-std=c++17", "--fmad=false",
                                              "-default-device"};
    int nvrtc_major = 0, nvrtc_minor = 0;
    check(nvrtcVersion(&nvrtc_major, &nvrtc_minor), "nvrtcVersion");
    std::string key_text = std::string(source.text) + '\n' + join_lines(names) + '\n' +
                           std::to_string(nvrtc_major) + "." + std::to_string(nvrtc_minor);
    for (const auto& o : options) {
        key_text += '\n' + o;
    }
    char key[17];
    std::snprintf(key, sizeof key, "%016llx", static_cast<unsigned long long>(fnv1a(key_text)));
    const std::string directory = cache_directory();
    const std::string stem = directory + "/" + key;
    Compiled compiled{read_file(stem + ".cubin"), split_lines(read_file(stem + ".name"))};
    if (!compiled.cubin.empty() && compiled.lowered_names.size() == names.size()) {
        return compiled;
    }

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
    compiled.lowered_names.clear();
    for (const auto& name : names) {
        const char* lowered = nullptr;
        check(nvrtcGetLoweredName(program, name.c_str(), &lowered), "nvrtcGetLoweredName");
        compiled.lowered_names.emplace_back(lowered);
    }
    std::size_t size = 0;
    check(nvrtcGetCUBINSize(program, &size), "nvrtcGetCUBINSize");
    compiled.cubin.assign(size, '\0');
    check(nvrtcGetCUBIN(program, compiled.cubin.data()), "nvrtcGetCUBIN");
    make_directories(directory);
    write_file(stem + ".cubin", compiled.cubin);
    write_file(stem + ".name", join_lines(compiled.lowered_names));
    return compiled;
}

}  // namespace

std::vector<cudaKernel_t> load_kernels(const KernelSource& source,
                                       const std::vector<std::string>& name_expressions, int major,
                                       int minor) {
    static std::mutex mutex;
    static std::map<std::string, std::vector<cudaKernel_t>> loaded;
    const std::string key =
        join_lines(name_expressions) + "@" + std::to_string(major) + std::to_string(minor);
    const std::lock_guard<std::mutex> lock(mutex);
    if (const auto it = loaded.find(key); it != loaded.end()) {
        return it->second;
    }
    const Compiled compiled = compile(source, name_expressions, major, minor);
    cudaLibrary_t library;
    check(cudaLibraryLoadData(&library, compiled.cubin.data(), nullptr, nullptr, 0, nullptr,
                              nullptr, 0),
          "cudaLibraryLoadData");
    std::vector<cudaKernel_t> kernels;
    for (const auto& lowered : compiled.lowered_names) {
        cudaKernel_t kernel;
        check(cudaLibraryGetKernel(&kernel, library, lowered.c_str()), "cudaLibraryGetKernel");
        kernels.push_back(kernel);
    }
    loaded.emplace(key, kernels);
    return kernels;
}

cudaKernel_t load_kernel(const KernelSource& source, const std::string& name_expression, int major,
                         int minor) {
    return load_kernels(source, {name_expression}, major, minor).front();
}

}  // namespace pmcount::backend::cuda
