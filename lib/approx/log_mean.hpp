// The mean of positive estimates given by their logs, its standard error and a confidence
// interval, in log space (estimates of lattice counts overflow double: the 100×100 grid has
// about 10^1266 tilings).
//
// Why the interval looks the way it does. An unbiased estimator of a permanent is positive and
// heavy-tailed: most samples fall below the mean and a few large ones carry it. Three things go
// wrong with the textbook mean ± 1.96·s/√N: the sample variance is itself estimated from those
// few large samples; the sampling distribution of the mean is right-skewed at moderate N; and the
// interval is symmetric on a scale where the error is multiplicative. So:
//   * the interval is built for log(mean) by the delta method, Var(log m̂) ≈ (se/m)², i.e.
//     log m̂ ± q·rse: multiplicative, asymmetric on the linear scale, never below 0;
//   * rse is the larger of two estimates of the relative standard error: the i.i.d. one from the
//     sample moments, and one from K ∈ [32, 64) batch means (consecutive samples, batch size a
//     power of two that doubles as N grows; Schmeiser, Oper. Res. 1982). Batch means are nearly
//     normal long before single samples are, and they disagree with the i.i.d. estimate exactly
//     when a few samples dominate;
//   * q is Student's t with K − 1 degrees of freedom, which pays for estimating the spread from
//     K batch means.
// tests/unit/approx/estimate_test.cpp measures the coverage (200 seeded runs on the 8×8 grid).
// Diagnostics: the effective sample size (Σx)²/Σx², the share of the largest sample, which
// expose a run whose interval should not be trusted yet, and the variance of the logs. A
// log-normal model (CV² = exp(σ²) − 1) would see a heavy tail from the bulk of the samples, but
// on grids the logs have a long left tail (many tiny estimates, harmless to the mean): on the
// 32×32 grid σ = 3.4 would claim CV ≈ 300 where the measured CV is about 10, so σ is reported
// and not used.
//
// Accumulation is sequential in sample order, so a run's statistics depend on the seed and the
// number of samples only. O(1) per sample, O(K) memory.
#pragma once

#include <cstdint>
#include <vector>

namespace pmcount::approx {

class LogMeanAccumulator {
public:
    /// Adds one sample, given as log(estimate); −inf is a zero estimate.
    void add(double log_estimate) noexcept;

    std::uint64_t count() const noexcept { return count_; }
    std::uint64_t zeros() const noexcept { return zeros_; }
    /// log of the mean of the estimates (−inf when every sample was 0 or none was taken).
    double log_mean() const noexcept;
    /// Relative standard error of the mean: max(i.i.d., batch means); +inf below two batches or
    /// two nonzero samples.
    double rel_std_error() const noexcept;
    /// Half-width, in natural log, of the two-sided interval for log(mean) at `confidence`.
    /// Below two batches or two nonzero samples nothing bounds the mean (the permanent is
    /// positive but may be anything): +inf.
    double log_half_width(double confidence) const;
    /// Variance of the logs of the nonzero samples (σ²); 0 below two.
    double log_variance() const noexcept;
    /// (Σx)² / Σx²: the number of equally weighted samples worth as much.
    double effective_samples() const noexcept;
    /// Largest sample / sum of samples.
    double max_share() const noexcept;
    /// Complete batches behind the batch-means error (K).
    int batches() const noexcept { return static_cast<int>(batch_log_sums_.size()); }

private:
    static constexpr int kMinBatches = 32;

    std::uint64_t count_ = 0;
    std::uint64_t zeros_ = 0;
    // Moments relative to the largest log so far: Σ exp(l − max), Σ exp(2(l − max)).
    double log_max_ = 0;
    double sum1_ = 0;
    double sum2_ = 0;
    // Welford mean and sum of squared deviations of the logs of the nonzero samples.
    double log_avg_ = 0;
    double log_m2_ = 0;
    // log of the sums of complete batches of batch_size_ consecutive samples, and the partial one.
    std::vector<double> batch_log_sums_;
    std::uint64_t batch_size_ = 1;
    std::uint64_t partial_count_ = 0;
    double partial_log_sum_ = 0;
};

/// log(exp(a) + exp(b)) without overflow; −inf is the zero.
double log_add(double a, double b) noexcept;

}  // namespace pmcount::approx
