#pragma once

#include "runtime/controller/request.hpp"
#include "runtime/workqueue/queue.hpp"
#include "runtime/workqueue/rate_limiting_interface.hpp"

namespace ctrl::controller {

// The work queue of a controller: reconcile Requests, de-duplicated and rate limited
// (workqueue::RateLimitingInterface). Handlers add to it; the controller's workers take from it.
using RequestQueue = workqueue::RateLimitingInterface<reconcile::Request>;

}  // namespace ctrl::controller

namespace ctrl::workqueue {
// Instantiated once, in runtime/controller/request_queue.cpp.
extern template class Queue<reconcile::Request>;
}  // namespace ctrl::workqueue
