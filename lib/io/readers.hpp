// The two readers behind read_input() / parse_input(), and how they share value handling.
#pragma once

#include <string>
#include <string_view>

#include "pmcount/io.hpp"

namespace pmcount::io {

/// Largest side size a file may declare: the one limit of files and generators (kMaxVertices,
/// pmcount/types.hpp).
inline constexpr std::int64_t kMaxDeclaredVertices = kMaxVertices;

/// The whole of a file (`path` "-": standard input, named "<stdin>"; `name` receives the name
/// for messages). InvalidInput for a directory, a file that cannot be opened or read, a line
/// over 16 MiB or a file over half the memory.
std::string read_text(const std::string& path, std::string& name);

Input read_edge_list(std::string_view text, const std::string& file, const ReadOptions& options);
Input read_matrix_market(std::string_view text, const std::string& file,
                         const ReadOptions& options);

}  // namespace pmcount::io
