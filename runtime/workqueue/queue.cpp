#include "runtime/workqueue/queue.hpp"

namespace ctrl::workqueue {

// Compiles every member for the common key types once, here, rather than in each user.
template class Queue<ObjectKey>;
template class Queue<std::string>;

}  // namespace ctrl::workqueue
