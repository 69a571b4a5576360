#pragma once

#include <memory>
#include <regex>
#include <string>
#include <string_view>

#include "ctrl/core/status_or.hpp"

namespace ctrl::cel::internal {

// A regular expression as Kubernetes writes them (RE2, Go's regexp: an OpenAPI `pattern`, CEL's
// matches()) compiled as std::regex (ECMAScript): (?i) and (?i:...) are rewritten so that letters
// in their scope match both cases, (?P<name>...) becomes a plain group; other RE2-only syntax (other
// flags) fails to compile. Compiled once per pattern text (a process-wide cache).
// BadRequest "<why>" when std::regex cannot compile it.
StatusOr<std::shared_ptr<const std::regex>> CompileRegex(std::string_view pattern);

// Whether pattern matches somewhere in text (RE2's and CEL's partial match).
StatusOr<bool> RegexSearch(std::string_view pattern, const std::string& text);

}  // namespace ctrl::cel::internal
