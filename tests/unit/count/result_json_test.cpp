// pmcount::to_json (result.hpp): the library's one JSON form of a count and of an estimate, the
// text count_matchings --json and Python's to_json() print.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>

#include "pmcount/result.hpp"

namespace {

using nlohmann::json;

pmcount::CountResult exact_count() {
    pmcount::CountResult r;
    r.kind = pmcount::ValueKind::binary;
    r.is_exact = true;
    r.exact = pmcount::BigInt::from_string("123456789012345678901234567890");
    r.value = r.exact.to_double();
    r.log10_abs = 29.09151497772613;  // as a literal: the test is of the writer
    r.sign = 1;
    r.method = "ryser";
    r.backend = "cpu";
    r.arithmetic = "modular (2 primes of 62 bits) + CRT";
    r.stats.n = 30;
    r.stats.nnz = 300;
    r.stats.threads = 2;
    r.stats.primes = 2;
    r.stats.gray_steps = 1 << 29;
    r.structure.dulmage_mendelsohn = true;
    r.structure.reductions = true;
    r.structure.matching_size = 30;
    r.structure.block_orders = {30};
    r.structure.leaves.push_back({30, 300, "ryser", "matrix 30×30", 1.5, 1.25});
    r.structure.predicted_s = 1.5;
    r.structure.plan_text = "plan\n";
    r.timings = {0.5, 1.25, 0, 0, 0, "", 1.75};
    return r;
}

TEST(ResultJson, AnExactCountIsOneCompactObjectWithSortedKeys) {
    EXPECT_EQ(
        pmcount::to_json(exact_count()),
        R"({"arithmetic":"modular (2 primes of 62 bits) + CRT","backend":"cpu",)"
        R"("error_kind":"none","escalated_from":null,"exact":true,"explain_only":false,)"
        R"("gray_steps":536870912,"kind":"binary","log10":29.09151497772613,"method":"ryser",)"
        R"("n":30,"nnz":300,"primes":2,"ranks":1,"resumed_chunks":0,"sign":1,"structure":{)"
        R"("blocks":[30],"dropped_entries":0,"dulmage_mendelsohn":true,"general":false,)"
        R"("leaves":[{"engine":"ryser","nnz":300,"order":30,"origin":"matrix 30×30",)"
        R"("predicted_s":1.5,"seconds":1.25}],"machine_speed_measured":false,)"
        R"("matching_size":30,"plan":"plan\n","predicted_s":1.5,"reductions":{"eliminated":0,)"
        R"("merged":0,"split":0},"reductions_enabled":true},"threads":2,"timings":{"count_s":1.25,)"
        R"("device_s":0.0,"preprocess_s":0.5,"total_s":1.75},)"
        R"("value":"123456789012345678901234567890"})");
}

TEST(ResultJson, FieldsAppearWhenTheyApply) {
    pmcount::CountResult r = exact_count();
    r.kind = pmcount::ValueKind::complex;
    r.is_exact = false;
    r.complex_value = {1.5, -2};
    r.mantissa = {0.75, -1};
    r.exponent2 = 1;
    r.rel_error = std::numeric_limits<double>::infinity();
    r.abs_error = 1e-15;
    r.error_kind = "estimate";
    r.device = "GPU 0";
    r.note = "a note";
    r.structure.general = true;
    r.structure.tutte_set = {3, 5};
    r.structure.tutte_odd_components = 4;
    r.structure.hall_rows = {1};
    r.structure.hall_cols = {2};
    r.timings.kernel_cache = "disk";
    r.timings.compile_s = 0.25;
    const json j = json::parse(pmcount::to_json(r));
    EXPECT_EQ(j["value"], "1.5-2i");
    EXPECT_EQ(j["value_re"], 1.5);
    EXPECT_EQ(j["value_im"], -2.0);
    EXPECT_TRUE(j["rel_error"].is_null());  // JSON has no infinity
    EXPECT_EQ(j["abs_error"], 1e-15);
    EXPECT_EQ(j["device"], "GPU 0");
    EXPECT_EQ(j["note"], "a note");
    EXPECT_EQ(j["structure"]["tutte_set"], json({{"vertices", {3, 5}}, {"odd_components", 4}}));
    EXPECT_EQ(j["structure"]["hall_violator"], json({{"rows", {1}}, {"neighbours", {2}}}));
    EXPECT_EQ(j["timings"]["kernel_cache"], "disk");
    EXPECT_EQ(j["timings"]["compile_s"], 0.25);
    EXPECT_EQ(j["timings"]["codegen_s"], 0.0);
    // A plan without a count has no value.
    r.explained_only = true;
    const json plan = json::parse(pmcount::to_json(r));
    for (const char* key : {"value", "exact", "log10", "sign", "value_re", "rel_error"}) {
        EXPECT_FALSE(plan.contains(key)) << key;
    }
    EXPECT_EQ(plan["explain_only"], true);
    EXPECT_FALSE(json::parse(pmcount::to_json(exact_count()))["timings"].contains("compile_s"));
}

TEST(ResultJson, AnEstimateCarriesItsIntervalAndHowItStopped) {
    pmcount::EstimateResult r;
    r.estimator = "scaling+";
    r.layout = "sparse";
    r.backend = "cpu";
    r.log10_value = 400;
    r.value = std::numeric_limits<double>::infinity();
    r.rel_std_error = 0.01;
    r.log10_ci_low = 399.99;
    r.log10_ci_high = 400.01;
    r.samples = 4096;
    r.particles = 256;
    r.populations = 16;
    r.stopped = pmcount::StopReason::rel_error;
    r.n = 2048;
    r.seconds = 2;
    r.sample_seconds = 1.5;
    const json j = json::parse(pmcount::to_json(r));
    EXPECT_FALSE(j.contains("value"));  // beyond a double: log10_value says it
    EXPECT_EQ(j["log10_value"], 400.0);
    EXPECT_EQ(j["populations"], 16);
    EXPECT_EQ(j["stopped"], "rel_error");
    EXPECT_EQ(j["timings"], json({{"estimate_s", 2.0}, {"sample_s", 1.5}}));
    EXPECT_FALSE(j.contains("device") || j.contains("note"));
    r.particles = 1;
    r.log10_value = -std::numeric_limits<double>::infinity();
    r.value = 0;
    const json zero = json::parse(pmcount::to_json(r));
    EXPECT_FALSE(zero.contains("populations"));
    EXPECT_TRUE(zero["log10_value"].is_null());
    EXPECT_EQ(zero["value"], 0.0);
}

}  // namespace
