#pragma once

// Boost 1.74's awaitable.hpp uses std::exchange without including <utility>.
#include <utility>

#include <boost/asio/awaitable.hpp>

namespace ctrl {

// An asynchronous operation returning T: a C++20 coroutine on the Manager's Boost.Asio
// executor (docs/decisions.md, decision 2). `co_await` it from another Task, or run it to completion
// from plain code with RunSync (runtime/core/run_sync.hpp).
template <typename T>
using Task = boost::asio::awaitable<T>;

}  // namespace ctrl
