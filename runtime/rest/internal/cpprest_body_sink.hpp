#pragma once

#include <memory>

#include <cpprest/streams.h>

#include "ctrl/rest/internal/cpprest_body_queue.hpp"

namespace ctrl::rest::internal::cpprest {

// A write-only cpprestsdk stream that hands a response body to a BodyQueue: set with
// http_request::set_response_stream, so cpprestsdk writes the body here instead of into its
// unbounded producer_consumer_buffer, and waits for each write before it reads on.
concurrency::streams::ostream NewBodySink(std::shared_ptr<BodyQueue> queue);

}  // namespace ctrl::rest::internal::cpprest
