// A one-line progress bar with ETA on a terminal's stderr, shown once a run passes 2 seconds.
#pragma once

#include <cstdio>
#include <string>

namespace pmcount::tools {

class ProgressBar {
public:
    /// Draws only when `enabled` (stderr is a terminal and output is not quiet).
    explicit ProgressBar(bool enabled) noexcept : enabled_(enabled) {}
    ~ProgressBar() { clear(); }
    ProgressBar(const ProgressBar&) = delete;
    ProgressBar& operator=(const ProgressBar&) = delete;

    void update(double fraction, double elapsed_s) {
        if (!enabled_ || elapsed_s < kDelay_s) {
            return;
        }
        constexpr int kWidth = 30;
        const int filled = static_cast<int>(fraction * kWidth);
        std::string bar(static_cast<std::size_t>(filled), '#');
        bar.resize(kWidth, '.');
        const double eta = fraction > 0 ? elapsed_s * (1 - fraction) / fraction : 0;
        std::fprintf(stderr, "\r[%s] %5.1f%%  elapsed %s  ETA %s ", bar.c_str(), 100 * fraction,
                     duration(elapsed_s).c_str(),
                     fraction > 0 ? duration(eta).c_str() : "?");
        std::fflush(stderr);
        drawn_ = true;
    }
    void clear() {
        if (drawn_) {
            std::fprintf(stderr, "\r%80s\r", "");
            std::fflush(stderr);
            drawn_ = false;
        }
    }

private:
    static std::string duration(double s) {
        char buffer[32];
        if (s < 120) {
            std::snprintf(buffer, sizeof buffer, "%.0fs", s);
        } else if (s < 7200) {
            std::snprintf(buffer, sizeof buffer, "%dm%02ds", static_cast<int>(s) / 60,
                          static_cast<int>(s) % 60);
        } else {
            std::snprintf(buffer, sizeof buffer, "%.1fh", s / 3600);
        }
        return buffer;
    }

    static constexpr double kDelay_s = 2.0;
    bool enabled_;
    bool drawn_ = false;
};

}  // namespace pmcount::tools
