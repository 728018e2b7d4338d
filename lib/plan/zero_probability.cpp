#include "plan/zero_probability.hpp"

#include <algorithm>
#include <complex>
#include <map>
#include <type_traits>
#include <vector>

namespace pmcount::plan {

namespace {

constexpr std::size_t kMaxSums = 4096;

/// Probability that base + Σ ±v_k = 0 with independent fair signs; 0 when the sums explode.
template <class T>
double row_zero_probability(T base, const std::vector<T>& values) {
    std::map<T, double> sums{{base, 1.0}};
    for (const T& v : values) {
        std::map<T, double> next;
        for (const auto& [s, p] : sums) {
            next[s + v] += 0.5 * p;
            next[s - v] += 0.5 * p;
        }
        if (next.size() > kMaxSums) {
            return 0;
        }
        sums = std::move(next);
    }
    const auto it = sums.find(T{});
    return it == sums.end() ? 0.0 : it->second;
}

}  // namespace

template <class T>
double zero_probability(const SparseMatrix<T>& a) {
    if constexpr (std::is_same_v<T, std::complex<double>>) {
        return 0;  // complex entries in general position do not cancel
    } else {
        if (a.rows() == 0) {
            return 0;
        }
        std::vector<edge_t> count(static_cast<std::size_t>(a.cols()), 0);
        for (const vertex_t c : a.col_indices()) {
            ++count[static_cast<std::size_t>(c)];
        }
        const auto last = static_cast<vertex_t>(std::max_element(count.begin(), count.end()) - count.begin());
        double no_zero = 1;
        for (vertex_t i = 0; i < a.rows(); ++i) {
            T base{};
            std::vector<T> values;
            for (edge_t e = a.row_offsets()[static_cast<std::size_t>(i)];
                 e < a.row_offsets()[static_cast<std::size_t>(i) + 1]; ++e) {
                const T v = a.values()[static_cast<std::size_t>(e)];
                if (a.col_indices()[static_cast<std::size_t>(e)] == last) {
                    base = v;
                } else if (v != T{}) {
                    values.push_back(v);
                }
            }
            no_zero *= 1 - row_zero_probability(base, values);
        }
        return 1 - no_zero;
    }
}

template double zero_probability(const SparseMatrix<std::int64_t>&);
template double zero_probability(const SparseMatrix<double>&);
template double zero_probability(const SparseMatrix<std::complex<double>>&);

}  // namespace pmcount::plan
