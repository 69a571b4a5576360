#pragma once

#include <string>
#include <string_view>

namespace ctrl::testing {

// The repository's root directory, as CMake configured it. It is compiled into repo_path.cpp
// alone, so no other object file depends on where the checkout is: a clone at another path reuses
// the compiler cache's objects (hack/internal/ccache.sh).
const std::string& RepoRoot();

// An absolute path under the repository root, e.g. RepoPath("manifests/rbac").
std::string RepoPath(std::string_view relative);

}  // namespace ctrl::testing
