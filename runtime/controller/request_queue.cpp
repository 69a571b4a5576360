#include "runtime/controller/request_queue.hpp"

namespace ctrl::workqueue {
template class Queue<reconcile::Request>;
}  // namespace ctrl::workqueue
