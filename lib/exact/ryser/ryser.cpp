// Dense Ryser: the Gray-code kernel over dense padded tables (ryser_kernel.hpp), plugged into the
// shared driver (ryser_driver.hpp) for every arithmetic.
#include "exact/ryser/ryser.hpp"

#include "exact/ryser/ryser_driver.hpp"

namespace pmcount::exact {

namespace {

/// Dense tables: y(∅) and every column's 2·a_j over all W slots.
struct DenseKernel {
    static constexpr const char* name = "dense Ryser";

    template <class Arith, int W, class Entry, class Start>
    typename Arith::Acc run(const Arith& arith, vertex_t n, const std::vector<int>& slot_row,
                            typename Arith::Elem one, Entry entry, Start start,
                            const run::EngineRun& engine_run) const {
        using Elem = typename Arith::Elem;
        RyserTables<Elem> tables;
        tables.width = W;
        tables.gray_bits = std::max(0, n - 1);
        tables.base.assign(static_cast<std::size_t>(W), one);
        tables.delta.assign(static_cast<std::size_t>(W) * static_cast<std::size_t>(tables.gray_bits),
                            Elem{});
        for (int s = 0; s < W; ++s) {
            const int i = slot_row[static_cast<std::size_t>(s)];
            if (i < 0) {
                continue;
            }
            tables.base[static_cast<std::size_t>(s)] = start(i);
            for (int j = 0; j + 1 < n; ++j) {
                tables.delta[static_cast<std::size_t>(j) * W + static_cast<std::size_t>(s)] = entry(i, j);
            }
        }
        return driver::accumulate_chunks(
            arith, tables.gray_bits, engine_run,
            [&](std::uint64_t begin, std::uint64_t end, typename Arith::Acc& acc) {
                ryser_range<Arith, W>(arith, tables, begin, end, acc);
            });
    }
};

}  // namespace

ExactOutcome ryser_exact(const DenseMatrix<std::int64_t>& a, bool binary,
                         const run::EngineRun& run) {
    return driver::exact_permanent(a, binary, run, DenseKernel{});
}

ExactProducts exact_products(const DenseMatrix<std::int64_t>& a) {
    std::vector<int> layout;
    return driver::choose_exact_products(driver::row_norms(a), 8 * ((std::max(a.rows(), 1) + 7) / 8),
                                         layout);
}

std::uint64_t ryser_modular(const DenseMatrix<std::int64_t>& a, std::uint64_t p,
                            const run::EngineRun& run) {
    return driver::modular_permanent(a, p, run, DenseKernel{});
}

FloatOutcome ryser_real(const DenseMatrix<double>& a, Precision precision,
                        const run::EngineRun& run) {
    return driver::real_permanent(a, precision, run, DenseKernel{});
}

FloatOutcome ryser_complex(const DenseMatrix<std::complex<double>>& a, const run::EngineRun& run) {
    return driver::complex_permanent(a, run, DenseKernel{});
}

}  // namespace pmcount::exact
