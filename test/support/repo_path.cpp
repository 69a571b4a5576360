#include "test/support/repo_path.hpp"

#ifndef CTRL_REPO_ROOT
#error "CTRL_REPO_ROOT must name the repository root (test/support/CMakeLists.txt defines it for this file)"
#endif

namespace ctrl::testing {

const std::string& RepoRoot() {
    static const std::string root = CTRL_REPO_ROOT;
    return root;
}

std::string RepoPath(std::string_view relative) {
    return RepoRoot() + "/" + std::string(relative);
}

}  // namespace ctrl::testing
