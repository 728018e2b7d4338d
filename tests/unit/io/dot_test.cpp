// write_dot: a Dulmage–Mendelsohn decomposition drawn as a Graphviz graph.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "pmcount/io.hpp"
#include "pmcount/structure.hpp"

namespace pmcount {
namespace {

TEST(Dot, DrawsBlocksAndDroppedEdges) {
    // Two 2×2 blocks joined by one edge that no perfect matching uses.
    const BipartiteGraph g(
        4, 4, {{0, 0}, {0, 1}, {1, 0}, {1, 1}, {1, 2}, {2, 2}, {2, 3}, {3, 2}, {3, 3}});
    const DMDecomposition dm = dulmage_mendelsohn(g);
    EXPECT_EQ(dm.num_blocks(), 2);
    EXPECT_EQ(dm.dropped_edges, 1);
    std::ostringstream dot;
    write_dot(dot, g, dm);
    const std::string text = dot.str();
    EXPECT_NE(text.find("cluster_block0"), std::string::npos);
    EXPECT_NE(text.find("cluster_block1"), std::string::npos);
    EXPECT_NE(text.find("r1 -- c2 [style=dashed"), std::string::npos) << text;
    EXPECT_EQ(text.rfind("graph dulmage_mendelsohn {", 0), 0u);
}

}  // namespace
}  // namespace pmcount
