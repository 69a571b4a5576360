#pragma once

#include <chrono>
#include <cstdint>
#include <exception>
#include <memory>
#include <string>

#include "ctrl/core/status.hpp"
#include "ctrl/rest/internal/cpprest_tls.hpp"

namespace ctrl::rest::internal::cpprest {

// What a cpprestsdk exchange was doing, for error messages.
struct ErrorScene {
    std::string operation;  // "GET https://127.0.0.1:6443/version"
    std::string server;     // "https://127.0.0.1:6443"
    std::chrono::milliseconds idle_timeout{0};
    std::shared_ptr<const CppRestTls> tls;  // https only
    uint64_t tls_failures_before = 0;       // tls->Failures() when the exchange started
};

// Turns what a cpprestsdk exchange threw into a Status, as the Beast transport words it:
// Unavailable for connection, TLS and mid-body failures (naming the server and the cause),
// Timeout for cpprestsdk's idle timer, Cancelled for a cancelled exchange, BadRequest for a
// request cpprestsdk refuses, Internal for anything else. Never throws.
Status StatusFromException(const std::exception_ptr& error, const ErrorScene& scene);

}  // namespace ctrl::rest::internal::cpprest
