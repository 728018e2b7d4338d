#include "approx/log_mean.hpp"

#include <algorithm>
#include <boost/math/distributions/students_t.hpp>
#include <cmath>
#include <limits>

namespace pmcount::approx {

namespace {

constexpr double kNegInf = -std::numeric_limits<double>::infinity();

}  // namespace

double log_add(double a, double b) noexcept {
    if (a < b) {
        std::swap(a, b);
    }
    if (b == kNegInf) {
        return a;
    }
    return a + std::log1p(std::exp(b - a));
}

void LogMeanAccumulator::add(double log_estimate) noexcept {
    ++count_;
    if (log_estimate != kNegInf) {
        const double nonzero = static_cast<double>(count_ - zeros_);
        const double delta = log_estimate - log_avg_;
        log_avg_ += delta / nonzero;
        log_m2_ += delta * (log_estimate - log_avg_);
    }
    if (log_estimate == kNegInf) {
        ++zeros_;
    } else if (sum1_ == 0) {
        log_max_ = log_estimate;
        sum1_ = 1;
        sum2_ = 1;
    } else if (log_estimate > log_max_) {
        const double shrink = std::exp(log_max_ - log_estimate);
        sum1_ = sum1_ * shrink + 1;
        sum2_ = sum2_ * shrink * shrink + 1;
        log_max_ = log_estimate;
    } else {
        const double x = std::exp(log_estimate - log_max_);
        sum1_ += x;
        sum2_ += x * x;
    }

    partial_log_sum_ = partial_count_ == 0 ? log_estimate : log_add(partial_log_sum_, log_estimate);
    if (++partial_count_ < batch_size_) {
        return;
    }
    batch_log_sums_.push_back(partial_log_sum_);
    partial_count_ = 0;
    if (batch_log_sums_.size() == 2 * kMinBatches) {
        // Merge neighbours: 64 batches of b become 32 of 2b.
        for (int k = 0; k < kMinBatches; ++k) {
            batch_log_sums_[k] = log_add(batch_log_sums_[2 * k], batch_log_sums_[2 * k + 1]);
        }
        batch_log_sums_.resize(kMinBatches);
        batch_size_ *= 2;
    }
}

double LogMeanAccumulator::log_mean() const noexcept {
    if (sum1_ == 0) {
        return kNegInf;
    }
    return log_max_ + std::log(sum1_) - std::log(static_cast<double>(count_));
}

double LogMeanAccumulator::rel_std_error() const noexcept {
    const auto k = batch_log_sums_.size();
    if (count_ < 2 || count_ - zeros_ < 2 || k < 2) {
        return std::numeric_limits<double>::infinity();
    }
    const double n = static_cast<double>(count_);
    // i.i.d.: s²/x̄² = (Σx²/n − x̄²)/x̄² · n/(n − 1), in units of the largest sample.
    const double mean = sum1_ / n;
    const double rel_var = std::max(0.0, (sum2_ / n - mean * mean) / (mean * mean)) * n / (n - 1);
    const double iid = std::sqrt(rel_var / n);
    // Batch means, relative to their own mean (zero batches are −inf and contribute 0).
    double top = kNegInf;
    for (const double b : batch_log_sums_) {
        top = std::max(top, b);
    }
    if (top == kNegInf) {
        return std::numeric_limits<double>::infinity();  // every complete batch was all zeros
    }
    double s1 = 0, s2 = 0;
    for (const double b : batch_log_sums_) {
        const double x = std::exp(b - top);
        s1 += x;
        s2 += x * x;
    }
    const double kd = static_cast<double>(k);
    const double bmean = s1 / kd;
    const double batch_rel_var =
        std::max(0.0, (s2 / kd - bmean * bmean) / (bmean * bmean)) * kd / (kd - 1);
    const double batch = std::sqrt(batch_rel_var / kd);
    return std::max(iid, batch);
}

double LogMeanAccumulator::log_half_width(double confidence) const {
    const double rse = rel_std_error();
    if (!std::isfinite(rse)) {
        return std::numeric_limits<double>::infinity();
    }
    const boost::math::students_t t(static_cast<double>(batch_log_sums_.size() - 1));
    return boost::math::quantile(t, 0.5 + confidence / 2) * rse;
}

double LogMeanAccumulator::log_variance() const noexcept {
    const std::uint64_t nonzero = count_ - zeros_;
    return nonzero < 2 ? 0 : log_m2_ / static_cast<double>(nonzero - 1);
}

double LogMeanAccumulator::effective_samples() const noexcept {
    return sum2_ > 0 ? sum1_ * sum1_ / sum2_ : 0;
}

double LogMeanAccumulator::max_share() const noexcept {
    return sum1_ > 0 ? 1 / sum1_ : 0;
}

}  // namespace pmcount::approx
