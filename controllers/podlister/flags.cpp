#include "controllers/podlister/flags.hpp"

#include <charconv>
#include <optional>
#include <string_view>

namespace ctrl::podlister {
namespace {

// One command-line argument split into its flag name and inline value: "--output=json" ->
// {"output", "json"}; "-o" -> {"o", nullopt}. nullopt for an argument that is not a flag.
struct SplitFlag {
    std::string_view name;
    std::optional<std::string_view> value;
};

std::optional<SplitFlag> Split(std::string_view arg) {
    if (arg.size() < 2 || arg.front() != '-')
        return std::nullopt;
    arg.remove_prefix(arg.starts_with("--") ? 2 : 1);
    size_t eq = arg.find('=');
    if (eq == std::string_view::npos)
        return SplitFlag{arg, std::nullopt};
    return SplitFlag{arg.substr(0, eq), arg.substr(eq + 1)};
}

StatusOr<int64_t> ParsePositiveInt(std::string_view flag, std::string_view text) {
    int64_t value = 0;
    auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size())
        return BadRequestError("flag --" + std::string(flag) + ": \"" + std::string(text) + "\" is not an integer");
    if (value <= 0)
        return BadRequestError("flag --" + std::string(flag) + " must be > 0, got " + std::string(text));
    return value;
}

StatusOr<OutputFormat> ParseOutput(std::string_view text) {
    if (text == "table" || text == "wide")
        return OutputFormat::kTable;
    if (text == "json")
        return OutputFormat::kJson;
    return BadRequestError("flag --output: unknown format \"" + std::string(text) + "\" (want table or json)");
}

}  // namespace

StatusOr<std::chrono::milliseconds> ParseDuration(std::string_view text) {
    const std::string bad = "\"" + std::string(text) + "\" is not a duration (e.g. 30s, 2m, 1m30s, 500ms)";
    if (text.empty())
        return BadRequestError(bad);
    int64_t number = 0;
    auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), number);
    if (error == std::errc() && end == text.data() + text.size()) {
        if (number < 0)
            return BadRequestError(bad);
        return std::chrono::milliseconds(number * 1000);  // a bare number is seconds, as kubectl reads it
    }
    std::chrono::milliseconds total{0};
    std::string_view rest = text;
    while (!rest.empty()) {
        auto [unit_start, parse_error] = std::from_chars(rest.data(), rest.data() + rest.size(), number);
        if (parse_error != std::errc() || number < 0)
            return BadRequestError(bad);
        rest.remove_prefix(static_cast<size_t>(unit_start - rest.data()));
        if (rest.starts_with("ms")) {
            total += std::chrono::milliseconds(number);
            rest.remove_prefix(2);
        } else if (rest.starts_with("s")) {
            total += std::chrono::seconds(number);
            rest.remove_prefix(1);
        } else if (rest.starts_with("m")) {
            total += std::chrono::minutes(number);
            rest.remove_prefix(1);
        } else if (rest.starts_with("h")) {
            total += std::chrono::hours(number);
            rest.remove_prefix(1);
        } else {
            return BadRequestError(bad);
        }
    }
    return total;
}

StatusOr<Flags> ParseFlags(int argc, const char* const* argv) {
    Flags flags;
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        std::optional<SplitFlag> flag = Split(arg);
        if (!flag)
            return BadRequestError("unexpected argument \"" + std::string(arg) + "\" (see --help)");
        const std::string_view name = flag->name;
        if (name == "h" || name == "help") {
            flags.help = true;
            continue;
        }
        if (name == "no-headers") {
            flags.no_headers = flag->value.value_or("true") != "false";
            continue;
        }
        const bool takes_value = name == "kubeconfig" || name == "context" || name == "chunk-size" || name == "o" ||
                                 name == "output" || name == "request-timeout" || log::IsLogFlag(name);
        if (!takes_value)
            return BadRequestError("unknown flag \"" + std::string(arg) + "\" (see --help)");
        std::string_view value;
        if (flag->value) {
            value = *flag->value;
        } else if (i + 1 < argc) {
            value = argv[++i];
        } else {
            return BadRequestError("flag " + std::string(arg) + " needs a value");
        }
        if (log::IsLogFlag(name)) {
            CTRL_RETURN_IF_ERROR(log::ApplyLogFlag(flags.log, name, value));
        } else if (name == "kubeconfig") {
            if (value.empty())
                return BadRequestError("flag --kubeconfig needs a path");
            flags.kubeconfig = value;
        } else if (name == "context") {
            flags.context = value;
        } else if (name == "chunk-size") {
            CTRL_ASSIGN_OR_RETURN(flags.chunk_size, ParsePositiveInt("chunk-size", value));
        } else if (name == "o" || name == "output") {
            CTRL_ASSIGN_OR_RETURN(flags.output, ParseOutput(value));
        } else {
            StatusOr<std::chrono::milliseconds> timeout = ParseDuration(value);
            if (!timeout.Ok())
                return timeout.GetStatus().Annotate("flag --request-timeout");
            if (timeout->count() <= 0)
                return BadRequestError("flag --request-timeout must be > 0, got " + std::string(value));
            flags.request_timeout = *timeout;
        }
    }
    return flags;
}

std::string Usage() {
    return std::string(R"(podlister: lists every pod in every namespace, as `kubectl get pods -A` does.

Usage: podlister [flags]

  --kubeconfig PATH        the kubeconfig to use (default: $KUBECONFIG, the in-cluster service
                           account, then ~/.kube/config)
  --context NAME           the kubeconfig context (default: its current-context)
  --chunk-size N           pods per LIST request, paged with limit/continue (default 500)
  -o, --output FORMAT      table (default) or json (a v1 List, like kubectl -o json)
  --no-headers             the table without its header line
  --request-timeout D      how long one request may take, e.g. 20s, 1m (default 20s)
  -h, --help               this text
)") + log::LogFlagsUsage() +
           R"(
Prints the table (NAMESPACE NAME READY STATUS RESTARTS AGE NODE) or JSON on stdout and one
summary line on stderr. Any error prints one line, "podlister: error: ...", and exits 1.
)";
}

}  // namespace ctrl::podlister
