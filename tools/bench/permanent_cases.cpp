#include "permanent_cases.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <complex>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace pmcount::bench::permanents {

// ---- Argument parsing ---------------------------------------------------------------------------

std::vector<CaseSpec> parse_cases(const std::string& text) {
    std::vector<CaseSpec> cases;
    for (const std::string& item : split(text, ',')) {
        const auto known = std::find_if(std::begin(known_cases), std::end(known_cases),
                                        [&](const CaseSpec& c) { return item == c.name; });
        if (known == std::end(known_cases)) {
            throw CLI::ValidationError("--cases",
                                       "unknown case '" + item + "' (" + known_case_names + ")");
        }
        cases.push_back(*known);
    }
    if (cases.empty()) {
        throw CLI::ValidationError("--cases", "no case given");
    }
    return cases;
}

std::vector<pmcount::Precision> parse_precisions(const std::string& text) {
    std::vector<pmcount::Precision> precisions;
    for (const std::string& item : split(text, ',')) {
        pmcount::Precision precision = pmcount::Precision::automatic;
        try {
            precision = pmcount::precision_from_string(item);
        } catch (const pmcount::InvalidArgument& e) {
            throw CLI::ValidationError("--precision", e.what());
        }
        if (precision != pmcount::Precision::double_precision &&
            precision != pmcount::Precision::double_plain &&
            precision != pmcount::Precision::double_double &&
            precision != pmcount::Precision::certified) {
            throw CLI::ValidationError(
                "--precision",
                "'" + item + "': use double, plain-double, dd or certified (--exact adds exact)");
        }
        if (std::find(precisions.begin(), precisions.end(), precision) == precisions.end()) {
            precisions.push_back(precision);
        }
    }
    if (precisions.empty()) {
        throw CLI::ValidationError("--precision", "no precision given");
    }
    return precisions;
}

// ---- Output -------------------------------------------------------------------------------------

// ---- Matrices -----------------------------------------------------------------------------------

std::vector<double> dense_entries(const CaseSpec& spec, int n, double density, Draw& draw) {
    std::vector<double> entries(static_cast<std::size_t>(n) * static_cast<std::size_t>(n));
    for (double& x : entries) {
        x = draw.uniform01();
        if (spec.binary) {
            x = x < density ? 1.0 : 0.0;
        } else if (std::strcmp(spec.name, "dense-signed") == 0) {
            x = 2.0 * x - 1.0;
        }
    }
    return entries;
}

std::vector<double> symmetric_entries(const CaseSpec& spec, int n, double density, Draw& draw) {
    const int width = spec.complex ? 2 : 1;
    std::vector<double> entries(
        static_cast<std::size_t>(n) * static_cast<std::size_t>(n) * static_cast<std::size_t>(width),
        0.0);
    auto at = [&](int i, int j, int part) {
        return (static_cast<std::size_t>(i) * static_cast<std::size_t>(n) +
                static_cast<std::size_t>(j)) *
                   static_cast<std::size_t>(width) +
               static_cast<std::size_t>(part);
    };
    for (int i = 0; i < n; ++i) {
        for (int j = spec.loop ? i : i + 1; j < n; ++j) {
            for (int part = 0; part < width; ++part) {
                double x = draw.uniform01();
                if (spec.binary) {
                    x = x < density ? 1.0 : 0.0;
                } else if (std::strstr(spec.name, "hafnian-real") == nullptr) {
                    x = 2.0 * x - 1.0;
                }
                entries[at(i, j, part)] = entries[at(j, i, part)] = x;
            }
        }
    }
    return entries;
}

std::vector<int> diagonal_block_orders(int n, int max_block) {
    std::vector<int> orders;
    for (int left = n; left > 0; left -= orders.back()) {
        orders.push_back(std::min(left, max_block));
    }
    while (orders.size() > 1 && orders.back() < 3) {
        const auto donor =
            std::find_if(orders.rbegin() + 1, orders.rend(), [](int order) { return order > 3; });
        if (donor == orders.rend()) {
            break;
        }
        --*donor;
        ++orders.back();
    }
    return orders;
}

std::vector<double> reducible_entries(int n, const std::vector<int>& orders, double density,
                                      Draw& draw) {
    std::vector<int> block_of;  // line → its diagonal block
    std::vector<int> block_start;
    for (std::size_t b = 0; b < orders.size(); ++b) {
        block_start.push_back(static_cast<int>(block_of.size()));
        block_of.insert(block_of.end(), static_cast<std::size_t>(orders[b]), static_cast<int>(b));
    }
    const auto at = [n](int i, int j) {
        return static_cast<std::size_t>(i) * static_cast<std::size_t>(n) +
               static_cast<std::size_t>(j);
    };
    std::vector<double> planted(static_cast<std::size_t>(n) * static_cast<std::size_t>(n), 0.0);
    for (int i = 0; i < n; ++i) {
        const int bi = block_of[static_cast<std::size_t>(i)];
        for (int j = 0; j < n; ++j) {
            const int bj = block_of[static_cast<std::size_t>(j)];
            if (bj < bi) {
                continue;
            }
            bool one = draw.uniform01() < density;
            if (bi == bj) {
                const int b = orders[static_cast<std::size_t>(bi)];
                const int local_i = i - block_start[static_cast<std::size_t>(bi)];
                const int local_j = j - block_start[static_cast<std::size_t>(bi)];
                one = one || local_j == local_i || local_j == (local_i + 1) % b;
            }
            planted[at(i, j)] = one ? 1.0 : 0.0;
        }
    }
    const std::vector<int> row_perm = draw.permutation(n);
    const std::vector<int> col_perm = draw.permutation(n);
    std::vector<double> entries(planted.size());
    for (int i = 0; i < n; ++i) {
        for (int j = 0; j < n; ++j) {
            entries[at(i, j)] = planted[at(row_perm[static_cast<std::size_t>(i)],
                                           col_perm[static_cast<std::size_t>(j)])];
        }
    }
    return entries;
}

TestMatrix make_matrix(const CaseSpec& spec, int n, const BenchOptions& options) {
    TestMatrix m;
    m.case_name = spec.name;
    m.binary = spec.binary;
    m.n = n;
    m.base_seed = options.seed;
    Fnv1a case_hash;
    case_hash.add(spec.name, std::strlen(spec.name));
    m.seed = mix64(options.seed ^ mix64(case_hash.value() ^ static_cast<std::uint64_t>(n)));

    Draw draw(m.seed);
    std::vector<double> entries;
    if (spec.reducible) {
        m.planted_blocks = diagonal_block_orders(n, options.max_block);
        entries = reducible_entries(n, m.planted_blocks, options.density, draw);
    } else if (spec.sparse) {
        m.sparse = true;
        m.density = options.sparse_density;
        entries = sparse_entries(spec.name, n, m.density, spec.binary, draw, m.redraws);
    } else if (spec.hafnian) {
        m.hafnian = true;
        m.loop = spec.loop;
        entries = symmetric_entries(spec, n, options.density, draw);
    } else {
        entries = dense_entries(spec, n, options.density, draw);
    }
    const auto order = static_cast<pmcount::vertex_t>(n);
    if (spec.complex) {
        m.complex = pmcount::DenseMatrix<std::complex<double>>(order, order);
    } else {
        m.real = pmcount::DenseMatrix<double>(order, order);
    }
    if (m.binary) {
        m.integer = pmcount::DenseMatrix<std::int64_t>(order, order);
    }
    Fnv1a hash;
    hash.add(&n, sizeof n);
    auto x = entries.begin();
    for (pmcount::vertex_t i = 0; i < order; ++i) {
        for (pmcount::vertex_t j = 0; j < order; ++j) {
            if (spec.complex) {
                m.complex(i, j) = {x[0], x[1]};
                m.nnz += x[0] != 0.0 || x[1] != 0.0 ? 1 : 0;
                hash.add(&*x, 2 * sizeof *x);
                x += 2;
                continue;
            }
            m.real(i, j) = *x;
            if (m.binary) {
                m.integer(i, j) = static_cast<std::int64_t>(*x);
            }
            m.nnz += *x != 0.0 ? 1 : 0;
            hash.add(&*x, sizeof *x);
            ++x;
        }
    }
    char text[20];
    std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(hash.value()));
    m.hash = text;
    return m;
}

}  // namespace pmcount::bench::permanents
