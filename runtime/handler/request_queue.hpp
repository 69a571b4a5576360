#pragma once

#include "ctrl/reconcile/request.hpp"
#include "ctrl/workqueue/queue.hpp"
#include "ctrl/workqueue/rate_limiting_interface.hpp"

namespace ctrl::handler {

// The work queue of a controller: reconcile Requests, de-duplicated and rate limited
// (workqueue::RateLimitingInterface). Handlers add to it; the controller's workers take from it.
using RequestQueue = workqueue::RateLimitingInterface<reconcile::Request>;

}  // namespace ctrl::handler

// Instantiated once, in runtime/handler/request_queue.cpp.
extern template class ctrl::workqueue::Queue<ctrl::reconcile::Request>;
extern template class ctrl::workqueue::PriorityQueue<ctrl::reconcile::Request>;
