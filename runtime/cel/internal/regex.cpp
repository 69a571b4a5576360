#include "ctrl/cel/internal/regex.hpp"

#include <map>
#include <mutex>

namespace ctrl::cel::internal {

namespace {

StatusOr<std::shared_ptr<const std::regex>> Build(std::string_view pattern) {
    auto flags = std::regex::ECMAScript;
    if (pattern.substr(0, 4) == "(?i)") {
        flags |= std::regex::icase;
        pattern.remove_prefix(4);
    }
    try {
        return std::make_shared<const std::regex>(std::string(pattern), flags);
    } catch (const std::regex_error& error) {
        return BadRequestError(error.what());
    }
}

}  // namespace

StatusOr<std::shared_ptr<const std::regex>> CompileRegex(std::string_view pattern) {
    static std::mutex mutex;
    static std::map<std::string, StatusOr<std::shared_ptr<const std::regex>>, std::less<>> cache;
    const std::lock_guard lock(mutex);
    if (auto it = cache.find(pattern); it != cache.end())
        return it->second;
    if (cache.size() >= 4096)
        cache.clear();  // bounds a process that matches many generated patterns
    return cache.emplace(std::string(pattern), Build(pattern)).first->second;
}

StatusOr<bool> RegexSearch(std::string_view pattern, const std::string& text) {
    StatusOr<std::shared_ptr<const std::regex>> regex = CompileRegex(pattern);
    if (!regex.Ok())
        return regex.GetStatus();
    try {
        return std::regex_search(text, **regex);
    } catch (const std::regex_error& error) {  // e.g. error_complexity on a long input
        return BadRequestError(error.what());
    }
}

}  // namespace ctrl::cel::internal
