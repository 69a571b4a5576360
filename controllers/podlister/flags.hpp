#pragma once

#include <chrono>
#include <cstdint>
#include <string>

#include "ctrl/core/status_or.hpp"
#include "ctrl/log/log_flags.hpp"

namespace ctrl::podlister {

// How the pods are printed (-o / --output).
enum class OutputFormat { kTable, kJson };

// The podlister command line. Every field has the default the program uses.
struct Flags {
    // --kubeconfig: that file alone. Default "": $KUBECONFIG, in-cluster, ~/.kube/config
    // (rest::LoadConfig's order).
    std::string kubeconfig{};
    // --context: the kubeconfig context. Default "": current-context.
    std::string context{};
    // --chunk-size: pods per LIST page (kubectl's --chunk-size). Must be > 0.
    int64_t chunk_size = 500;
    // -o / --output: "table" or "json".
    OutputFormat output = OutputFormat::kTable;
    // --request-timeout: how long one request may take, connecting included. Must be > 0.
    std::chrono::milliseconds request_timeout{std::chrono::seconds(20)};
    // --no-headers: the table without its header line.
    bool no_headers = false;
    // -h / --help.
    bool help = false;
    // -v / --v N, --zap-log-level, --log-format text|json: the runtime's log lines on stderr.
    // Default: verbosity 0, text.
    log::Options log{};
};

// Parses argv[1..]. Flags take "--flag value" or "--flag=value" (one dash works too, as with Go's
// flag package). BadRequest naming the flag for an unknown flag, a missing or malformed value, a
// chunk size or timeout that is not positive, or a stray argument.
StatusOr<Flags> ParseFlags(int argc, const char* const* argv);

// A duration as kubectl's --request-timeout takes it: "30s", "2m", "1m30s", "500ms", or a bare
// number of seconds. BadRequest for anything else or a negative value.
StatusOr<std::chrono::milliseconds> ParseDuration(std::string_view text);

// The --help text.
std::string Usage();

}  // namespace ctrl::podlister
