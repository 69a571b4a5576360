#pragma once

// Boost 1.74's awaitable.hpp needs <utility> first: task.hpp includes it in that order.
#include "ctrl/core/task.hpp"

#include <atomic>
#include <chrono>
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "ctrl/rest/internal/beast_connection.hpp"
#include "ctrl/rest/internal/beast_watchdog.hpp"
#include "ctrl/rest/transport.hpp"

namespace ctrl::rest::internal {

// A response body read as it arrives (a watch), on a connection that nothing else uses and that
// is never reused. Nothing is read from the socket until ReadSome asks (backpressure). Between
// two bytes at most idle_timeout may pass (zero: no limit). ReadSome must not be called again
// before the previous call finished; Close may be called from any thread at any time.
class BeastBodyStream final : public BodyStream {
  public:
    // `parser` has read the response header. `description` names the stream in messages:
    // "watch stream from https://127.0.0.1:6443/api/v1/pods".
    BeastBodyStream(std::shared_ptr<BeastConnection> connection, std::unique_ptr<StreamResponseParser> parser,
                    std::string description, std::chrono::milliseconds idle_timeout);
    ~BeastBodyStream() override;

    int StatusCode() const override { return status_code_; }
    const std::vector<Header>& Headers() const override { return headers_; }
    Task<StatusOr<std::size_t>> ReadSome(Context ctx, char* data, std::size_t size) override;
    void Close() override;

  private:
    Task<StatusOr<std::size_t>> ReadOnStrand(Context ctx, char* data, std::size_t size);
    // The idle deadline, which starts now (none without an idle timeout). The read's Context
    // deadline is not in it: it cancels the Context by itself, which the watchdog hears.
    const Deadline& NextDeadline();

    const std::shared_ptr<BeastConnection> connection_;
    const std::unique_ptr<StreamResponseParser> parser_;
    const std::string description_;
    const std::chrono::milliseconds idle_timeout_;
    const int status_code_;
    const std::vector<Header> headers_;
    std::atomic<bool> closed_ = false;
    Status failed_;  // sticky: the stream is dead after an error
    // Kept across reads, paused between them; made by the first read. Touched only on the strand.
    std::unique_ptr<BeastWatchdog> watchdog_;
    Deadline idle_deadline_;  // "idle timeout of 30s"
};

}  // namespace ctrl::rest::internal
