#include "ctrl/handler/priority_default.hpp"

namespace ctrl::handler {

std::optional<int> DefaultPriority(const event::CreateEvent& event) {
    return event.is_in_initial_list ? std::optional<int>(workqueue::kLowPriority) : std::nullopt;
}

std::optional<int> DefaultPriority(const event::UpdateEvent& event) {
    if (event.object_old == nullptr || event.object_new == nullptr)
        return std::nullopt;
    return event.object_old->ResourceVersion() == event.object_new->ResourceVersion()
               ? std::optional<int>(workqueue::kLowPriority)
               : std::nullopt;
}

}  // namespace ctrl::handler
