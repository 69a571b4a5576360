#pragma once

#include <memory>
#include <mutex>
#include <sstream>
#include <string>
#include <vector>

#include "ctrl/log/log.hpp"

namespace ctrl::testing {

// Captures every log line of the process while it lives: installs itself as the process sink at
// the given verbosity and restores the default sink and verbosity 0 when destroyed. Each record is
// kept rendered both as a text line and as a JSON line, so a search covers what either format
// would print. Thread-safe.
class LogCapture final {
  public:
    explicit LogCapture(int verbosity);
    ~LogCapture();
    LogCapture(const LogCapture&) = delete;
    LogCapture& operator=(const LogCapture&) = delete;

    // Every line so far (text lines, then the same records as JSON lines).
    std::vector<std::string> Lines() const;
    // The lines that contain needle.
    std::vector<std::string> LinesWith(const std::string& needle) const;

  private:
    class Sink;
    std::shared_ptr<Sink> sink_;
};

}  // namespace ctrl::testing
