// thewalrus's perm and hafnian as references, run by a Python script in a child process.
#pragma once

#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "permanent_runs.hpp"

namespace pmcount::bench::permanents {

// ---- thewalrus ----------------------------------------------------------------------------------
class Thewalrus {
public:
    explicit Thewalrus(const BenchOptions& options) : options_(options) {}

    /// Checks once that the script runs and thewalrus imports; fills why_not() otherwise.
    bool probe() {
        if (!std::filesystem::exists(options_.thewalrus_script)) {
            why_not_ =
                "script " + options_.thewalrus_script + " not found (see --thewalrus-script)";
            return false;
        }
        const ProcessOutput output =
            run_command(shell_quote(options_.python) + " " +
                        shell_quote(options_.thewalrus_script) + " --probe");
        const std::optional<Json> versions = parse_script_output(output, why_not_);
        if (!versions) {
            return false;
        }
        version_ = versions->value("version", "unknown");
        numba_ = versions->value("numba", Json()).is_string()
                     ? (*versions)["numba"].get<std::string>()
                     : std::string("absent");
        numba_threads_ = versions->value("numba_threads", 1);
        return true;
    }
    const std::string& why_not() const { return why_not_; }
    const std::string& version() const { return version_; }

    /// Times perm(A, "bbfg") and perm(A, "ryser") — or, for a hafnian case, hafnian(A) with its
    /// default method; the measurements, or why it failed.
    std::vector<Measurement> time(const TestMatrix& matrix, int repeat, std::string& failure) {
        const std::filesystem::path path =
            std::filesystem::temp_directory_path() /
            ("pmcount-bench-" + std::to_string(getpid()) + "-" + matrix.case_name + "-" +
             std::to_string(matrix.n) + ".txt");
        {
            // %.17g round-trips every double, so thewalrus sees exactly our matrix; a complex
            // entry is written as its real and imaginary parts.
            std::ofstream file(path);
            for (pmcount::vertex_t i = 0; i < matrix.n; ++i) {
                for (pmcount::vertex_t j = 0; j < matrix.n; ++j) {
                    file << (j == 0 ? "" : " ");
                    if (matrix.complex.rows() > 0) {
                        file << format_double(matrix.complex(i, j).real()) << " "
                             << format_double(matrix.complex(i, j).imag());
                    } else {
                        file << format_double(matrix.real(i, j));
                    }
                }
                file << "\n";
            }
        }
        const std::string& script =
            matrix.hafnian ? options_.thewalrus_hafnian_script : options_.thewalrus_script;
        std::cerr << "  " << matrix.case_name << " n=" << matrix.n << " thewalrus (" << repeat
                  << (matrix.hafnian ? " repeat(s) of hafnian)...\n"
                                     : " repeat(s) of bbfg and ryser)...\n");
        // coreutils timeout exits with 124 when it had to stop the script.
        const bool limited = options_.thewalrus_timeout > 0;
        const std::string limit =
            limited ? "timeout " + format_double(options_.thewalrus_timeout) + " " : "";
        const ProcessOutput output =
            run_command(limit + shell_quote(options_.python) + " " + shell_quote(script) + " " +
                        (matrix.loop ? "--loop " : "") + shell_quote(path.string()) + " " +
                        std::to_string(repeat));
        std::error_code ignored;
        std::filesystem::remove(path, ignored);
        if (limited && output.status == 124) {
            return {stopped_at_timeout(matrix)};
        }
        const std::optional<Json> result = parse_script_output(output, failure);
        if (!result) {
            return {};
        }
        std::vector<Measurement> measurements;
        try {
            const std::vector<const char*> methods =
                matrix.hafnian ? std::vector<const char*>{"hafnian"}
                               : std::vector<const char*>{"bbfg", "ryser"};
            for (const char* method : methods) {
                const Json& timing = result->at(method);
                Measurement m;
                m.engine = std::string("thewalrus-") + method;
                m.arithmetic = "double";
                m.arithmetic_detail =
                    (matrix.complex.rows() > 0 || matrix.hafnian ? "numpy complex128 (thewalrus "
                                                                 : "numpy float64 (thewalrus ") +
                    version_ + ", numba " + numba_ + ")";
                // perm_bbfg / perm_ryser are serial numba functions; the hafnian's default
                // method is numba-parallel over the threads numba was given.
                m.threads = matrix.hafnian ? result->value("numba_threads", 1) : 1;
                m.threads_used = m.threads;
                m.pmcount = false;
                m.samples = timing.at("samples").get<std::vector<double>>();
                m.value = timing.at("value").get<double>();
                m.value_text = format_double(m.value);
                if (matrix.complex.rows() > 0) {
                    m.value_im = timing.value("value_im", 0.0);
                    m.value_text += (std::signbit(m.value_im) ? "-" : "+") +
                                    format_double(std::fabs(m.value_im)) + "i";
                }
                m.rel_error = std::numeric_limits<double>::infinity();
                m.abs_error = std::numeric_limits<double>::infinity();
                measurements.push_back(std::move(m));
            }
        } catch (const Json::exception& e) {
            failure = std::string("unexpected output from the script: ") + e.what();
            return {};
        }
        return measurements;
    }

private:
    /// thewalrus's line when it was stopped: no value, --thewalrus-timeout as its seconds, so
    /// that a ratio against it is a lower bound.
    Measurement stopped_at_timeout(const TestMatrix& matrix) const {
        Measurement m;
        m.engine = matrix.hafnian ? "thewalrus-hafnian" : "thewalrus-ryser";
        m.arithmetic = "double";
        m.arithmetic_detail = "thewalrus " + version_ + ", numba " + numba_ +
                              ": stopped after --thewalrus-timeout " +
                              format_double(options_.thewalrus_timeout) + " s";
        m.pmcount = false;
        m.timed_out = true;
        m.threads = m.threads_used = matrix.hafnian ? numba_threads_ : 1;
        m.samples = {options_.thewalrus_timeout};
        m.value = std::numeric_limits<double>::quiet_NaN();
        m.rel_error = m.abs_error = std::numeric_limits<double>::infinity();
        return m;
    }

    const BenchOptions& options_;
    std::string why_not_;
    std::string version_;
    std::string numba_;
    int numba_threads_ = 1;
};

}  // namespace pmcount::bench::permanents
