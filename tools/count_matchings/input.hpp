// count_matchings: the input named on the command line, and what is counted of it.
#pragma once

#include <string>

#include "pmcount/pmcount.hpp"

namespace pmcount::tools {

/// The file (or standard input, '-') or the generator spec `path` names (a file of that name
/// takes precedence), with the embedding file when one is named.
Input read_named_input(const std::string& path, const ReadOptions& options,
                       const std::string& embedding_path);

/// "perfect matchings", "cycle covers", "permanent" or "hafnian": `mode` (counting_mode()),
/// or when it is empty what the input is.
std::string what_is_counted(const Input& input, const std::string& mode);

/// count, except that --permanent of a pattern with unequal sides (given by the file,
/// not 2-coloured) counts its 0-1 matrix's (rectangular) permanent: read as a graph it would
/// count perfect matchings, 0.
CountResult count_as_asked(const Input& input, const std::string& mode,
                           const CountOptions& options);

/// --dot: the Dulmage–Mendelsohn decomposition of the input's pattern as Graphviz DOT.
void write_dot_file(const std::string& path, const Input& input);

}  // namespace pmcount::tools
