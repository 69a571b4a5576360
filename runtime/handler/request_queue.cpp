#include "ctrl/handler/request_queue.hpp"

template class ctrl::workqueue::Queue<ctrl::reconcile::Request>;
template class ctrl::workqueue::PriorityQueue<ctrl::reconcile::Request>;
