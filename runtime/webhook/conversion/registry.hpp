#pragma once

#include <map>
#include <memory>
#include <mutex>

#include "ctrl/core/gvk.hpp"
#include "ctrl/core/status.hpp"
#include "ctrl/webhook/conversion/converter.hpp"
#include "ctrl/webhook/conversion/review.hpp"

namespace ctrl::webhook::conversion {

// The converters a conversion webhook serves, one per group and kind (controller-runtime's
// conversion.Registry). Converters are added before or while the webhook serves. Thread-safe.
class Registry {
  public:
    // AlreadyExists when a converter of that group and kind was registered before.
    Status Register(Converter converter);
    bool Registered(const GroupKind& kind) const;
    // The converter of kind; null when none is registered.
    std::shared_ptr<const Converter> Find(const GroupKind& kind) const;

    // The answer to a ConversionRequest: every object converted to the desired apiVersion, in
    // order, or, at the first that cannot be, a failure saying why, naming the object by its
    // index, kind, namespace and name: a desired apiVersion that does not parse or is of another
    // group (BadRequest), a kind no converter is registered for or a version its converter does
    // not know (NotFound), a conversion function's error.
    Response Convert(const Request& request) const;

  private:
    mutable std::mutex mu_;
    std::map<GroupKind, std::shared_ptr<const Converter>> converters_;
};

}  // namespace ctrl::webhook::conversion
