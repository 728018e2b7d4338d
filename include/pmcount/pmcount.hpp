// Everything pmcount offers, in one include.
#pragma once

#include "pmcount/approx.hpp"
#include "pmcount/big_int.hpp"
#include "pmcount/build_info.hpp"
#include "pmcount/calibrate.hpp"
#include "pmcount/cost_rates.hpp"
#include "pmcount/count.hpp"
#include "pmcount/decomposition.hpp"
#include "pmcount/distributed.hpp"
#include "pmcount/error.hpp"
#include "pmcount/generate.hpp"
#include "pmcount/graph.hpp"
#include "pmcount/io.hpp"
#include "pmcount/matrix.hpp"
#include "pmcount/structure.hpp"
#include "pmcount/types.hpp"
#include "pmcount/version.hpp"
