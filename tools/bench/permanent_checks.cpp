#include "permanent_checks.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <string>
#include <utility>
#include <vector>

namespace pmcount::bench::permanents {

// ---- Checks -------------------------------------------------------------------------------------

double relative_difference(std::complex<double> a, std::complex<double> b) {
    const double difference = std::abs(a - b);
    return b == 0.0 ? difference : difference / std::abs(b);
}

std::complex<double> value_of(const Measurement& m) {
    return {m.value, m.value_im};
}

void check_agreement(Measurement& a, Measurement& b) {
    bool agree = false;
    std::string detail;
    if (a.is_exact && b.is_exact) {
        agree = a.exact == b.exact;
        detail = a.value_text + " != " + b.value_text;
    } else {
        // Complex answers: each part carries a rounding, so the distance bound doubles it.
        const double tolerance =
            a.abs_error + b.abs_error + 0x1p-52 * (std::abs(value_of(a)) + std::abs(value_of(b)));
        const double difference = std::abs(value_of(a) - value_of(b));
        agree = !(difference > tolerance);  // an unbounded (NaN / inf) estimate cannot fail
        detail = a.value_text + " vs " + b.value_text + ": relative difference " +
                 format_short(relative_difference(value_of(a), value_of(b))) +
                 " exceeds the bound " +
                 format_short(b.value == 0 && b.value_im == 0 ? tolerance
                                                              : tolerance / std::abs(value_of(b)));
    }
    for (auto [self, other] : {std::pair{&a, &b}, std::pair{&b, &a}}) {
        ++self->checks;
        self->references.push_back(other->label());
        if (!agree) {
            self->mismatches.push_back("differs from " + other->label() + ": " + detail);
        }
    }
}

void check_identical(Measurement& m, const Measurement& anchor) {
    ++m.checks;
    m.references.push_back(anchor.label() + " (bit-identical)");
    if (!identical(m, anchor)) {
        m.mismatches.push_back("not bit-identical to " + anchor.label() + ": value " +
                               format_double(m.value) + " vs " + format_double(anchor.value) +
                               ", abs_error " + format_double(m.abs_error) + " vs " +
                               format_double(anchor.abs_error));
    }
}

const Measurement* best_reference(const Measurement& m, const std::vector<Measurement>& all) {
    const Measurement* best = nullptr;
    auto better = [](const Measurement& x, const Measurement& y) {
        if (x.is_exact != y.is_exact) {
            return x.is_exact;
        }
        return x.abs_error < y.abs_error;
    };
    for (const Measurement& candidate : all) {
        if (!candidate.pmcount || !candidate.ran() || candidate.family() == m.family()) {
            continue;
        }
        if (m.pmcount && better(m, candidate)) {
            continue;
        }
        if (best == nullptr || better(candidate, *best)) {
            best = &candidate;
        }
    }
    return best;
}

void check_all(std::vector<Measurement>& all) {
    // The first measurement of each engine/arithmetic is its anchor: the others of the family
    // (other thread counts) must match it bit for bit, and anchors are compared pairwise.
    std::vector<std::size_t> anchors;
    for (std::size_t k = 0; k < all.size(); ++k) {
        if (!all[k].pmcount || !all[k].ran()) {
            continue;
        }
        const auto anchor = std::find_if(anchors.begin(), anchors.end(), [&](std::size_t a) {
            return all[a].family() == all[k].family();
        });
        if (anchor == anchors.end()) {
            anchors.push_back(k);
        } else {
            check_identical(all[k], all[*anchor]);
        }
    }
    for (std::size_t i = 0; i < anchors.size(); ++i) {
        for (std::size_t j = i + 1; j < anchors.size(); ++j) {
            check_agreement(all[anchors[i]], all[anchors[j]]);
        }
    }
    for (Measurement& m : all) {
        if (const Measurement* reference = best_reference(m, all);
            reference != nullptr && m.ran() && !m.timed_out) {
            m.observed_error = relative_difference(value_of(m), value_of(*reference));
            m.observed_reference = reference->label();
        }
    }
}

std::string join(const std::vector<int>& values) {
    std::string text;
    for (const int v : values) {
        text += (text.empty() ? "" : " ") + std::to_string(v);
    }
    return text;
}

void check_planted_blocks(std::vector<Measurement>& all, const TestMatrix& matrix) {
    std::vector<int> planted = matrix.planted_blocks;
    std::sort(planted.begin(), planted.end());
    for (Measurement& m : all) {
        if (!m.pmcount || !m.ran() || !m.structure.dulmage_mendelsohn) {
            continue;
        }
        std::vector<int> found(m.structure.block_orders.begin(), m.structure.block_orders.end());
        std::sort(found.begin(), found.end());
        ++m.checks;
        m.references.push_back("planted blocks (" + join(matrix.planted_blocks) + ")");
        if (found != planted) {
            m.mismatches.push_back("the front end found blocks of orders " + join(found) +
                                   ", the planted blocks have orders " + join(planted));
        }
    }
}

void check_engines_ran(std::vector<Measurement>& all) {
    for (Measurement& m : all) {
        if (!m.pmcount || !m.ran() || m.front_end != "none" || m.engine == "brute-force") {
            continue;
        }
        ++m.checks;
        m.references.push_back("engine that ran");
        if (m.method_ran != m.engine) {
            m.mismatches.push_back("asked for " + m.engine + ", the planner ran " + m.method_ran);
        }
    }
}

}  // namespace pmcount::bench::permanents
