// An run::EngineRun with a given thread count, for the engine tests.
#pragma once

#include "run/chunked_run.hpp"

namespace pmcount::test {

inline run::EngineRun threads(int t) {
    run::EngineRun run;
    run.threads = t;
    return run;
}

}  // namespace pmcount::test
