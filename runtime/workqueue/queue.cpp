#include "ctrl/workqueue/queue.hpp"

#include "ctrl/log/log.hpp"

namespace ctrl::workqueue {

void internal::LogShutDown(const std::string& queue, bool drain, std::size_t pending) {
    static const log::Logger logger = log::Logger().WithName("workqueue");
    logger.V(1).Info("shutting down", "name", queue.empty() ? std::string_view("<unnamed>") : std::string_view(queue),
                     "drain", drain, "pending", pending);
}

// Compiles every member for the common key types once, here, rather than in each user.
template class Queue<ObjectKey>;
template class Queue<std::string>;
template class PriorityQueue<ObjectKey>;
template class PriorityQueue<std::string>;

}  // namespace ctrl::workqueue
