// How often a Gray-code subset leaves a zero in y: what makes the sparse engines fast.
#pragma once

#include "pmcount/matrix.hpp"

namespace pmcount::plan {

/// Estimated probability, over the 2^(n−1) subsets of Ryser's formula, that some
/// y_i = Σ_{j∈S∪{last}} a_ij − Σ_{j∉S∪{last}} a_ij is zero, the last column being the densest
/// (as the sparse engines order it). Row i's zero probability is exact (a dynamic program over
/// the signed sums of its entries, up to 4096 distinct sums; beyond that it counts as 0); rows are
/// treated as independent. Real entries in general position almost never cancel; 0-1 and small
/// integer rows often do.
template <class T>
double zero_probability(const SparseMatrix<T>& a);

}  // namespace pmcount::plan
