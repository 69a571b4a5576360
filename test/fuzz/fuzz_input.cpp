#include "test/fuzz/fuzz_input.hpp"

#include <cstdio>
#include <cstdlib>

namespace ctrl::fuzz {

void PropertyFailed(std::string_view what, std::string_view detail) {
    std::fprintf(stderr, "fuzz property failed: %.*s\n%.*s\n", static_cast<int>(what.size()), what.data(),
                 static_cast<int>(detail.size()), detail.data());
    std::abort();
}

}  // namespace ctrl::fuzz
