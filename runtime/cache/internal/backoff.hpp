#pragma once

#include <chrono>
#include <random>

namespace ctrl::cache::internal {

// Waits between failed attempts (client-go's reflector backoff): initial, doubling up to max, each
// stretched by a random 0-100% (jitter) so that many informers failing together do not retry in
// step. Reset after a success. Not thread-safe.
class Backoff {
  public:
    Backoff(std::chrono::milliseconds initial, std::chrono::milliseconds max);

    // The wait before the next attempt; each call doubles the base.
    std::chrono::milliseconds Next();
    void Reset() { failures_ = 0; }
    int Failures() const { return failures_; }

  private:
    std::chrono::milliseconds initial_;
    std::chrono::milliseconds max_;
    int failures_ = 0;
    std::mt19937_64 random_;
};

}  // namespace ctrl::cache::internal
