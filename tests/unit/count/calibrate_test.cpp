// calibrate_cost_rates (pmcount/calibrate.hpp): a small group measured for real. Timings vary
// from machine to machine and under load, so what is checked is what a fit must give whatever
// the speed: the group's keys with positive rates, provenance, and predictions with the fitted
// rate that straddle the measured times (one rate, least squares on the relative error: the
// fitted/measured ratios of the experiments cannot all lie on one side of 1).
#include "pmcount/calibrate.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <regex>
#include <string>

#include "pmcount/error.hpp"

namespace {

TEST(Calibrate, BruteForceGroupFitsItsRateWithProvenance) {
    pmcount::CalibrationOptions options;
    options.quick = true;
    options.repeats = 1;
    options.groups = {"cpu.brute", "cpu.probe"};
    int reported = 0;
    options.on_run = [&](const pmcount::CalibrationRun& run) {
        EXPECT_TRUE(run.group == "cpu.brute_force" || run.group == "cpu.probe") << run.group;
        ++reported;
    };
    const pmcount::Calibration c =
        pmcount::calibrate_cost_rates(options, "test machine", "calibrate_test");
    ASSERT_EQ(c.rates.size(), 1U);
    ASSERT_EQ(c.before.size(), 1U);
    const pmcount::CostRate& r = c.rates.front();
    EXPECT_EQ(r.key, "cpu.brute_force.node");
    EXPECT_EQ(c.before.front().key, r.key);
    EXPECT_EQ(r.unit, c.before.front().unit);
    EXPECT_GT(r.value, 0);
    EXPECT_TRUE(std::isfinite(r.value));
    EXPECT_EQ(r.machine, "test machine");
    EXPECT_EQ(r.command, "calibrate_test");
    EXPECT_TRUE(std::regex_match(r.date, std::regex("20[0-9]{2}-[01][0-9]-[0-3][0-9]"))) << r.date;
    EXPECT_NE(r.residuals.find("fitted/measured"), std::string::npos);
    ASSERT_EQ(c.runs.size(), 4U);
    EXPECT_EQ(reported, 4);
    bool above = false, below = false;
    for (const pmcount::CalibrationRun& run : c.runs) {
        EXPECT_GT(run.seconds, 0);
        if (run.group == "cpu.probe") {
            continue;
        }
        EXPECT_GT(run.model_s, 0);
        above = above || run.fitted_s >= run.seconds;
        below = below || run.fitted_s <= run.seconds;
    }
    EXPECT_TRUE(above && below);
    // The probe is this machine's speed, not a rate: measured, beside the references in force,
    // and the rate is stored at the reference's speed (the fitted time's rate times reference
    // over the probe read around the group), so the file holds no probe.
    ASSERT_EQ(c.probes.size(), 2U);
    ASSERT_EQ(c.probe_before.size(), 2U);
    for (std::size_t k = 0; k < 2; ++k) {
        EXPECT_EQ(c.probes[k].key, c.probe_before[k].key);
        EXPECT_GT(c.probes[k].value, 0);
    }
    EXPECT_EQ(c.probes.front().key, "cpu.probe.one_thread");
    double reference = 0;
    for (const pmcount::CostRate& rate : pmcount::cost_rates()) {
        reference = rate.key == "cpu.probe.one_thread" ? rate.value : reference;
    }
    EXPECT_EQ(c.reference_probe_ns, reference);
    EXPECT_GT(c.probe_ns, 0);
    EXPECT_NE(r.note.find("reference speed"), std::string::npos) << r.note;
    // The fitted file reads back as a host's rates file.
    const std::string text = pmcount::format_cost_rates(c.rates, "heading");
    EXPECT_NE(text.find("[cpu.brute_force.node]"), std::string::npos);
    EXPECT_EQ(text.find("[cpu.probe"), std::string::npos);
}

TEST(Calibrate, AnUnknownGroupIsRefused) {
    pmcount::CalibrationOptions options;
    options.groups = {"gpu.ryser"};
    EXPECT_THROW(pmcount::calibrate_cost_rates(options, "m", "c"), pmcount::InvalidArgument);
    // Every group the function names can be chosen, each fitting rates the model has.
    for (const auto& [name, keys] : pmcount::calibration_groups()) {
        EXPECT_FALSE(keys.empty()) << name;
        for (const std::string& key : keys) {
            bool known = false;
            for (const pmcount::CostRate& rate : pmcount::compiled_cost_rates()) {
                known = known || rate.key == key;
            }
            EXPECT_TRUE(known) << key;
        }
    }
}

}  // namespace
