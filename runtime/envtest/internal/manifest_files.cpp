#include "ctrl/envtest/internal/manifest_files.hpp"

#include <algorithm>

namespace ctrl::envtest::internal {

namespace fs = std::filesystem;

// The manifest files a path names: itself, or a directory's YAML and JSON files in name order.
StatusOr<std::vector<fs::path>> ManifestFiles(const std::string& path, bool error_if_missing, std::string_view what) {
    std::error_code ec;
    if (!fs::exists(path, ec)) {
        if (!error_if_missing)
            return std::vector<fs::path>{};
        return NotFoundError(std::string(what) + " path " + path + " does not exist");
    }
    if (!fs::is_directory(path, ec))
        return std::vector<fs::path>{path};
    std::vector<fs::path> files;
    for (const auto& entry : fs::directory_iterator(path, ec)) {
        const std::string ext = entry.path().extension().string();
        if (entry.is_regular_file() && (ext == ".yaml" || ext == ".yml" || ext == ".json"))
            files.push_back(entry.path());
    }
    if (ec)
        return InternalError("reading directory " + path + ": " + ec.message());
    std::sort(files.begin(), files.end());
    return files;
}

}  // namespace ctrl::envtest::internal
