// Typed exceptions thrown at pmcount's public boundary. Normal outcomes (a zero count, a fallback)
// are reported in CountResult, never thrown.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace pmcount {

/// Base of every pmcount exception.
class Error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// Malformed input. what() is "file:line: problem" (just "file: problem" when line is 0).
class InvalidInput : public Error {
public:
    InvalidInput(std::string file, std::int64_t line, std::string problem);
    const std::string& file() const noexcept { return file_; }
    std::int64_t line() const noexcept { return line_; }
    const std::string& problem() const noexcept { return problem_; }

private:
    std::string file_;
    std::int64_t line_;
    std::string problem_;
};

/// An undirected input graph that has an odd cycle, so no bipartition exists.
class NotBipartite : public InvalidInput {
public:
    /// odd_cycle lists vertex ids (as in the input) along the cycle; its length is odd. `line`
    /// is the line of an edge that closes the cycle. The message names at most 40 vertices;
    /// odd_cycle() has them all.
    NotBipartite(std::string file, std::int64_t line, std::vector<std::int64_t> odd_cycle);
    const std::vector<std::int64_t>& odd_cycle() const noexcept { return odd_cycle_; }

private:
    std::vector<std::int64_t> odd_cycle_;
};

/// An argument or option that cannot be honoured (e.g. an engine asked for a problem it can't do).
class InvalidArgument : public Error {
public:
    using Error::Error;
};

/// Sizes that do not fit together (e.g. a non-square matrix given where a square one is needed).
class DimensionMismatch : public Error {
public:
    using Error::Error;
};

/// A problem too large for the chosen exact engine; the message says why and what to do instead.
class ProblemTooLarge : public Error {
public:
    using Error::Error;
};

/// A feature that this build does not contain (e.g. the CUDA backend in a build without CUDA).
class NotCompiled : public Error {
public:
    using Error::Error;
};

/// A failure reported by a GPU runtime.
class DeviceError : public Error {
public:
    using Error::Error;
};

/// A value that does not fit the requested representation.
class Overflow : public Error {
public:
    using Error::Error;
};

/// A checkpoint file that cannot be used: unreadable, corrupt, or written by another run (another
/// input, engine, precision or version). what() is "file: problem".
class CheckpointError : public InvalidInput {
public:
    CheckpointError(std::string file, std::string problem)
        : InvalidInput(std::move(file), 0, std::move(problem)) {}
};

/// A count stopped by request_stop() (a signal handler's SIGINT or SIGTERM): the checkpoint,
/// when one was asked for, holds every chunk finished before the stop.
class Interrupted : public Error {
public:
    using Error::Error;
};

/// A self-check inside pmcount failed (e.g. the spare CRT prime disagreed): a bug or a hardware
/// fault, never a property of the input.
class InternalError : public Error {
public:
    using Error::Error;
};

}  // namespace pmcount
