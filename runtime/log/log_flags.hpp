#pragma once

#include <iosfwd>
#include <string>
#include <string_view>

#include "ctrl/core/status_or.hpp"

namespace ctrl::log {

// The lines a program writes and how (the logging flags). Every field says its default.
struct Options {
    // V(n) lines with n <= verbosity are written; -1 keeps only Error lines. Default 0: Info and Error.
    int verbosity = 0;
    // Text (klog-like) or JSON lines (zap's production encoder). Default text.
    enum class Format { kText, kJson } format = Format::kText;
};

// Makes options the process's: SetVerbosity and a sink of the format writing to out (stderr by
// default; out must outlive the sink, see SetSink(nullptr)).
void Configure(const Options& options);
void Configure(const Options& options, std::ostream& out);

// Whether name (without its dashes) is a logging flag:
//   -v N, --v=N                       verbosity N (klog's flag)
//   --zap-log-level=debug|info|error|N  controller-runtime's: debug is 1, info 0, error -1, N is N
//   --log-format=text|json (also --zap-encoder=console|json)
bool IsLogFlag(std::string_view name);
// Sets the option flag `name` names from value. BadRequest naming the flag for a bad value or an
// unknown flag.
Status ApplyLogFlag(Options& options, std::string_view name, std::string_view value);
// Takes the logging flags ("-v 4", "--v=4", "--log-format json", ...) out of argv[1..argc) and
// returns what they say; every other argument stays, in order (argc is updated). BadRequest for a
// bad value or a flag without one.
StatusOr<Options> ParseLogFlags(int& argc, char** argv);

// Help lines for the logging flags, for a program's --help.
std::string LogFlagsUsage();

}  // namespace ctrl::log
