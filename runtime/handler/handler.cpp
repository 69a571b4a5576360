#include "ctrl/handler/handler.hpp"

namespace ctrl::handler {

Task<Status> EventHandler::Prepare(Context /*ctx*/) {
    co_return Status();
}

}  // namespace ctrl::handler
