// An environment variable set for one scope, its previous value (or absence) restored after;
// and the check that a measurement variable refuses malformed values.
#pragma once

#include <gtest/gtest.h>
#include <stdlib.h>

#include <exception>
#include <initializer_list>
#include <string>

namespace pmcount::test {

class ScopedEnv {
public:
    ScopedEnv(const char* name, const std::string& value) : name_(name) {
        const char* old = ::getenv(name);
        had_old_ = old != nullptr;
        old_ = had_old_ ? old : "";
        ::setenv(name, value.c_str(), 1);
    }
    ~ScopedEnv() {
        if (had_old_) {
            ::setenv(name_.c_str(), old_.c_str(), 1);
        } else {
            ::unsetenv(name_.c_str());
        }
    }
    ScopedEnv(const ScopedEnv&) = delete;
    ScopedEnv& operator=(const ScopedEnv&) = delete;

private:
    std::string name_;
    std::string old_;
    bool had_old_ = false;
};

/// With environment variable `name` set to each of `values` in turn, run() must throw an error
/// whose message names the variable.
template <class Run>
void expect_refused(const char* name, std::initializer_list<const char*> values, Run run) {
    for (const char* value : values) {
        const ScopedEnv env(name, value);
        try {
            run();
            ADD_FAILURE() << name << "=" << value << " was accepted";
        } catch (const std::exception& e) {
            EXPECT_NE(std::string(e.what()).find(name), std::string::npos) << e.what();
        }
    }
}

}  // namespace pmcount::test
