#pragma once

#include <ostream>

namespace ctrl::podlister {

// The podlister program: parses the flags, finds the client config (rest::LoadConfig), lists
// every pod (ListAllPods) on an io_context run by the calling thread, and prints the table or
// JSON to out and one summary line to err. Returns the exit code: 0 on success (and for --help);
// 1 after any error, which is reported as one line "podlister: error: <what and where>" on err.
int RunPodLister(int argc, const char* const* argv, std::ostream& out, std::ostream& err);

}  // namespace ctrl::podlister
