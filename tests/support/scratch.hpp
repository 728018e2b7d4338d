// Tests that run programs or write files: a fresh directory per test, shell quoting, and the
// outcome of a command whose output went to files.
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace pmcount::test {

/// How a command ended: exit status (-1 when killed by a signal), standard output and error.
struct Outcome {
    int status = -1;
    std::string out;
    std::string err;
};

/// `s` as one word for /bin/sh.
inline std::string quoted(const std::string& s) {
    std::string q = "'";
    for (const char c : s) {
        q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    }
    return q + "'";
}

inline std::string read_file(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

/// A directory of its own for each test, removed afterwards: TMPDIR/<prefix><pid>_<test name>.
class ScratchDirectoryTest : public ::testing::Test {
protected:
    explicit ScratchDirectoryTest(std::string prefix) : prefix_(std::move(prefix)) {}

    void SetUp() override {
        const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
        dir_ = std::filesystem::temp_directory_path() /
               (prefix_ + std::to_string(::getpid()) + "_" + info->name());
        std::filesystem::remove_all(dir_);
        std::filesystem::create_directories(dir_);
    }
    void TearDown() override {
        std::error_code ignored;
        std::filesystem::remove_all(dir_, ignored);
    }

    /// Runs the shell `script` in the directory (its output redirected by the script to
    /// stdout.txt and stderr.txt), and collects how it ended.
    Outcome shell(const std::string& script) const {
        const std::string full = "cd " + quoted(dir_.string()) + " || exit 99; " + script;
        const int raw = std::system(("/bin/sh -c " + quoted(full)).c_str());
        Outcome r;
        r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
        r.out = read_file(dir_ / "stdout.txt");
        r.err = read_file(dir_ / "stderr.txt");
        return r;
    }

    std::string prefix_;
    std::filesystem::path dir_;
};

}  // namespace pmcount::test
