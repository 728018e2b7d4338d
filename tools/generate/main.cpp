// pmcount-gen: writes a generated graph (pmcount/generate.hpp) as an edge list with a
// `# bipartite L R` header (a general graph: `# undirected N`), or as a Matrix Market pattern
// matrix (a general graph's adjacency, symmetric).
//
// Exit codes: 0 ok, 1 usage, 2 malformed spec or invalid parameters, 3 output failure.
#include <CLI/CLI.hpp>
#include <fstream>
#include <iostream>
#include <string>
#include <type_traits>
#include <variant>

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
General graphs (docs/lattices.md):
  tri:RxC, tri-torus:RxC        triangular lattice: (i,j) to (i,j+1), (i+1,j), (i+1,j+1)
  hex-torus:RxC                 brick wall on the torus, R and C even
  kagome:RxC, kagome-torus:RxC  kagome lattice of R×C cells of three sites
  cubic:LxMxN, cubic-torus:LxMxN
  fcc:LxMxN, fcc-torus:LxMxN    face-centred cubic, 4 sites per conventional cell
  regular-general:N,D[,SEED]    random D-regular graph on N vertices
SEED defaults to 1; a seed gives the same graph on every platform.)";

}  // namespace

int main(int argc, char** argv) {
    CLI::App app("pmcount-gen: generate a graph as an edge list or Matrix Market file");
    app.footer(kSpecs);
    std::string spec, out_path, format = "edgelist", embedding_path;
    app.add_option("spec", spec, "generator spec, e.g. grid:8x8")->required();
    app.add_option("-o,--output", out_path, "output file (default: standard output)");
    app.add_option("--format", format, "edgelist or mtx")
        ->check(CLI::IsMember({"edgelist", "mtx"}))
        ->capture_default_str();
    app.add_option("--embedding", embedding_path,
                   "also write the graph's drawing on the torus to this file, for count_matchings "
                   "--embedding (specs that carry one: torus, tri-torus, hex-torus, kagome-torus)");
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        return app.exit(e) == 0 ? kOk : kUsage;
    }
    pmcount::Input graph;
    try {
        graph = pmcount::generated_input(spec);
    } catch (const pmcount::Error& e) {
        std::cerr << "pmcount-gen: " << e.what() << "\n";
        return kInputError;
    }
    if (!embedding_path.empty()) {
        if (!graph.embedding) {
            std::cerr << "pmcount-gen: " << spec << ": this graph is not drawn on a surface "
                      << "(the drawn specs: torus, tri-torus, hex-torus, kagome-torus)\n";
            return kInputError;
        }
        std::ofstream drawing(embedding_path);
        pmcount::write_embedding(drawing, *graph.embedding);
        drawing.flush();
        if (!drawing) {
            std::cerr << "pmcount-gen: cannot write " << embedding_path << "\n";
            return kOutputError;
        }
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
    std::visit(
        [&](const auto& g) {
            using G = std::decay_t<decltype(g)>;
            if constexpr (std::is_same_v<G, pmcount::BipartiteGraph> ||
                          std::is_same_v<G, pmcount::UndirectedGraph>) {
                if (format == "mtx") {
                    pmcount::write_matrix_market(out, g);
                } else {
                    pmcount::write_edge_list(out, g);
                }
            }
        },
        graph.data);
    out.flush();
    if (!out) {
        std::cerr << "pmcount-gen: writing failed\n";
        return kOutputError;
    }
    return kOk;
}
