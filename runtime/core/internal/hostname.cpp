#include "ctrl/core/internal/hostname.hpp"

#include <unistd.h>

#include <array>

namespace ctrl::internal {

std::string Hostname() {
    std::array<char, 256> name{};
    if (gethostname(name.data(), name.size() - 1) != 0)
        return "";
    return std::string(name.data());
}

}  // namespace ctrl::internal
