// Sizes cpprestsdk's thread pool. pplx/threadpool.h uses Asio names that BOOST_ASIO_NO_DEPRECATED
// removes, so this file, which includes nothing else, is built without it.
#undef BOOST_ASIO_NO_DEPRECATED

// Boost 1.74's awaitable.hpp uses std::exchange without including <utility>.
#include <mutex>
#include <utility>

#include <pplx/threadpool.h>

#include "ctrl/rest/cpprest_transport.hpp"

namespace ctrl::rest {

bool InitializeCppRestThreads(std::size_t threads) {
    static std::mutex mu;
    static bool sized = false;
    std::lock_guard lock(mu);
    if (sized)
        return false;
    sized = true;
    try {
        crossplat::threadpool::initialize_with_threads(threads);
        return true;
    } catch (...) {
        return false;  // cpprestsdk was used before: its pool already runs
    }
}

}  // namespace ctrl::rest
