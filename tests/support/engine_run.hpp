// An EngineRun with a given thread count, for the engine tests.
#pragma once

#include "exact/chunked_run.hpp"

namespace pmcount::test {

inline exact::EngineRun threads(int t) {
    exact::EngineRun run;
    run.threads = t;
    return run;
}

}  // namespace pmcount::test
