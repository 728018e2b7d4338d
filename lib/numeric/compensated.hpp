// Error-free transformations and compensated summation (Knuth's TwoSum; Neumaier's improvement of
// Kahan summation, ZAMM 54, 1974). The compensated sum of n terms has error ≤ u|S| + O(n u²)Σ|x_i|
// instead of the (n−1)u Σ|x_i| of plain recursive summation.
#pragma once

namespace pmcount::numeric {

/// s + e = a + b exactly, s = fl(a + b). Six flops, no branch, any ordering of |a|, |b|.
inline void two_sum(double a, double b, double& s, double& e) noexcept {
    s = a + b;
    const double bb = s - a;
    e = (a - (s - bb)) + (b - bb);
}

class CompensatedSum {
public:
    void add(double v) noexcept {
        double e;
        two_sum(sum_, v, sum_, e);
        compensation_ += e;
    }
    void add(const CompensatedSum& other) noexcept {
        add(other.sum_);
        add(other.compensation_);
    }
    /// Subtracts another compensated sum.
    void add_negated(const CompensatedSum& other) noexcept {
        add(-other.sum_);
        add(-other.compensation_);
    }
    double value() const noexcept { return sum_ + compensation_; }
    /// What value() rounds off: value() + rounding() is the compensated sum exactly.
    double rounding() const noexcept {
        double s, e;
        two_sum(sum_, compensation_, s, e);
        return e;
    }

private:
    double sum_ = 0;
    double compensation_ = 0;
};

/// A complex number as two doubles (the engines' complex arithmetic works on the parts: no
/// std::complex NaN/Inf rescue, since inputs are validated finite and scaled).
struct Complex {
    double re = 0;
    double im = 0;
};

/// Compensated sums of real and imaginary parts.
struct ComplexSum {
    CompensatedSum re;
    CompensatedSum im;
};

}  // namespace pmcount::numeric
