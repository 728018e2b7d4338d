// pmcount._core: the C++ library's public API (include/pmcount/*.hpp) for the Python package.
// Thin on purpose: graphs arrive as vertex counts and edge arrays, matrices as NumPy arrays or
// coordinate triplets, and results leave as dicts; pmcount/__init__.py turns networkx, SciPy and
// NumPy objects into these and the dicts into Python values. Every long call releases the GIL and
// checks for Ctrl-C from its progress callback (the engines report progress from the calling
// thread) and, through a SIGINT handler of its own, asks the engines to stop, so
// KeyboardInterrupt stops it and the engine unwinds normally.
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/complex.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>
#include <signal.h>

#include <atomic>
#include <complex>
#include <cstdint>
#include <cstring>
#include <exception>
#include <initializer_list>
#include <limits>
#include <mutex>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "pmcount/approx.hpp"
#include "pmcount/build_info.hpp"
#include "pmcount/count.hpp"
#include "pmcount/error.hpp"
#include "pmcount/generate.hpp"
#include "pmcount/graph.hpp"
#include "pmcount/matrix.hpp"
#include "pmcount/structure.hpp"

namespace nb = nanobind;
using namespace nb::literals;

namespace {

using pmcount::vertex_t;

template <class T>
using Matrix2D = nb::ndarray<const T, nb::ndim<2>, nb::c_contig, nb::device::cpu>;
using Pairs = nb::ndarray<const std::int64_t, nb::ndim<2>, nb::c_contig, nb::device::cpu>;
template <class T>
using Vector = nb::ndarray<const T, nb::ndim<1>, nb::c_contig, nb::device::cpu>;

// ---- inputs -------------------------------------------------------------------------------------

vertex_t checked_order(std::int64_t n, const char* what) {
    if (n < 0 || n > std::numeric_limits<vertex_t>::max()) {
        throw pmcount::InvalidArgument(std::string(what) + " " + std::to_string(n) +
                                       " is out of range");
    }
    return static_cast<vertex_t>(n);
}

/// Rows of a (k, 2) array as vertex pairs, each end checked against its side's size.
std::vector<std::pair<vertex_t, vertex_t>> pairs_of(const Pairs& pairs, std::int64_t first_size,
                                                    std::int64_t second_size) {
    if (pairs.shape(1) != 2) {
        throw pmcount::DimensionMismatch("edges must be a (k, 2) array, got (" +
                                         std::to_string(pairs.shape(0)) + ", " +
                                         std::to_string(pairs.shape(1)) + ")");
    }
    std::vector<std::pair<vertex_t, vertex_t>> out;
    out.reserve(pairs.shape(0));
    const std::int64_t* data = pairs.data();
    for (std::size_t k = 0; k < pairs.shape(0); ++k) {
        const std::int64_t u = data[2 * k];
        const std::int64_t v = data[2 * k + 1];
        if (u < 0 || u >= first_size || v < 0 || v >= second_size) {
            throw pmcount::InvalidArgument("edge " + std::to_string(k) + " (" + std::to_string(u) +
                                           ", " + std::to_string(v) +
                                           ") names a vertex out of range");
        }
        out.emplace_back(static_cast<vertex_t>(u), static_cast<vertex_t>(v));
    }
    return out;
}

template <class T>
pmcount::DenseMatrix<T> dense_of(const Matrix2D<T>& a) {
    pmcount::DenseMatrix<T> m(checked_order(static_cast<std::int64_t>(a.shape(0)), "rows"),
                              checked_order(static_cast<std::int64_t>(a.shape(1)), "columns"));
    const T* data = a.data();
    for (std::size_t i = 0; i < a.shape(0); ++i) {
        for (std::size_t j = 0; j < a.shape(1); ++j) {
            m(static_cast<vertex_t>(i), static_cast<vertex_t>(j)) = data[i * a.shape(1) + j];
        }
    }
    return m;
}

template <class T>
pmcount::SparseMatrix<T> sparse_of(std::int64_t n_rows, std::int64_t n_cols,
                                   const Vector<std::int64_t>& rows,
                                   const Vector<std::int64_t>& cols, const Vector<T>& values) {
    const vertex_t r = checked_order(n_rows, "rows");
    const vertex_t c = checked_order(n_cols, "columns");
    if (rows.shape(0) != cols.shape(0) || rows.shape(0) != values.shape(0)) {
        throw pmcount::DimensionMismatch("row, column and value arrays differ in length");
    }
    std::vector<pmcount::Triplet<T>> entries;
    entries.reserve(rows.shape(0));
    for (std::size_t k = 0; k < rows.shape(0); ++k) {
        const std::int64_t i = rows.data()[k];
        const std::int64_t j = cols.data()[k];
        if (i < 0 || i >= n_rows || j < 0 || j >= n_cols) {
            throw pmcount::InvalidArgument("entry " + std::to_string(k) + " (" + std::to_string(i) +
                                           ", " + std::to_string(j) + ") is outside the " +
                                           std::to_string(n_rows) + "×" + std::to_string(n_cols) +
                                           " matrix");
        }
        entries.push_back({static_cast<vertex_t>(i), static_cast<vertex_t>(j), values.data()[k]});
    }
    return {r, c, std::move(entries)};
}

// ---- options ------------------------------------------------------------------------------------

/// The engines' progress callback: with the GIL, raise a pending KeyboardInterrupt (or whatever
/// a signal handler raised) as a C++ exception that unwinds the engine, then report to the user's
/// callable (fraction, elapsed seconds), whose exceptions unwind the same way. The callable is a
/// borrowed pointer: the Python caller's frame keeps it alive for the whole call, and copying a
/// raw pointer needs no GIL.
template <class Options>
void install_progress(Options& options, PyObject* callback) {
    options.progress = [callback](const pmcount::Progress& p) {
        nb::gil_scoped_acquire gil;
        if (PyErr_CheckSignals() != 0) {
            throw nb::python_error();
        }
        if (callback != Py_None) {
            const nb::handle user(callback);
            user(p.fraction, p.elapsed_s);
        }
    };
}

pmcount::CountOptions count_options(const nb::dict& o) {
    pmcount::CountOptions options;
    options.method = pmcount::method_from_string(nb::cast<std::string>(o["method"]));
    options.precision = pmcount::precision_from_string(nb::cast<std::string>(o["precision"]));
    options.backend = pmcount::backend_from_string(nb::cast<std::string>(o["backend"]));
    options.threads = nb::cast<int>(o["threads"]);
    options.gpus = nb::cast<std::vector<int>>(o["gpus"]);
    options.gpu_kernels = pmcount::gpu_kernels_from_string(nb::cast<std::string>(o["gpu_kernels"]));
    options.dulmage_mendelsohn = nb::cast<bool>(o["structure"]);
    options.reductions = nb::cast<bool>(o["reductions"]);
    options.general = nb::cast<bool>(o["general"]);
    options.explain_only = nb::cast<bool>(o["explain_only"]);
    const double max_time = nb::cast<double>(o["max_time"]);
    options.max_predicted_seconds =
        max_time > 0 ? max_time : std::numeric_limits<double>::infinity();
    options.progress_interval_s = 0.1;
    install_progress(options, o["progress"].ptr());
    return options;
}

pmcount::EstimateOptions estimate_options(const nb::dict& o) {
    pmcount::EstimateOptions options;
    options.estimator = pmcount::estimator_from_string(nb::cast<std::string>(o["estimator"]));
    options.backend = pmcount::backend_from_string(nb::cast<std::string>(o["backend"]));
    options.threads = nb::cast<int>(o["threads"]);
    options.gpus = nb::cast<std::vector<int>>(o["gpus"]);
    options.samples = nb::cast<std::uint64_t>(o["samples"]);
    options.time_s = nb::cast<double>(o["time"]);
    options.rel_error = nb::cast<double>(o["rel_error"]);
    options.confidence = nb::cast<double>(o["confidence"]);
    options.seed = nb::cast<std::uint64_t>(o["seed"]);
    options.particles = nb::cast<std::uint64_t>(o["particles"]);
    options.resample_every = nb::cast<int>(o["resample_every"]);
    install_progress(options, o["progress"].ptr());
    return options;
}

// ---- results ------------------------------------------------------------------------------------

/// |x| of a BigInt as little-endian bytes (Python: int.from_bytes(..., "little")), so that no
/// decimal conversion (and no digit limit of int(str)) stands between the count and the user.
nb::bytes magnitude_bytes(const pmcount::BigInt& x) {
    const std::vector<std::uint64_t>& limbs = x.magnitude();
    std::string bytes(limbs.size() * 8, '\0');
    for (std::size_t k = 0; k < limbs.size(); ++k) {
        for (int b = 0; b < 8; ++b) {
            bytes[8 * k + b] = static_cast<char>((limbs[k] >> (8 * b)) & 0xff);
        }
    }
    return nb::bytes(bytes.data(), bytes.size());
}

/// A dict from (key, value) pairs.
nb::dict items(std::initializer_list<std::pair<const char*, nb::object>> entries) {
    nb::dict d;
    for (const auto& [key, value] : entries) {
        d[key] = value;
    }
    return d;
}

nb::dict structure_dict(const pmcount::StructureReport& s) {
    nb::list leaves;
    for (const pmcount::BlockReport& b : s.leaves) {
        leaves.append(items({{"order", nb::cast(b.order)},
                             {"nnz", nb::cast(b.nnz)},
                             {"engine", nb::cast(b.engine)},
                             {"origin", nb::cast(b.origin)},
                             {"predicted_seconds", nb::cast(b.predicted_s)},
                             {"seconds", nb::cast(b.seconds)}}));
    }
    return items({{"dulmage_mendelsohn", nb::cast(s.dulmage_mendelsohn)},
                  {"reductions", nb::cast(s.reductions)},
                  {"matching_size", nb::cast(s.matching_size)},
                  {"hall_rows", nb::cast(s.hall_rows)},
                  {"hall_cols", nb::cast(s.hall_cols)},
                  {"general", nb::cast(s.general)},
                  {"tutte_set", nb::cast(s.tutte_set)},
                  {"tutte_odd_components", nb::cast(s.tutte_odd_components)},
                  {"block_orders", nb::cast(s.block_orders)},
                  {"dropped_entries", nb::cast(s.dropped_entries)},
                  {"eliminated", nb::cast(s.eliminated)},
                  {"merged", nb::cast(s.merged)},
                  {"split", nb::cast(s.split)},
                  {"leaves", nb::cast(leaves)},
                  {"predicted_seconds", nb::cast(s.predicted_s)},
                  {"plan", nb::cast(s.plan_text)}});
}

nb::dict result_dict(const pmcount::CountResult& r) {
    nb::dict d;
    d["kind"] = pmcount::to_string(r.kind);
    d["is_exact"] = r.is_exact;
    d["exact_negative"] = r.exact.is_negative();
    d["exact_magnitude"] = magnitude_bytes(r.exact);
    d["value"] = r.value;
    d["complex_value"] = r.complex_value;
    d["mantissa"] = r.mantissa;
    d["exponent2"] = r.exponent2;
    d["log10_abs"] = r.log10_abs;
    d["sign"] = r.sign;
    d["rel_error"] = r.rel_error;
    d["abs_error"] = r.abs_error;
    d["error_kind"] = r.error_kind;
    d["escalated_from"] = r.escalated_from;
    d["method"] = r.method;
    d["backend"] = r.backend;
    d["device"] = r.device;
    d["arithmetic"] = r.arithmetic;
    d["note"] = r.note;
    d["explained_only"] = r.explained_only;
    d["timings"] = items({{"preprocess_s", nb::cast(r.timings.preprocess_s)},
                          {"count_s", nb::cast(r.timings.count_s)},
                          {"device_s", nb::cast(r.timings.device_s)},
                          {"total_s", nb::cast(r.timings.total_s)}});
    d["stats"] = items({{"n", nb::cast(r.stats.n)},
                        {"nnz", nb::cast(r.stats.nnz)},
                        {"threads", nb::cast(r.stats.threads)},
                        {"primes", nb::cast(r.stats.primes)},
                        {"gray_steps", nb::cast(r.stats.gray_steps)},
                        {"multiply_adds", nb::cast(r.stats.multiply_adds)}});
    d["structure"] = structure_dict(r.structure);
    return d;
}

nb::dict estimate_dict(const pmcount::EstimateResult& r) {
    nb::dict d;
    d["estimator"] = r.estimator;
    d["layout"] = r.layout;
    d["backend"] = r.backend;
    d["device"] = r.device;
    d["log10_value"] = r.log10_value;
    d["value"] = r.value;
    d["rel_std_error"] = r.rel_std_error;
    d["log10_ci_low"] = r.log10_ci_low;
    d["log10_ci_high"] = r.log10_ci_high;
    d["confidence"] = r.confidence;
    d["samples"] = r.samples;
    d["particles"] = r.particles;
    d["particles_reason"] = r.particles_reason;
    d["populations"] = r.populations;
    d["zero_fraction"] = r.zero_fraction;
    d["effective_samples"] = r.effective_samples;
    d["max_share"] = r.max_share;
    d["stopped"] = pmcount::to_string(r.stopped);
    d["n"] = r.n;
    d["nnz"] = r.nnz;
    d["threads"] = r.threads;
    d["seed"] = r.seed;
    d["seconds"] = r.seconds;
    d["sample_seconds"] = r.sample_seconds;
    d["note"] = r.note;
    return d;
}

/// While a call runs without the GIL, SIGINT also asks the engines to stop
/// (pmcount::request_stop, an atomic store) besides tripping Python's own flag, so Ctrl-C ends
/// the call at the next chunk even when no progress callback reaches PyErr_CheckSignals in time;
/// the engine's Interrupted becomes KeyboardInterrupt (translate below). Nested and concurrent
/// calls share one installation; the last to leave restores Python's handler and withdraws a
/// stop request that arrived too late for any engine.
class SigintGuard {
public:
    SigintGuard() {
        const std::lock_guard<std::mutex> lock(mutex_);
        if (depth_++ == 0) {
            // A program that ignores SIGINT keeps ignoring it.
            struct sigaction current {};
            installed_ = sigaction(SIGINT, nullptr, &current) == 0 && current.sa_handler != SIG_IGN;
            if (installed_) {
                struct sigaction mine {};
                mine.sa_handler = &SigintGuard::on_sigint;
                sigemptyset(&mine.sa_mask);
                installed_ = sigaction(SIGINT, &mine, &previous_) == 0;
            }
        }
    }
    ~SigintGuard() {
        const std::lock_guard<std::mutex> lock(mutex_);
        if (--depth_ == 0) {
            if (installed_) {
                sigaction(SIGINT, &previous_, nullptr);
            }
            if (seen_.exchange(false)) {
                pmcount::clear_stop_request();
            }
        }
    }
    SigintGuard(const SigintGuard&) = delete;
    SigintGuard& operator=(const SigintGuard&) = delete;

private:
    static void on_sigint(int) {
        seen_.store(true);
        pmcount::request_stop();
        PyErr_SetInterruptEx(SIGINT);  // async-signal-safe (Python 3.10+)
    }
    static inline std::mutex mutex_;
    static inline int depth_ = 0;
    static inline bool installed_ = false;
    static inline struct sigaction previous_ {};
    static inline std::atomic<bool> seen_{false};
};

/// Runs `count` without the GIL.
template <class F>
nb::dict counted(F&& count) {
    pmcount::CountResult r;
    {
        const SigintGuard sigint;
        nb::gil_scoped_release release;
        r = count();
    }
    return result_dict(r);
}
template <class F>
nb::dict estimated(F&& estimate) {
    pmcount::EstimateResult r;
    {
        const SigintGuard sigint;
        nb::gil_scoped_release release;
        r = estimate();
    }
    return estimate_dict(r);
}

// ---- exceptions ---------------------------------------------------------------------------------

/// Raises pmcount._errors.<name>(message): the Python classes live in Python so that each is a
/// subclass of both pmcount.Error and the matching built-in (ValueError, OverflowError, …).
void raise(const char* name, const char* message) {
    const nb::object cls = nb::module_::import_("pmcount._errors").attr(name);
    PyErr_SetString(cls.ptr(), message);
}

void translate(const std::exception_ptr& p, void*) {
    try {
        std::rethrow_exception(p);
    } catch (const pmcount::Interrupted&) {
        // Ctrl-C reached the engines: Python's handler raises KeyboardInterrupt (or whatever
        // the program's own SIGINT handler raises).
        if (PyErr_CheckSignals() == 0) {
            PyErr_SetNone(PyExc_KeyboardInterrupt);
        }
    } catch (const pmcount::NotBipartite& e) {
        raise("NotBipartiteError", e.what());
    } catch (const pmcount::InvalidInput& e) {
        raise("InvalidInputError", e.what());
    } catch (const pmcount::InvalidArgument& e) {
        raise("InvalidArgumentError", e.what());
    } catch (const pmcount::DimensionMismatch& e) {
        raise("DimensionMismatchError", e.what());
    } catch (const pmcount::ProblemTooLarge& e) {
        raise("ProblemTooLargeError", e.what());
    } catch (const pmcount::NotCompiled& e) {
        raise("NotCompiledError", e.what());
    } catch (const pmcount::DeviceError& e) {
        raise("DeviceError", e.what());
    } catch (const pmcount::Overflow& e) {
        raise("OverflowError_", e.what());
    } catch (const pmcount::InternalError& e) {
        raise("InternalError", e.what());
    } catch (const pmcount::Error& e) {
        raise("Error", e.what());
    }
}

}  // namespace

NB_MODULE(_core, m) {
    m.doc() = "pmcount's C++ library (internal: use the pmcount package)";
    nb::register_exception_translator(translate);

    m.def("version", [] { return std::string(pmcount::build_info().version); });
    m.attr("max_threads") = pmcount::kMaxThreads;
    // The library's own parsers, so that the package checks a name before any input is converted
    // and names the accepted ones from the same lists as the CLI (InvalidArgument otherwise).
    m.def(
        "check_name",
        [](const std::string& option, const std::string& name) {
            if (option == "method") {
                pmcount::method_from_string(name);
            } else if (option == "precision") {
                pmcount::precision_from_string(name);
            } else if (option == "backend") {
                pmcount::backend_from_string(name);
            } else if (option == "gpu_kernels") {
                pmcount::gpu_kernels_from_string(name);
            } else if (option == "estimator") {
                pmcount::estimator_from_string(name);
            } else {
                throw pmcount::InternalError("check_name: no option '" + option + "'");
            }
        },
        "option"_a, "name"_a);

    m.def(
        "count_bipartite",
        [](std::int64_t n_left, std::int64_t n_right, const Pairs& edges, const nb::dict& o) {
            const pmcount::BipartiteGraph g(checked_order(n_left, "left side"),
                                            checked_order(n_right, "right side"),
                                            pairs_of(edges, n_left, n_right));
            const pmcount::CountOptions options = count_options(o);
            return counted([&] { return pmcount::count_perfect_matchings(g, options); });
        },
        "n_left"_a, "n_right"_a, "edges"_a, "options"_a);
    m.def(
        "count_general",
        [](std::int64_t n, const Pairs& edges, const nb::dict& o) {
            const pmcount::UndirectedGraph g(checked_order(n, "vertex count"),
                                             pairs_of(edges, n, n));
            const pmcount::CountOptions options = count_options(o);
            return counted([&] { return pmcount::count_perfect_matchings(g, options); });
        },
        "n"_a, "edges"_a, "options"_a);
    m.def(
        "count_embedded",
        [](std::int64_t n, const Pairs& edges, const std::vector<std::vector<vertex_t>>& rotation,
           const nb::dict& o) {
            const pmcount::UndirectedGraph g(checked_order(n, "vertex count"),
                                             pairs_of(edges, n, n));
            const pmcount::Embedding embedding{rotation};
            const pmcount::CountOptions options = count_options(o);
            return counted([&] { return pmcount::count_perfect_matchings(g, embedding, options); });
        },
        "n"_a, "edges"_a, "rotation"_a, "options"_a);
    m.def(
        "count_cycle_covers",
        [](std::int64_t n, const Pairs& arcs, const nb::dict& o) {
            const pmcount::Digraph g(checked_order(n, "vertex count"), pairs_of(arcs, n, n));
            const pmcount::CountOptions options = count_options(o);
            return counted([&] { return pmcount::count_cycle_covers(g, options); });
        },
        "n"_a, "arcs"_a, "options"_a);

    // permanent / hafnian / estimate of dense (NumPy) and sparse (triplet) matrices, per entry
    // type: NAME_dense_SUFFIX(a, options) and NAME_sparse_SUFFIX(n_rows, n_cols, rows, cols,
    // values, options) both run `run(matrix, options)`.
    auto matrices = [&m](auto tag, const char* suffix) {
        using T = decltype(tag);
        auto dense_and_sparse = [&m, suffix](const char* name, auto run) {
            m.def((std::string(name) + "_dense_" + suffix).c_str(),
                  [run](const Matrix2D<T>& a, const nb::dict& o) { return run(dense_of(a), o); },
                  "a"_a, "options"_a);
            m.def((std::string(name) + "_sparse_" + suffix).c_str(),
                  [run](std::int64_t n_rows, std::int64_t n_cols, const Vector<std::int64_t>& rows,
                        const Vector<std::int64_t>& cols, const Vector<T>& values,
                        const nb::dict& o) {
                      return run(sparse_of<T>(n_rows, n_cols, rows, cols, values), o);
                  },
                  "n_rows"_a, "n_cols"_a, "rows"_a, "cols"_a, "values"_a, "options"_a);
        };
        dense_and_sparse("permanent", [](const auto& matrix, const nb::dict& o) {
            const pmcount::CountOptions options = count_options(o);
            return counted([&] { return pmcount::permanent(matrix, options); });
        });
        dense_and_sparse("hafnian", [](const auto& matrix, const nb::dict& o) {
            const pmcount::CountOptions options = count_options(o);
            return counted([&] { return pmcount::hafnian(matrix, options); });
        });
        // The estimators take nonnegative real matrices (an integer one is read as real).
        if constexpr (!std::is_same_v<T, std::complex<double>>) {
            dense_and_sparse("estimate", [](const auto& matrix, const nb::dict& o) {
                const pmcount::EstimateOptions options = estimate_options(o);
                return estimated([&] { return pmcount::estimate_permanent(matrix, options); });
            });
        }
    };
    matrices(std::int64_t{}, "int");
    matrices(double{}, "float");
    matrices(std::complex<double>{}, "complex");

    m.def(
        "estimate_bipartite",
        [](std::int64_t n_left, std::int64_t n_right, const Pairs& edges, const nb::dict& o) {
            const pmcount::BipartiteGraph g(checked_order(n_left, "left side"),
                                            checked_order(n_right, "right side"),
                                            pairs_of(edges, n_left, n_right));
            const pmcount::EstimateOptions options = estimate_options(o);
            return estimated([&] { return pmcount::estimate_perfect_matchings(g, options); });
        },
        "n_left"_a, "n_right"_a, "edges"_a, "options"_a);

    m.def(
        "bipartition",
        [](std::int64_t n, const Pairs& edges)
            -> std::optional<std::pair<std::vector<vertex_t>, std::vector<vertex_t>>> {
            const pmcount::UndirectedGraph g(checked_order(n, "vertex count"),
                                             pairs_of(edges, n, n));
            std::optional<pmcount::Bipartition> sides = pmcount::bipartition(g);
            if (!sides) {
                return std::nullopt;
            }
            return std::make_pair(std::move(sides->left), std::move(sides->right));
        },
        "n"_a, "edges"_a);

    m.def(
        "generate",
        [](const std::string& spec) {
            const pmcount::BipartiteGraph g = pmcount::generate_graph(spec);
            return std::make_tuple(g.n_left(), g.n_right(), g.edges());
        },
        "spec"_a);
    m.def(
        "torus_embedding",
        [](vertex_t rows, vertex_t cols) { return pmcount::torus_embedding(rows, cols).rotation; },
        "rows"_a, "cols"_a);
    m.def("log_grid_tilings", [](vertex_t rows, vertex_t cols) {
        return static_cast<double>(pmcount::log_grid_tilings(rows, cols));
    });
}
