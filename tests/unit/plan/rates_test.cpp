// The cost model's rates as data (lib/plan/rates/*.txt, compiled in; PMCOUNT_RATES for a host's
// own): the compiled file is complete and well-formed, a rates file round-trips through
// format_cost_rates, every malformed file is refused naming its line, and the model reads the
// rates in force (ScopedRates) at the model's own speed (ModelSpeedOnly).
#include "plan/rates.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "plan/cost_model.hpp"
#include "pmcount/cost_rates.hpp"
#include "pmcount/error.hpp"

namespace pmcount::plan {
namespace {

TEST(Rates, TheCompiledFileHasEveryKeyOnceWithItsProvenance) {
    const std::vector<CostRate> all = compiled_cost_rates();
    EXPECT_GE(all.size(), 80U);
    std::set<std::string> keys;
    for (const CostRate& r : all) {
        EXPECT_TRUE(keys.insert(r.key).second) << r.key;
        EXPECT_TRUE(std::isfinite(r.value) && r.value >= 0) << r.key;
        EXPECT_FALSE(r.unit.empty()) << r.key;
        EXPECT_FALSE(r.machine.empty()) << r.key;
        EXPECT_FALSE(r.date.empty()) << r.key;
        EXPECT_FALSE(r.command.empty()) << r.key;
    }
    // Without PMCOUNT_RATES (ctest does not set it) the rates in force are the compiled ones.
    const std::vector<CostRate> in_force = cost_rates();
    ASSERT_EQ(in_force.size(), all.size());
    for (std::size_t k = 0; k < all.size(); ++k) {
        EXPECT_EQ(in_force[k].key, all[k].key);
        EXPECT_EQ(in_force[k].value, all[k].value);
    }
}

TEST(Rates, AFileRoundTripsThroughFormatAndParse) {
    std::vector<CostRate> some = compiled_cost_rates();
    some.resize(5);
    some[1].value = 0.1 + 0.2;  // 17 digits keep every double
    some[2].note = "two\nlines";
    const std::string text = format_cost_rates(some, "a heading\nof two lines");
    EXPECT_EQ(text.rfind("# a heading\n# of two lines\n", 0), 0U) << text;
    const std::vector<CostRate> back = parse_cost_rates(text, "some.txt", false);
    ASSERT_EQ(back.size(), some.size());
    for (std::size_t k = 0; k < some.size(); ++k) {
        EXPECT_EQ(back[k].key, some[k].key);
        EXPECT_EQ(back[k].value, some[k].value);
        EXPECT_EQ(back[k].unit, some[k].unit);
        EXPECT_EQ(back[k].command, some[k].command);
    }
    EXPECT_EQ(back[2].note, "two lines");
    // A partial file is not a complete one.
    EXPECT_THROW(parse_cost_rates(text, "some.txt", true), InvalidInput);
}

/// The message of the InvalidInput that parsing `text` throws ("" when it parses).
std::string error_of(const std::string& text) {
    try {
        parse_cost_rates(text, "host.txt", false);
    } catch (const InvalidInput& e) {
        return e.what();
    }
    return "";
}

TEST(Rates, AMalformedFileIsRefusedNamingTheLine) {
    const std::string good = "[cpu.ryser.row_double]\nvalue = 0.2\nunit = ns/row\n";
    EXPECT_EQ(error_of(good), "");
    EXPECT_EQ(error_of("# only a comment\n\n"), "");
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"[cpu.ryser.row_double\nvalue = 1\n", "host.txt:1: a record starts with [key]"},
        {"[no.such.rate]\nvalue = 1\n", "host.txt:1: unknown rate"},
        {good + "[cpu.ryser.row_double]\nvalue = 1\n",
         "host.txt:4: rate 'cpu.ryser.row_double' "
         "given twice (first at line 1)"},
        {"value = 1\n", "host.txt:1: field 'value' before the first [key]"},
        {"[cpu.ryser.row_double]\nunit = ns/row\n",
         "host.txt:1: rate 'cpu.ryser.row_double' "
         "has no value"},
        {"[cpu.ryser.row_double]\nvalue = fast\n", "host.txt:2:"},
        {"[cpu.ryser.row_double]\nvalue = -1\n",
         "host.txt:2: rate 'cpu.ryser.row_double' is "
         "negative"},
        {"[cpu.ryser.row_double]\nvalue = 1\nvalue = 2\n",
         "host.txt:3: field 'value' given "
         "twice"},
        {"[cpu.ryser.row_double]\nvalue = 1\nunit = s\n",
         "host.txt:3: unit 's' for rate "
         "'cpu.ryser.row_double', the model's "
         "is 'ns/row'"},
        {"[cpu.ryser.row_double]\nvalue = 1\ncolour = red\n", "host.txt:3: unknown field"},
        {"[cpu.ryser.row_double]\nvalue 1\n", "host.txt:2: expected '[key]', 'field = text'"},
    };
    for (const auto& [text, message] : cases) {
        EXPECT_EQ(error_of(text).rfind(message, 0), 0U) << text << "\ngave: " << error_of(text);
    }
}

CostRate in_force_rate(const std::string& key) {
    for (const CostRate& r : cost_rates()) {
        if (r.key == key) {
            return r;
        }
    }
    ADD_FAILURE() << "no rate " << key;
    return {};
}

TEST(Rates, TheModelReadsTheRatesInForceAtItsOwnSpeed) {
    LeafFacts f;
    f.order = 30;
    f.arithmetic = Arithmetic::double_precision;
    f.threads = 1;
    const ModelSpeedOnly model_only;  // a probe would scale both predictions alike, but slowly
    const double before = ryser_seconds(f);
    CostRate doubled = in_force_rate("cpu.ryser.row_double");
    const double row = doubled.value;
    doubled.value *= 2;
    {
        const ScopedRates scoped(with_records(rates(), {doubled}));
        EXPECT_EQ(rates().row_double_ns, 2 * row);
        // 2^29 steps of step_base + row·32: the rows' share doubles.
        const double step_base = rates().step_base_ns;
        const double steps = std::ldexp(1e-9, 29);
        EXPECT_NEAR(ryser_seconds(f) - before, steps * row * 32, 1e-9 * before);
        EXPECT_GT(step_base, 0);
    }
    EXPECT_EQ(rates().row_double_ns, row);
    EXPECT_EQ(ryser_seconds(f), before);
}

}  // namespace
}  // namespace pmcount::plan
