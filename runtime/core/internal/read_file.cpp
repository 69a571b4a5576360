#include "ctrl/core/internal/read_file.hpp"

#include <fstream>
#include <sstream>

namespace ctrl::internal {

StatusOr<std::string> ReadFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return NotFoundError("cannot read " + path);
    std::ostringstream content;
    content << in.rdbuf();
    return std::move(content).str();
}

}  // namespace ctrl::internal
