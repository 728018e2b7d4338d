// Counts the perfect matchings of the 6-cycle (2) and of K_{4,4} (24) through the installed
// public headers only; exits non-zero on a wrong answer.
#include <pmcount/pmcount.hpp>

#include <iostream>

int main() {
    const pmcount::BipartiteGraph cycle(3, 3, {{0, 0}, {0, 1}, {1, 1}, {1, 2}, {2, 2}, {2, 0}});
    const pmcount::CountResult r = pmcount::count_perfect_matchings(cycle);
    const pmcount::CountResult k = pmcount::permanent(pmcount::DenseMatrix<std::int64_t>(4, 4, 1));
    std::cout << "pmcount " << PMCOUNT_VERSION_STRING << ": " << r.exact.to_string() << " "
              << k.exact.to_string() << "\n";
    return r.exact == pmcount::BigInt(2) && k.exact == pmcount::BigInt(24) ? 0 : 1;
}
