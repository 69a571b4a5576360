#include "ctrl/rest/internal/kubeconfig_env.hpp"

#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>
#include <vector>

namespace ctrl::rest::internal {

std::optional<std::string> GetEnv(const Environment& environment, const std::string& name) {
    if (environment) {
        auto it = environment->find(name);
        if (it == environment->end())
            return std::nullopt;
        return it->second;
    }
    const char* value = std::getenv(name.c_str());
    if (value == nullptr)
        return std::nullopt;
    return std::string(value);
}

std::string HomeDir(const Environment& environment) {
    if (auto home = GetEnv(environment, "HOME"))
        return *home;
    long size = sysconf(_SC_GETPW_R_SIZE_MAX);
    std::vector<char> buffer(size > 0 ? static_cast<std::size_t>(size) : 16384);
    passwd entry{};
    passwd* found = nullptr;
    if (getpwuid_r(getuid(), &entry, buffer.data(), buffer.size(), &found) != 0 || found == nullptr ||
        found->pw_dir == nullptr)
        return "";
    return found->pw_dir;
}

StatusOr<std::string> ReadWholeFile(const std::string& path) {
    struct stat info {};
    if (stat(path.c_str(), &info) != 0) {
        const int error = errno;
        std::string message = path + ": " + std::strerror(error);
        if (error == ENOENT || error == ENOTDIR)
            return NotFoundError(std::move(message));
        return BadRequestError(std::move(message));
    }
    if (S_ISDIR(info.st_mode))
        return BadRequestError(path + ": is a directory");
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        const int error = errno;
        return BadRequestError(path + ": " + std::strerror(error != 0 ? error : EIO));
    }
    std::ostringstream contents;
    contents << in.rdbuf();
    if (in.bad())
        return BadRequestError(path + ": read error");
    return std::move(contents).str();
}

std::string ResolvePath(const std::string& path, const std::string& base_dir) {
    if (path.empty() || path.front() == '/')
        return path;
    std::filesystem::path base(base_dir);
    std::error_code error;
    if (!base.is_absolute()) {
        std::filesystem::path absolute = std::filesystem::absolute(base, error);
        if (!error)
            base = absolute;
    }
    std::string joined = (base / path).lexically_normal().string();
    while (joined.size() > 1 && joined.back() == '/')
        joined.pop_back();
    return joined;
}

std::string DirectoryOf(const std::string& file) {
    std::filesystem::path path(file);
    std::error_code error;
    std::filesystem::path absolute = std::filesystem::absolute(path, error);
    if (error)
        absolute = path;
    return absolute.lexically_normal().parent_path().string();
}

std::string_view TrimSpace(std::string_view text) {
    constexpr std::string_view kSpace = " \t\r\n\v\f";
    const std::size_t begin = text.find_first_not_of(kSpace);
    if (begin == std::string_view::npos)
        return {};
    const std::size_t end = text.find_last_not_of(kSpace);
    return text.substr(begin, end - begin + 1);
}

}  // namespace ctrl::rest::internal
