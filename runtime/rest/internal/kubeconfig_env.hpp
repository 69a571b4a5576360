#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "ctrl/core/status_or.hpp"

namespace ctrl::rest::internal {

// What the config loaders read from the machine: environment variables (the process's, or a fixed
// map a test gives instead), the home directory, and whole files.
using Environment = std::optional<std::map<std::string, std::string>>;

// The variable's value; nullopt when it is unset.
std::optional<std::string> GetEnv(const Environment& environment, const std::string& name);

// $HOME; when HOME is unset, the home directory of the current user's passwd entry (as
// controller-runtime falls back to os/user). Empty when neither is known.
std::string HomeDir(const Environment& environment);

// The whole file. NotFound when it does not exist; BadRequest when it cannot be read (a directory,
// no permission). Messages are "<path>: <reason>".
StatusOr<std::string> ReadWholeFile(const std::string& path);

// path unchanged when absolute or empty; else joined to base_dir (made absolute) and normalized, like
// Go's filepath.Join(filepath.Abs(base_dir), path).
std::string ResolvePath(const std::string& path, const std::string& base_dir);

// The absolute directory that holds file.
std::string DirectoryOf(const std::string& file);

// text without leading and trailing ASCII whitespace.
std::string_view TrimSpace(std::string_view text);

}  // namespace ctrl::rest::internal
