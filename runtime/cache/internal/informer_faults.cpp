#include "ctrl/cache/internal/informer_faults.hpp"

#include <utility>

namespace ctrl::cache::internal {

InformerFaults::InformerFaults(std::string gvk, metrics::Registry& registry)
    : logger_(log::Logger().WithName("cache").WithValues("gvk", gvk)),
      handler_panics_(registry
                          .AddCounter("ctrl_informer_handler_panics_total",
                                      "Exceptions thrown by informer event handlers (each was caught and the "
                                      "informer went on), by kind.",
                                      {"gvk"})
                          .WithLabelValues({gvk})),
      transform_errors_(registry
                            .AddCounter("ctrl_informer_transform_errors_total",
                                        "Objects an informer's transform (or store) refused and left out of the "
                                        "cache, by kind.",
                                        {"gvk"})
                            .WithLabelValues({gvk})) {}

void InformerFaults::HandlerThrew(std::string_view event, const Object& object, std::string_view what) const {
    handler_panics_.Inc();
    logger_.Error(InternalError(std::string(what)), "event handler threw; the informer goes on", "event", event,
                  "namespace", object.Namespace(), "name", object.Name());
}

void InformerFaults::TransformFailed(const Status& error) const {
    transform_errors_.Inc();
    logger_.Error(error, "object left out of the cache: it could not be stored");
}

}  // namespace ctrl::cache::internal
