#pragma once

#include <memory>

#include "ctrl/handler/handler.hpp"

namespace ctrl::handler {

// The handler of a controller's own kind (controller-runtime's EnqueueRequestForObject): enqueues
// the namespace/name of the object of every event. An update enqueues the new object's key, and
// the old object's too when it differs (it cannot on a real watch: name and namespace are
// immutable); the queue de-duplicates. An event without an object is logged as an error and
// dropped. Stateless: one instance may serve any number of sources.
std::shared_ptr<EventHandler> EnqueueRequestForObject();

}  // namespace ctrl::handler
