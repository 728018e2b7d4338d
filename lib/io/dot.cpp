// write_dot: the Dulmage–Mendelsohn decomposition as a Graphviz graph. Left vertices are boxes
// "r<i>", right vertices ellipses "c<j>"; each fine block is a cluster; the coarse horizontal and
// vertical parts are clusters of their own; matched edges are bold, edges that join different
// blocks (and so lie in no perfect matching) are dashed. The writer reads the decomposition
// (pmcount/decomposition.hpp) as the other writers read a graph or a matrix, without the
// structure module that computes it.
#include <ostream>
#include <string>

#include "pmcount/decomposition.hpp"
#include "pmcount/io.hpp"

namespace pmcount {

void write_dot(std::ostream& out, const BipartiteGraph& g, const DMDecomposition& dm) {
    out << "graph dulmage_mendelsohn {\n"
        << "  graph [rankdir=LR, fontsize=10];\n"
        << "  node [fontsize=9, height=0.2];\n";
    auto cluster = [&](const std::string& name, const std::string& label, vertex_t row_begin,
                       vertex_t row_end, vertex_t col_begin, vertex_t col_end) {
        if (row_begin == row_end && col_begin == col_end) {
            return;
        }
        out << "  subgraph cluster_" << name << " {\n    label=\"" << label << "\";\n";
        for (vertex_t k = row_begin; k < row_end; ++k) {
            out << "    r" << dm.row_order[static_cast<std::size_t>(k)] << " [shape=box];\n";
        }
        for (vertex_t k = col_begin; k < col_end; ++k) {
            out << "    c" << dm.col_order[static_cast<std::size_t>(k)] << " [shape=ellipse];\n";
        }
        out << "  }\n";
    };
    cluster("horizontal", "horizontal (underdetermined)", dm.rr[0], dm.rr[1], dm.cc[0], dm.cc[1]);
    for (int b = 0; b < dm.num_blocks(); ++b) {
        const auto k = static_cast<std::size_t>(b);
        cluster("block" + std::to_string(b),
                "block " + std::to_string(b) + " (" +
                    std::to_string(dm.row_block_start[k + 1] - dm.row_block_start[k]) + "×" +
                    std::to_string(dm.col_block_start[k + 1] - dm.col_block_start[k]) + ")",
                dm.row_block_start[k], dm.row_block_start[k + 1], dm.col_block_start[k],
                dm.col_block_start[k + 1]);
    }
    cluster("vertical", "vertical (overdetermined)", dm.rr[2], dm.rr[3], dm.cc[2], dm.cc[3]);
    for (vertex_t u = 0; u < g.n_left(); ++u) {
        const int bu = dm.row_block[static_cast<std::size_t>(u)];
        for (const vertex_t v : g.right_neighbours(u)) {
            const int bv = dm.col_block[static_cast<std::size_t>(v)];
            out << "  r" << u << " -- c" << v;
            if (dm.matching.row_match[static_cast<std::size_t>(u)] == v) {
                out << " [style=bold]";
            } else if (bu >= 0 && bv >= 0 && bu != bv) {
                out << " [style=dashed, color=gray50]";
            }
            out << ";\n";
        }
    }
    out << "}\n";
}

}  // namespace pmcount
