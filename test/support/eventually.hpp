#pragma once

// Waits with deadlines for every test: the one wait constant, a polling Eventually, and contexts
// that end. Header-only (ctrl::test_wait), so a unit test links nothing more than ctrl::core.

#include <algorithm>
#include <chrono>
#include <thread>
#include <utility>

#include "ctrl/core/context.hpp"

namespace ctrl::testing {

// How long a test waits for something that must happen. Generous on purpose: a loaded machine (a
// parallel build, stress-ng on every core) slows a test down but does not fail it; reaching it
// means the awaited thing is not going to happen. Never an expectation of speed.
inline constexpr std::chrono::seconds kTestWait{30};

// Polls condition until it holds or timeout passes and returns whether it held. It pauses a
// millisecond after the first try, then twice as long after each, up to longest_pause (raise it
// for costly conditions, such as running kubectl). The condition runs on the calling thread.
template <typename Condition>
bool Eventually(Condition&& condition, std::chrono::steady_clock::duration timeout = kTestWait,
                std::chrono::steady_clock::duration longest_pause = std::chrono::milliseconds(10)) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    std::chrono::steady_clock::duration pause = std::chrono::milliseconds(1);
    while (!condition()) {
        if (std::chrono::steady_clock::now() >= deadline)
            return false;
        std::this_thread::sleep_for(pause);
        pause = std::min(pause * 2, longest_pause);
    }
    return true;
}

// A context that ends after timeout: what a test passes where a program would pass
// Context::Background(), so a call that never returns fails the test instead of hanging it.
inline Context Within(std::chrono::steady_clock::duration timeout) {
    return Context::WithTimeout(Context::Background(), timeout);
}

inline Context TestContext() {
    return Within(kTestWait);
}

}  // namespace ctrl::testing
