#include "ctrl/handler/request_queue.hpp"

template class ctrl::workqueue::Queue<ctrl::reconcile::Request>;
