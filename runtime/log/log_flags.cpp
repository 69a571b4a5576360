#include "ctrl/log/log_flags.hpp"

#include <charconv>
#include <iostream>
#include <optional>

#include "ctrl/log/log.hpp"

namespace ctrl::log {
namespace {

StatusOr<int> ParseLevel(std::string_view flag, std::string_view text) {
    int level = 0;
    auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), level);
    if (text.empty() || error != std::errc() || end != text.data() + text.size() || level < 0)
        return BadRequestError("flag --" + std::string(flag) + ": \"" + std::string(text) +
                               "\" is not a verbosity (a number >= 0)");
    return level;
}

StatusOr<int> ParseZapLevel(std::string_view text) {
    if (text == "debug")
        return 1;
    if (text == "info")
        return 0;
    if (text == "error")
        return -1;
    StatusOr<int> level = ParseLevel("zap-log-level", text);
    if (!level.Ok())
        return BadRequestError("flag --zap-log-level: \"" + std::string(text) +
                               "\" is not a level (debug, info, error or a number >= 0)");
    return level;
}

// "--v=4" -> {"v", "4"}; "-v" -> {"v", nullopt}; nullopt for "-" and non-flags.
std::optional<std::pair<std::string_view, std::optional<std::string_view>>> Split(std::string_view arg) {
    if (arg.size() < 2 || arg.front() != '-' || arg == "--")
        return std::nullopt;
    arg.remove_prefix(arg.starts_with("--") ? 2 : 1);
    const std::size_t eq = arg.find('=');
    if (eq == std::string_view::npos)
        return std::pair{arg, std::optional<std::string_view>()};
    return std::pair{arg.substr(0, eq), std::optional<std::string_view>(arg.substr(eq + 1))};
}

}  // namespace

void Configure(const Options& options) {
    Configure(options, std::cerr);
}

void Configure(const Options& options, std::ostream& out) {
    SetVerbosity(options.verbosity);
    SetSink(options.format == Options::Format::kJson ? NewJsonSink(out) : NewTextSink(out));
}

bool IsLogFlag(std::string_view name) {
    return name == "v" || name == "zap-log-level" || name == "log-format" || name == "zap-encoder";
}

Status ApplyLogFlag(Options& options, std::string_view name, std::string_view value) {
    if (name == "v") {
        CTRL_ASSIGN_OR_RETURN(options.verbosity, ParseLevel("v", value));
    } else if (name == "zap-log-level") {
        CTRL_ASSIGN_OR_RETURN(options.verbosity, ParseZapLevel(value));
    } else if (name == "log-format" || name == "zap-encoder") {
        if (value == "text" || value == "console") {
            options.format = Options::Format::kText;
        } else if (value == "json") {
            options.format = Options::Format::kJson;
        } else {
            return BadRequestError("flag --" + std::string(name) + ": unknown format \"" + std::string(value) +
                                   "\" (want text or json)");
        }
    } else {
        return BadRequestError("--" + std::string(name) + " is not a logging flag");
    }
    return OkStatus();
}

StatusOr<Options> ParseLogFlags(int& argc, char** argv) {
    Options options;
    int kept = 1;
    for (int i = 1; i < argc; ++i) {
        if (std::string_view(argv[i]) == "--") {  // what follows are arguments, kept as they are
            while (i < argc)
                argv[kept++] = argv[i++];
            break;
        }
        const auto flag = Split(argv[i]);
        if (!flag || !IsLogFlag(flag->first)) {
            argv[kept++] = argv[i];
            continue;
        }
        std::string_view value;
        if (flag->second) {
            value = *flag->second;
        } else if (i + 1 < argc) {
            value = argv[++i];
        } else {
            return BadRequestError("flag " + std::string(argv[i]) + " needs a value");
        }
        CTRL_RETURN_IF_ERROR(ApplyLogFlag(options, flag->first, value));
    }
    argc = kept;
    return options;
}

std::string LogFlagsUsage() {
    return R"(  -v, --v N                lines up to verbosity N: 0 (default) info, 1-2 lifecycle, 4 per
                           watch and list page, 6 per request, 7 request headers (secrets redacted)
  --zap-log-level L        the same as controller-runtime spells it: debug (1), info (0), error, or N
  --log-format F           text (default, klog-like) or json (one object a line, as zap writes)
)";
}

}  // namespace ctrl::log
