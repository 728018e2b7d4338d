// A count's checkpoint identity (run/session.hpp): what a resumed run must match.
#include <complex>
#include <cstdio>
#include <string>

#include "core/hash.hpp"
#include "core/names.hpp"
#include "count/pipeline.hpp"
#include "pmcount/build_info.hpp"

namespace pmcount::counting {

template <class T>
run::Identity run_identity(const SparseMatrix<T>& m, bool hafnian, Precision precision,
                           const StructureReport& plan) {
    std::uint64_t input = fnv1a(hafnian ? "hafnian" : "permanent");
    input = fnv1a_value(fnv1a_value(input, m.rows()), m.cols());
    for (const auto& t : m.triplets()) {
        input = fnv1a_value(fnv1a_value(fnv1a_value(input, t.row), t.col), t.value);
    }
    std::uint64_t leaves = fnv1a(to_string(precision));
    std::string engines;
    for (std::size_t k = 0; k < plan.leaves.size(); ++k) {
        const BlockReport& leaf = plan.leaves[k];
        leaves = fnv1a_value(fnv1a(leaf.engine, leaves), leaf.order);
        if (k < 4) {
            engines += (k == 0 ? "" : ", ") + leaf.engine + " " + std::to_string(leaf.order);
        }
    }
    char text[160];
    std::snprintf(text, sizeof text, "%d×%d, %lld entries, hash %016llx", m.rows(), m.cols(),
                  static_cast<long long>(m.nnz()), static_cast<unsigned long long>(input));
    run::Identity id;
    id.version = build_info().version;
    id.input = text;
    std::snprintf(text, sizeof text, "; leaves: %zu%s, hash %016llx", plan.leaves.size(),
                  plan.leaves.size() > 4 ? " (the first 4 shown)" : "",
                  static_cast<unsigned long long>(leaves));
    id.plan = std::string(to_string(precision)) + " precision, engines " + engines + text;
    return id;
}

template run::Identity run_identity(const SparseMatrix<std::int64_t>&, bool, Precision,
                                    const StructureReport&);
template run::Identity run_identity(const SparseMatrix<double>&, bool, Precision,
                                    const StructureReport&);
template run::Identity run_identity(const SparseMatrix<std::complex<double>>&, bool, Precision,
                                    const StructureReport&);

}  // namespace pmcount::counting
