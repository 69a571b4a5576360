#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "ctrl/core/status_or.hpp"

namespace ctrl::envtest::internal {

// The manifest files a path names: itself, or a directory's *.yaml, *.yml and *.json files in name
// order (not recursively). A missing path is NotFound ("<what> path ... does not exist") unless
// error_if_missing is false (then none).
StatusOr<std::vector<std::filesystem::path>> ManifestFiles(const std::string& path, bool error_if_missing,
                                                           std::string_view what);

}  // namespace ctrl::envtest::internal
