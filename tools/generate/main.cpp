// pmcount-gen: writes a generated graph (pmcount/generate.hpp) as an edge list with a
// `# bipartite L R` header, or as a Matrix Market pattern matrix.
//
// Exit codes: 0 ok, 1 usage, 2 malformed spec or invalid parameters, 3 output failure.
#include <CLI/CLI.hpp>
#include <fstream>
#include <iostream>
#include <string>

#include "pmcount/error.hpp"
#include "pmcount/generate.hpp"
#include "pmcount/io.hpp"

namespace {

enum ExitCode { kOk = 0, kUsage = 1, kInputError = 2, kOutputError = 3 };

constexpr const char* kSpecs = R"(Specs:
  grid:RxC            R×C grid (domino tilings)
  torus:RxC           R×C torus, R and C even
  hexagon:A,B,C       honeycomb dual of the A,B,C hexagon (lozenge tilings)
  aztec:K             Aztec diamond of order K
  complete:N          K_{N,N}
  random:N,P[,SEED]   G(N,N,P)
  regular:N,D[,SEED]  random D-regular bipartite graph on N+N vertices
SEED defaults to 1; a seed gives the same graph on every platform.)";

}  // namespace

int main(int argc, char** argv) {
    CLI::App app("pmcount-gen: generate a bipartite graph as an edge list or Matrix Market file");
    app.footer(kSpecs);
    std::string spec, out_path, format = "edgelist";
    app.add_option("spec", spec, "generator spec, e.g. grid:8x8")->required();
    app.add_option("-o,--output", out_path, "output file (default: standard output)");
    app.add_option("--format", format, "edgelist or mtx")
        ->check(CLI::IsMember({"edgelist", "mtx"}))
        ->capture_default_str();
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        return app.exit(e) == 0 ? kOk : kUsage;
    }
    pmcount::BipartiteGraph graph;
    try {
        graph = pmcount::generate_graph(spec);
    } catch (const pmcount::Error& e) {
        std::cerr << "pmcount-gen: " << e.what() << "\n";
        return kInputError;
    }
    std::ofstream file;
    if (!out_path.empty()) {
        file.open(out_path);
        if (!file) {
            std::cerr << "pmcount-gen: cannot write " << out_path << "\n";
            return kOutputError;
        }
    }
    std::ostream& out = out_path.empty() ? std::cout : file;
    if (format == "mtx") {
        pmcount::write_matrix_market(out, graph);
    } else {
        pmcount::write_edge_list(out, graph);
    }
    out.flush();
    if (!out) {
        std::cerr << "pmcount-gen: writing failed\n";
        return kOutputError;
    }
    return kOk;
}
