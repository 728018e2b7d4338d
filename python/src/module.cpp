// pmcount._core: the C++ library's public API (include/pmcount/*.hpp) for the Python package.
// Thin on purpose: graphs arrive as vertex counts and edge arrays, matrices as NumPy arrays or
// coordinate triplets, options and results are the library's own structs bound as classes
// (CountOptions, CountResult, ...); pmcount/__init__.py turns networkx, SciPy and NumPy objects
// into these and the results into Python values. Every long call releases the GIL and
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
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <exception>
#include <limits>
#include <mutex>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "bindings.hpp"
#include "pmcount/approx.hpp"
#include "pmcount/build_info.hpp"
#include "pmcount/count.hpp"
#include "pmcount/error.hpp"
#include "pmcount/generate.hpp"
#include "pmcount/graph.hpp"
#include "pmcount/matrix.hpp"
#include "pmcount/options.hpp"
#include "pmcount/result.hpp"
#include "pmcount/structure.hpp"

namespace nb = nanobind;
using namespace nb::literals;

namespace {

using namespace pmcount::bindings;

// ---- inputs -------------------------------------------------------------------------------------

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

/// The matrices of a (B, n, m) array, one per leading index.
template <class T>
std::vector<pmcount::DenseMatrix<T>> dense_list(const Matrix3D<T>& a) {
    const vertex_t rows = checked_order(static_cast<std::int64_t>(a.shape(1)), "rows");
    const vertex_t cols = checked_order(static_cast<std::int64_t>(a.shape(2)), "columns");
    std::vector<pmcount::DenseMatrix<T>> out;
    out.reserve(a.shape(0));
    const T* data = a.data();
    for (std::size_t k = 0; k < a.shape(0); ++k) {
        pmcount::DenseMatrix<T> m(rows, cols);
        for (vertex_t i = 0; i < rows; ++i) {
            for (vertex_t j = 0; j < cols; ++j) {
                m(i, j) = *data++;
            }
        }
        out.push_back(std::move(m));
    }
    return out;
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

// ---- options and results -----------------------------------------------------------------------
// The library's option and result structs bound as classes, field by field: the one list of their
// fields on the Python side (pmcount/__init__.py reads them by name, python/tests/test_stubs.py
// checks the list against the headers). Enums are read and written as the CLI's names (the
// library's to_string and *_from_string, so Python and the CLI accept the same spellings);
// `progress` is no field here: it is each call's own argument (install_progress below).

/// E from its to_string() name, for the enums without a parser of their own (result fields).
template <class E, std::size_t N>
E named(std::string_view name, const E (&values)[N], const char* what) {
    for (const E e : values) {
        if (name == pmcount::to_string(e)) {
            return e;
        }
    }
    throw pmcount::InvalidArgument("unknown " + std::string(what) + " '" + std::string(name) + "'");
}

pmcount::ValueKind value_kind_from_string(std::string_view name) {
    constexpr pmcount::ValueKind kKinds[] = {pmcount::ValueKind::binary,
                                             pmcount::ValueKind::integer, pmcount::ValueKind::real,
                                             pmcount::ValueKind::complex};
    return named(name, kKinds, "value kind");
}

pmcount::StopReason stop_reason_from_string(std::string_view name) {
    constexpr pmcount::StopReason kReasons[] = {
        pmcount::StopReason::samples, pmcount::StopReason::time, pmcount::StopReason::rel_error,
        pmcount::StopReason::exact};
    return named(name, kReasons, "stop reason");
}

/// An enum field as a str property: its to_string() name, set through `parse`.
template <class Class, class S, class E>
void def_name(Class& c, const char* name, E S::*field, E (*parse)(std::string_view)) {
    c.def_prop_rw(
        name, [field](const S& s) { return std::string(pmcount::to_string(s.*field)); },
        [field, parse](S& s, const std::string& text) { s.*field = parse(text); });
}

/// A Python int as a BigInt, through the same little-endian bytes.
pmcount::BigInt big_int(const nb::int_& value) {
    const bool negative = PyObject_RichCompareBool(value.ptr(), nb::int_(0).ptr(), Py_LT) == 1;
    const nb::object magnitude = nb::steal(PyNumber_Absolute(value.ptr()));
    const auto bits = nb::cast<std::size_t>(magnitude.attr("bit_length")());
    std::vector<std::uint64_t> limbs((bits + 63) / 64);
    const auto bytes = nb::cast<nb::bytes>(magnitude.attr("to_bytes")(limbs.size() * 8, "little"));
    const auto* data = static_cast<const unsigned char*>(bytes.data());
    for (std::size_t k = 0; k < limbs.size(); ++k) {
        for (int b = 0; b < 8; ++b) {
            limbs[k] |= static_cast<std::uint64_t>(data[8 * k + b]) << (8 * b);
        }
    }
    return pmcount::BigInt::from_limbs(negative, std::move(limbs));
}

void bind_options(nb::module_& m) {
    using pmcount::CountOptions;
    using pmcount::EstimateOptions;
    using pmcount::RunOptions;
    nb::class_<RunOptions> r(m, "RunOptions",
                             "pmcount::RunOptions (include/pmcount/options.hpp), what counts and "
                             "estimates are both told; the progress callback is each call's own "
                             "argument");
    r.def(nb::init<>());
    def_name(r, "backend", &RunOptions::backend, &pmcount::backend_from_string);
    r.def_rw("gpus", &RunOptions::gpus)
        .def_rw("threads", &RunOptions::threads)
        .def_rw("max_memory", &RunOptions::max_memory)
        .def_rw("checkpoint", &RunOptions::checkpoint)
        .def_rw("resume", &RunOptions::resume)
        .def_rw("checkpoint_interval_s", &RunOptions::checkpoint_interval_s)
        .def_rw("distributed", &RunOptions::distributed);

    nb::class_<CountOptions, RunOptions> c(m, "CountOptions",
                                           "pmcount::CountOptions (include/pmcount/options.hpp)");
    c.def(nb::init<>()).def(nb::init<const CountOptions&>(), "other"_a);
    def_name(c, "method", &CountOptions::method, &pmcount::method_from_string);
    def_name(c, "precision", &CountOptions::precision, &pmcount::precision_from_string);
    def_name(c, "gpu_kernels", &CountOptions::gpu_kernels, &pmcount::gpu_kernels_from_string);
    c.def_rw("dulmage_mendelsohn", &CountOptions::dulmage_mendelsohn)
        .def_rw("reductions", &CountOptions::reductions)
        .def_rw("prime_set", &CountOptions::prime_set)
        .def_rw("general", &CountOptions::general)
        .def_rw("explain_only", &CountOptions::explain_only)
        .def_rw("max_predicted_seconds", &CountOptions::max_predicted_seconds)
        .def_rw("progress_interval_s", &CountOptions::progress_interval_s);

    nb::class_<EstimateOptions, RunOptions> e(
        m, "EstimateOptions", "pmcount::EstimateOptions (include/pmcount/options.hpp)");
    e.def(nb::init<>()).def(nb::init<const EstimateOptions&>(), "other"_a);
    def_name(e, "estimator", &EstimateOptions::estimator, &pmcount::estimator_from_string);
    def_name(e, "layout", &EstimateOptions::layout, &pmcount::estimator_layout_from_string);
    e.def_rw("samples", &EstimateOptions::samples)
        .def_rw("time_s", &EstimateOptions::time_s)
        .def_rw("rel_error", &EstimateOptions::rel_error)
        .def_rw("confidence", &EstimateOptions::confidence)
        .def_rw("seed", &EstimateOptions::seed)
        .def_rw("scale_every", &EstimateOptions::scale_every)
        .def_rw("scale_iters", &EstimateOptions::scale_iters)
        .def_rw("particles", &EstimateOptions::particles)
        .def_rw("resample_every", &EstimateOptions::resample_every)
        .def_rw("potential_exponent", &EstimateOptions::potential_exponent);
}

void bind_count_result(nb::module_& m) {
    using pmcount::BlockReport;
    using pmcount::CountResult;
    using pmcount::CountStats;
    using pmcount::StructureReport;
    using pmcount::Timings;
    nb::class_<Timings>(m, "Timings", "pmcount::Timings (include/pmcount/result.hpp)")
        .def(nb::init<>())
        .def_rw("preprocess_s", &Timings::preprocess_s)
        .def_rw("count_s", &Timings::count_s)
        .def_rw("device_s", &Timings::device_s)
        .def_rw("codegen_s", &Timings::codegen_s)
        .def_rw("compile_s", &Timings::compile_s)
        .def_rw("kernel_cache", &Timings::kernel_cache)
        .def_rw("total_s", &Timings::total_s);
    nb::class_<CountStats>(m, "CountStats", "pmcount::CountStats (include/pmcount/result.hpp)")
        .def(nb::init<>())
        .def_rw("n", &CountStats::n)
        .def_rw("nnz", &CountStats::nnz)
        .def_rw("threads", &CountStats::threads)
        .def_rw("ranks", &CountStats::ranks)
        .def_rw("resumed_chunks", &CountStats::resumed_chunks)
        .def_rw("primes", &CountStats::primes)
        .def_rw("gray_steps", &CountStats::gray_steps)
        .def_rw("multiply_adds", &CountStats::multiply_adds);
    nb::class_<BlockReport>(m, "BlockReport", "pmcount::BlockReport (include/pmcount/result.hpp)")
        .def(nb::init<>())
        .def_rw("order", &BlockReport::order)
        .def_rw("nnz", &BlockReport::nnz)
        .def_rw("engine", &BlockReport::engine)
        .def_rw("origin", &BlockReport::origin)
        .def_rw("predicted_s", &BlockReport::predicted_s)
        .def_rw("seconds", &BlockReport::seconds);
    nb::class_<StructureReport>(m, "StructureReport",
                                "pmcount::StructureReport (include/pmcount/result.hpp)")
        .def(nb::init<>())
        .def_rw("dulmage_mendelsohn", &StructureReport::dulmage_mendelsohn)
        .def_rw("reductions", &StructureReport::reductions)
        .def_rw("matching_size", &StructureReport::matching_size)
        .def_rw("hall_rows", &StructureReport::hall_rows)
        .def_rw("hall_cols", &StructureReport::hall_cols)
        .def_rw("general", &StructureReport::general)
        .def_rw("tutte_set", &StructureReport::tutte_set)
        .def_rw("tutte_odd_components", &StructureReport::tutte_odd_components)
        .def_rw("block_orders", &StructureReport::block_orders)
        .def_rw("dropped_entries", &StructureReport::dropped_entries)
        .def_rw("eliminated", &StructureReport::eliminated)
        .def_rw("merged", &StructureReport::merged)
        .def_rw("split", &StructureReport::split)
        .def_rw("leaves", &StructureReport::leaves)
        .def_rw("predicted_s", &StructureReport::predicted_s)
        .def_rw("machine_speed_measured", &StructureReport::machine_speed_measured)
        .def_rw("plan_text", &StructureReport::plan_text);
    nb::class_<CountResult> c(m, "CountResult",
                              "pmcount::CountResult (include/pmcount/result.hpp); `exact` is a "
                              "Python int");
    c.def(nb::init<>());
    def_name(c, "kind", &CountResult::kind, &value_kind_from_string);
    c.def_rw("is_exact", &CountResult::is_exact)
        .def_prop_rw(
            "exact", [](const CountResult& r) { return python_int(r.exact); },
            [](CountResult& r, const nb::int_& value) { r.exact = big_int(value); })
        .def_rw("value", &CountResult::value)
        .def_rw("complex_value", &CountResult::complex_value)
        .def_rw("mantissa", &CountResult::mantissa)
        .def_rw("exponent2", &CountResult::exponent2)
        .def_rw("log10_abs", &CountResult::log10_abs)
        .def_rw("sign", &CountResult::sign)
        .def_rw("rel_error", &CountResult::rel_error)
        .def_rw("abs_error", &CountResult::abs_error)
        .def_rw("error_kind", &CountResult::error_kind)
        .def_rw("escalated_from", &CountResult::escalated_from)
        .def_rw("method", &CountResult::method)
        .def_rw("backend", &CountResult::backend)
        .def_rw("device", &CountResult::device)
        .def_rw("arithmetic", &CountResult::arithmetic)
        .def_rw("note", &CountResult::note)
        .def_rw("timings", &CountResult::timings)
        .def_rw("stats", &CountResult::stats)
        .def_rw("structure", &CountResult::structure)
        .def_rw("explained_only", &CountResult::explained_only)
        .def("value_string", &CountResult::value_string)
        .def(
            "to_json", [](const CountResult& r) { return pmcount::to_json(r); },
            "pmcount::to_json: the library's one JSON form, the text count_matchings --json "
            "extends");
}

void bind_estimate_result(nb::module_& m) {
    using pmcount::EstimateResult;
    nb::class_<EstimateResult> c(m, "EstimateResult",
                                 "pmcount::EstimateResult (include/pmcount/result.hpp)");
    c.def(nb::init<>())
        .def_rw("estimator", &EstimateResult::estimator)
        .def_rw("layout", &EstimateResult::layout)
        .def_rw("backend", &EstimateResult::backend)
        .def_rw("device", &EstimateResult::device)
        .def_rw("log10_value", &EstimateResult::log10_value)
        .def_rw("value", &EstimateResult::value)
        .def_rw("rel_std_error", &EstimateResult::rel_std_error)
        .def_rw("log10_ci_low", &EstimateResult::log10_ci_low)
        .def_rw("log10_ci_high", &EstimateResult::log10_ci_high)
        .def_rw("confidence", &EstimateResult::confidence)
        .def_rw("samples", &EstimateResult::samples)
        .def_rw("particles", &EstimateResult::particles)
        .def_rw("particles_reason", &EstimateResult::particles_reason)
        .def_rw("populations", &EstimateResult::populations)
        .def_rw("resumed_samples", &EstimateResult::resumed_samples)
        .def_rw("zero_fraction", &EstimateResult::zero_fraction)
        .def_rw("effective_samples", &EstimateResult::effective_samples)
        .def_rw("max_share", &EstimateResult::max_share)
        .def_rw("log_sd", &EstimateResult::log_sd);
    def_name(c, "stopped", &EstimateResult::stopped, &stop_reason_from_string);
    c.def_rw("n", &EstimateResult::n)
        .def_rw("nnz", &EstimateResult::nnz)
        .def_rw("threads", &EstimateResult::threads)
        .def_rw("ranks", &EstimateResult::ranks)
        .def_rw("seed", &EstimateResult::seed)
        .def_rw("seconds", &EstimateResult::seconds)
        .def_rw("sample_seconds", &EstimateResult::sample_seconds)
        .def_rw("note", &EstimateResult::note)
        .def(
            "to_json", [](const EstimateResult& r) { return pmcount::to_json(r); },
            "pmcount::to_json: the library's one JSON form, the text count_matchings --approx "
            "--json extends");
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

/// The options type a binding takes, as an argument.
template <class O>
struct OptionsOf {
    using type = O;
};

}  // namespace

NB_MODULE(_core, m) {
    m.doc() = "pmcount's C++ library (internal: use the pmcount package)";
    nb::register_exception_translator(translate);
    bind_matchings(m);
    bind_options(m);
    bind_count_result(m);
    bind_estimate_result(m);

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
        [](std::int64_t n_left, std::int64_t n_right, const Pairs& edges,
           const pmcount::CountOptions& o, const ProgressArg& progress) {
            const pmcount::BipartiteGraph g(checked_order(n_left, "left side"),
                                            checked_order(n_right, "right side"),
                                            pairs_of(edges, n_left, n_right));
            const pmcount::CountOptions options = with_progress(o, progress);
            return released([&] { return pmcount::count_perfect_matchings(g, options); });
        },
        "n_left"_a, "n_right"_a, "edges"_a, "options"_a, "progress"_a = nb::none());
    m.def(
        "count_general",
        [](std::int64_t n, const Pairs& edges, const pmcount::CountOptions& o,
           const ProgressArg& progress) {
            const pmcount::UndirectedGraph g(checked_order(n, "vertex count"),
                                             pairs_of(edges, n, n));
            const pmcount::CountOptions options = with_progress(o, progress);
            return released([&] { return pmcount::count_perfect_matchings(g, options); });
        },
        "n"_a, "edges"_a, "options"_a, "progress"_a = nb::none());
    m.def(
        "count_embedded",
        [](std::int64_t n, const Pairs& edges, const std::vector<std::vector<vertex_t>>& rotation,
           const pmcount::CountOptions& o, const ProgressArg& progress) {
            const pmcount::UndirectedGraph g(checked_order(n, "vertex count"),
                                             pairs_of(edges, n, n));
            const pmcount::Embedding embedding{rotation};
            const pmcount::CountOptions options = with_progress(o, progress);
            return released(
                [&] { return pmcount::count_perfect_matchings(g, embedding, options); });
        },
        "n"_a, "edges"_a, "rotation"_a, "options"_a, "progress"_a = nb::none());
    m.def(
        "count_cycle_covers",
        [](std::int64_t n, const Pairs& arcs, const pmcount::CountOptions& o,
           const ProgressArg& progress) {
            const pmcount::Digraph g(checked_order(n, "vertex count"), pairs_of(arcs, n, n));
            const pmcount::CountOptions options = with_progress(o, progress);
            return released([&] { return pmcount::count_cycle_covers(g, options); });
        },
        "n"_a, "arcs"_a, "options"_a, "progress"_a = nb::none());

    // permanent / hafnian / estimate of dense (NumPy) and sparse (triplet) matrices, per entry
    // type: NAME_dense_SUFFIX(a, options, progress) and NAME_sparse_SUFFIX(n_rows, n_cols, rows,
    // cols, values, options, progress) both run `run(matrix, options with the progress)`.
    auto matrices = [&m](auto tag, const char* suffix) {
        using T = decltype(tag);
        auto dense_and_sparse = [&m, suffix](const char* name, auto options_of, auto run) {
            using Options = typename decltype(options_of)::type;
            m.def((std::string(name) + "_dense_" + suffix).c_str(),
                  [run](const Matrix2D<T>& a, const Options& o, const ProgressArg& progress) {
                      return run(dense_of(a), with_progress(o, progress));
                  },
                  "a"_a, "options"_a, "progress"_a = nb::none());
            m.def((std::string(name) + "_sparse_" + suffix).c_str(),
                  [run](std::int64_t n_rows, std::int64_t n_cols, const Vector<std::int64_t>& rows,
                        const Vector<std::int64_t>& cols, const Vector<T>& values, const Options& o,
                        const ProgressArg& progress) {
                      return run(sparse_of<T>(n_rows, n_cols, rows, cols, values),
                                 with_progress(o, progress));
                  },
                  "n_rows"_a, "n_cols"_a, "rows"_a, "cols"_a, "values"_a, "options"_a,
                  "progress"_a = nb::none());
        };
        constexpr OptionsOf<pmcount::CountOptions> count;
        dense_and_sparse("permanent", count, [](const auto& matrix, const auto& options) {
            return released([&] { return pmcount::permanent(matrix, options); });
        });
        dense_and_sparse("hafnian", count, [](const auto& matrix, const auto& options) {
            return released([&] { return pmcount::hafnian(matrix, options); });
        });
        dense_and_sparse("loop_hafnian", count, [](const auto& matrix, const auto& options) {
            return released([&] { return pmcount::loop_hafnian(matrix, options); });
        });
        // Repeated rows and columns (dense): the multiplicities, and mu for the loop hafnian.
        m.def((std::string("hafnian_repeated_") + suffix).c_str(),
              [](const Matrix2D<T>& a, const std::vector<int>& rpt,
                 const std::optional<std::vector<T>>& mu, const pmcount::CountOptions& o,
                 const ProgressArg& progress) {
                  const pmcount::DenseMatrix<T> matrix = dense_of(a);
                  const pmcount::CountOptions options = with_progress(o, progress);
                  return released([&] {
                      return mu ? pmcount::loop_hafnian_repeated(matrix, rpt, *mu, options)
                                : pmcount::hafnian_repeated(matrix, rpt, options);
                  });
              },
              "a"_a, "rpt"_a, "mu"_a, "options"_a, "progress"_a = nb::none());
        m.def((std::string("permanent_repeated_") + suffix).c_str(),
              [](const Matrix2D<T>& a, const std::vector<int>& rows, const std::vector<int>& cols,
                 const pmcount::CountOptions& o, const ProgressArg& progress) {
                  const pmcount::DenseMatrix<T> matrix = dense_of(a);
                  const pmcount::CountOptions options = with_progress(o, progress);
                  return released(
                      [&] { return pmcount::permanent_repeated(matrix, rows, cols, options); });
              },
              "a"_a, "rows"_a, "cols"_a, "options"_a, "progress"_a = nb::none());
        // Batches: a (B, n, n) array of matrices; loop hafnians of one matrix with a (B, n)
        // array of diagonals; torontonians with an optional (B, 2N) array of gammas.
        m.def((std::string("batch_") + suffix).c_str(),
              [](const std::string& function, const Matrix3D<T>& a, const pmcount::CountOptions& o,
                 const ProgressArg& progress) {
                  const std::vector<pmcount::DenseMatrix<T>> matrices = dense_list(a);
                  const pmcount::CountOptions options = with_progress(o, progress);
                  return released([&] {
                      if (function == "permanent") {
                          return pmcount::permanent_batch(matrices, options);
                      }
                      if (function == "hafnian") {
                          return pmcount::hafnian_batch(matrices, options);
                      }
                      return pmcount::loop_hafnian_batch(matrices, options);
                  });
              },
              "function"_a, "a"_a, "options"_a, "progress"_a = nb::none());
        m.def((std::string("loop_hafnian_diagonals_") + suffix).c_str(),
              [](const Matrix2D<T>& a, const Matrix2D<T>& diagonals, const pmcount::CountOptions& o,
                 const ProgressArg& progress) {
                  const pmcount::DenseMatrix<T> matrix = dense_of(a);
                  std::vector<std::vector<T>> d(diagonals.shape(0),
                                                std::vector<T>(diagonals.shape(1)));
                  for (std::size_t k = 0; k < d.size(); ++k) {
                      std::copy(diagonals.data() + k * d[k].size(),
                                diagonals.data() + (k + 1) * d[k].size(), d[k].begin());
                  }
                  const pmcount::CountOptions options = with_progress(o, progress);
                  return released([&] { return pmcount::loop_hafnian_batch(matrix, d, options); });
              },
              "a"_a, "diagonals"_a, "options"_a, "progress"_a = nb::none());
        // Torontonians (dense; real or complex): gamma for the loop torontonian.
        if constexpr (!std::is_same_v<T, std::int64_t>) {
            m.def((std::string("torontonian_") + suffix).c_str(),
                  [](const Matrix2D<T>& a, const std::optional<std::vector<T>>& gamma,
                     const pmcount::CountOptions& o, const ProgressArg& progress) {
                      const pmcount::DenseMatrix<T> matrix = dense_of(a);
                      const pmcount::CountOptions options = with_progress(o, progress);
                      return released([&] {
                          return gamma ? pmcount::loop_torontonian(matrix, *gamma, options)
                                       : pmcount::torontonian(matrix, options);
                      });
                  },
                  "a"_a, "gamma"_a, "options"_a, "progress"_a = nb::none());
            m.def((std::string("torontonian_batch_") + suffix).c_str(),
                  [](const Matrix3D<T>& a, const std::optional<Matrix2D<T>>& gammas,
                     const pmcount::CountOptions& o, const ProgressArg& progress) {
                      const std::vector<pmcount::DenseMatrix<T>> matrices = dense_list(a);
                      std::vector<std::vector<T>> g;
                      if (gammas) {
                          g.assign(gammas->shape(0), std::vector<T>(gammas->shape(1)));
                          for (std::size_t k = 0; k < g.size(); ++k) {
                              std::copy(gammas->data() + k * g[k].size(),
                                        gammas->data() + (k + 1) * g[k].size(), g[k].begin());
                          }
                      }
                      const pmcount::CountOptions options = with_progress(o, progress);
                      return released([&] {
                          return pmcount::torontonian_batch(matrices, gammas ? &g : nullptr,
                                                            options);
                      });
                  },
                  "a"_a, "gammas"_a, "options"_a, "progress"_a = nb::none());
        }
        // The estimators take nonnegative real matrices (an integer one is read as real).
        if constexpr (!std::is_same_v<T, std::complex<double>>) {
            dense_and_sparse(
                "estimate", OptionsOf<pmcount::EstimateOptions>{},
                [](const auto& matrix, const auto& options) {
                    return released([&] { return pmcount::estimate_permanent(matrix, options); });
                });
            // A general graph's (weighted) perfect matchings; the sampler reads sparse entries.
            dense_and_sparse("estimate_hafnian", OptionsOf<pmcount::EstimateOptions>{},
                             [](const auto& matrix, const auto& options) {
                                 return released([&] {
                                     if constexpr (std::is_same_v<std::decay_t<decltype(matrix)>,
                                                                  pmcount::SparseMatrix<T>>) {
                                         return pmcount::estimate_hafnian(matrix, options);
                                     } else {
                                         return pmcount::estimate_hafnian(
                                             pmcount::SparseMatrix<T>(matrix), options);
                                     }
                                 });
                             });
        }
    };
    matrices(std::int64_t{}, "int");
    matrices(double{}, "float");
    matrices(std::complex<double>{}, "complex");

    m.def(
        "estimate_bipartite",
        [](std::int64_t n_left, std::int64_t n_right, const Pairs& edges,
           const pmcount::EstimateOptions& o, const ProgressArg& progress) {
            const pmcount::BipartiteGraph g(checked_order(n_left, "left side"),
                                            checked_order(n_right, "right side"),
                                            pairs_of(edges, n_left, n_right));
            const pmcount::EstimateOptions options = with_progress(o, progress);
            return released([&] { return pmcount::estimate_perfect_matchings(g, options); });
        },
        "n_left"_a, "n_right"_a, "edges"_a, "options"_a, "progress"_a = nb::none());

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
        "generate_general",
        [](const std::string& spec) {
            if (!pmcount::is_general_generator_spec(spec)) {
                throw pmcount::InvalidArgument("not a general graph's spec: " + spec);
            }
            const pmcount::UndirectedGraph g = pmcount::generate_undirected_graph(spec);
            return std::make_tuple(g.num_vertices(), g.edges());
        },
        "spec"_a);
    m.def(
        "torus_embedding",
        [](vertex_t rows, vertex_t cols) { return pmcount::torus_embedding(rows, cols).rotation; },
        "rows"_a, "cols"_a);
    m.def(
        "lattice_torus_embedding",
        [](const std::string& lattice, vertex_t rows, vertex_t cols) {
            if (lattice == "tri-torus") {
                return pmcount::triangular_torus_embedding(rows, cols).rotation;
            }
            if (lattice == "hex-torus") {
                return pmcount::brick_wall_torus_embedding(rows, cols).rotation;
            }
            if (lattice == "kagome-torus") {
                return pmcount::kagome_torus_embedding(rows, cols).rotation;
            }
            throw pmcount::InvalidArgument("no drawing of a lattice named " + lattice);
        },
        "lattice"_a, "rows"_a, "cols"_a);
    m.def("log_grid_tilings", [](vertex_t rows, vertex_t cols) {
        return static_cast<double>(pmcount::log_grid_tilings(rows, cols));
    });
}
