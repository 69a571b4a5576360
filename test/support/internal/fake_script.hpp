#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

#include "test/support/fake_response.hpp"

namespace ctrl::testing::internal {

// The fake API server's script and records, shared by its connections: the routes (the latest
// matching route wins; a sequence answers its n-th request with its n-th response and repeats
// the last), every request received, and counters. Thread-safe.
class FakeScript final {
  public:
    void Add(FakeRoute route, std::vector<FakeResponse> responses);
    void Add(FakeRoute route, FakeHandler handler);
    // Removes every route and record, and zeroes the counters.
    void Reset();

    // Records the request and returns the scripted answer (a 404 Status when no route matches).
    FakeResponse Answer(const FakeRequest& request);

    // Counts an accepted connection and returns its number (1 is the first).
    int CountConnection() { return ++connections_; }
    void CountBodyBytes(std::size_t n) { body_bytes_ += n; }

    std::vector<FakeRequest> Requests() const;
    std::size_t RequestCount() const;
    int Connections() const { return connections_; }
    std::size_t BodyBytesSent() const { return body_bytes_; }
    // Waits until at least `count` requests were received; false at the timeout.
    bool WaitForRequests(std::size_t count, std::chrono::milliseconds timeout) const;

  private:
    struct Entry {
        FakeRoute route;
        std::vector<FakeResponse> responses;  // when there is no handler
        FakeHandler handler;
        std::size_t answered = 0;
    };

    mutable std::mutex mu_;
    mutable std::condition_variable received_;
    std::vector<Entry> routes_;
    std::vector<FakeRequest> requests_;
    std::atomic<int> connections_ = 0;
    std::atomic<std::size_t> body_bytes_ = 0;
};

}  // namespace ctrl::testing::internal
