#pragma once

#include <string>
#include <string_view>

#include "ctrl/core/object.hpp"
#include "ctrl/core/status.hpp"
#include "ctrl/log/log.hpp"
#include "ctrl/metrics/metric.hpp"
#include "ctrl/metrics/registry.hpp"

namespace ctrl::cache::internal {

// Where an informer reports what went wrong around it without stopping it: an event handler that
// threw, an object its transform refused. Each is an Error line of the "cache" logger carrying the
// kind (gvk), and a count in ctrl_informer_handler_panics_total{gvk} or
// ctrl_informer_transform_errors_total{gvk}. Objects are named (namespace, name), never printed.
// Thread-safe.
class InformerFaults final {
  public:
    InformerFaults(std::string gvk, metrics::Registry& registry);

    // event: "add", "update" or "delete"; what: the exception's what().
    void HandlerThrew(std::string_view event, const Object& object, std::string_view what) const;
    // error: the store's refusal, which names the object.
    void TransformFailed(const Status& error) const;

  private:
    const log::Logger logger_;
    const metrics::Counter handler_panics_;
    const metrics::Counter transform_errors_;
};

}  // namespace ctrl::cache::internal
