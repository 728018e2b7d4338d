// Batches (pmcount/count.hpp): the same function of many small matrices in one call. The items
// are spread over CPU threads, each item counted on one thread by the function's own entry
// point (so every item is checked, planned and reported as alone), the results kept in the
// items' order. An item's error is raised with "item k: " before its message; progress is the
// share of items done.
#include <complex>
#include <cstdint>
#include <functional>
#include <string>
#include <type_traits>
#include <vector>

#include "core/stop.hpp"
#include "count/pipeline.hpp"
#include "pmcount/count.hpp"
#include "pmcount/error.hpp"

namespace pmcount {

namespace {

/// Calls count(k, options for one item) for every k < items on the batch's threads.
std::vector<CountResult> run_batch(
    std::size_t items, const CountOptions& options,
    const std::function<CountResult(std::size_t, const CountOptions&)>& count) {
    std::vector<CountResult> results(items);
    CountOptions one = options;
    one.threads = 1;
    one.progress = nullptr;
    const run::EngineRun run = counting::engine_run(options);
    run::parallel_units(static_cast<std::int64_t>(items), static_cast<std::int64_t>(items), 0, run,
                        [&](std::int64_t i) {
                            const auto k = static_cast<std::size_t>(i);
                            const std::string item = "item " + std::to_string(k) + ": ";
                            try {
                                results[k] = count(k, one);
                            } catch (const InvalidArgument& e) {
                                throw InvalidArgument(item + e.what());
                            } catch (const DimensionMismatch& e) {
                                throw DimensionMismatch(item + e.what());
                            } catch (const ProblemTooLarge& e) {
                                throw ProblemTooLarge(item + e.what());
                            }
                            return std::int64_t{1};
                        });
    return results;
}

/// Complex loop hafnians on CPU threads at the default precision: blocks in vector lanes
/// (counting::complex_loop_hafnian_batch), the same results as one by one.
bool lanes_apply(const CountOptions& options) {
    return options.backend != Backend::cuda && options.method == Method::automatic &&
           options.precision == Precision::automatic && !options.explain_only;
}

}  // namespace

template <class T>
std::vector<CountResult> permanent_batch(const std::vector<DenseMatrix<T>>& matrices,
                                         const CountOptions& options) {
    return run_batch(matrices.size(), options, [&](std::size_t k, const CountOptions& o) {
        return permanent(matrices[k], o);
    });
}

template <class T>
std::vector<CountResult> hafnian_batch(const std::vector<DenseMatrix<T>>& matrices,
                                       const CountOptions& options) {
    return run_batch(matrices.size(), options,
                     [&](std::size_t k, const CountOptions& o) { return hafnian(matrices[k], o); });
}

template <class T>
std::vector<CountResult> loop_hafnian_batch(const std::vector<DenseMatrix<T>>& matrices,
                                            const CountOptions& options) {
    if constexpr (std::is_same_v<T, std::complex<double>>) {
        if (lanes_apply(options)) {
            return detail::stop_boundary(
                [&] { return counting::complex_loop_hafnian_batch(matrices, options); });
        }
    }
    return run_batch(matrices.size(), options, [&](std::size_t k, const CountOptions& o) {
        return loop_hafnian(matrices[k], o);
    });
}

template <class T>
std::vector<CountResult> loop_hafnian_batch(const DenseMatrix<T>& matrix,
                                            const std::vector<std::vector<T>>& diagonals,
                                            const CountOptions& options) {
    if (!matrix.is_square()) {
        throw DimensionMismatch("a loop hafnian needs a square matrix, got " +
                                std::to_string(matrix.rows()) + "×" +
                                std::to_string(matrix.cols()));
    }
    // The off-diagonal part is shared; each item gets its own copy with its diagonal.
    if constexpr (std::is_same_v<T, std::complex<double>>) {
        if (lanes_apply(options)) {
            std::vector<DenseMatrix<T>> items;
            for (std::size_t k = 0; k < diagonals.size(); ++k) {
                const std::vector<T>& d = diagonals[k];
                if (d.size() != static_cast<std::size_t>(matrix.rows())) {
                    throw InvalidArgument("item " + std::to_string(k) + ": the diagonal has " +
                                          std::to_string(d.size()) +
                                          " entries for a matrix of order " +
                                          std::to_string(matrix.rows()));
                }
                items.push_back(matrix);
                for (vertex_t i = 0; i < matrix.rows(); ++i) {
                    items.back()(i, i) = d[static_cast<std::size_t>(i)];
                }
            }
            return loop_hafnian_batch(items, options);
        }
    }
    return run_batch(diagonals.size(), options, [&](std::size_t k, const CountOptions& o) {
        const std::vector<T>& d = diagonals[k];
        if (d.size() != static_cast<std::size_t>(matrix.rows())) {
            throw InvalidArgument("the diagonal has " + std::to_string(d.size()) +
                                  " entries for a matrix of order " +
                                  std::to_string(matrix.rows()));
        }
        DenseMatrix<T> a = matrix;
        for (vertex_t i = 0; i < a.rows(); ++i) {
            a(i, i) = d[static_cast<std::size_t>(i)];
        }
        return loop_hafnian(a, o);
    });
}

template <class T>
std::vector<CountResult> torontonian_batch(const std::vector<DenseMatrix<T>>& matrices,
                                           const std::vector<std::vector<T>>* gammas,
                                           const CountOptions& options) {
    if (gammas != nullptr && gammas->size() != matrices.size()) {
        throw InvalidArgument("a loop torontonian batch needs one gamma per matrix: " +
                              std::to_string(gammas->size()) + " for " +
                              std::to_string(matrices.size()));
    }
    return run_batch(matrices.size(), options, [&](std::size_t k, const CountOptions& o) {
        return gammas != nullptr ? loop_torontonian(matrices[k], (*gammas)[k], o)
                                 : torontonian(matrices[k], o);
    });
}

#define PMCOUNT_BATCH(T)                                                                     \
    template std::vector<CountResult> permanent_batch(const std::vector<DenseMatrix<T>>&,    \
                                                      const CountOptions&);                  \
    template std::vector<CountResult> hafnian_batch(const std::vector<DenseMatrix<T>>&,      \
                                                    const CountOptions&);                    \
    template std::vector<CountResult> loop_hafnian_batch(const std::vector<DenseMatrix<T>>&, \
                                                         const CountOptions&);               \
    template std::vector<CountResult> loop_hafnian_batch(                                    \
        const DenseMatrix<T>&, const std::vector<std::vector<T>>&, const CountOptions&);
PMCOUNT_BATCH(std::int64_t)
PMCOUNT_BATCH(double)
PMCOUNT_BATCH(std::complex<double>)
#undef PMCOUNT_BATCH
template std::vector<CountResult> torontonian_batch(const std::vector<DenseMatrix<double>>&,
                                                    const std::vector<std::vector<double>>*,
                                                    const CountOptions&);
template std::vector<CountResult> torontonian_batch(
    const std::vector<DenseMatrix<std::complex<double>>>&,
    const std::vector<std::vector<std::complex<double>>>*, const CountOptions&);

}  // namespace pmcount
