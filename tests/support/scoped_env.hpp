// An environment variable set for one scope, its previous value (or absence) restored after.
#pragma once

#include <stdlib.h>

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

}  // namespace pmcount::test
