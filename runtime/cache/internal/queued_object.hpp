#pragma once

#include <memory>
#include <utility>

#include "ctrl/cache/cached_object.hpp"
#include "ctrl/core/object.hpp"

namespace ctrl::cache::internal {

// The object a queued handler notification carries: a stored state, decoded only when the
// notification is delivered, or an object decoded already (a watch's final state of a deleted
// object). A relist of 100,000 objects so queues 100,000 references into the store, not 100,000
// decoded objects: each is decoded as its turn comes (CachedObject::Shared, which hands every
// handler of the informer the same decode while it is held or hot) and let go after the handlers.
class QueuedObject {
  public:
    QueuedObject() = default;
    QueuedObject(CachedObject stored) : stored_(std::move(stored)) {}  // NOLINT(google-explicit-constructor)
    QueuedObject(std::shared_ptr<const Object> decoded)                // NOLINT(google-explicit-constructor)
        : decoded_(std::move(decoded)) {}

    // The object, decoded now when it was queued as a stored state.
    std::shared_ptr<const Object> Get() const { return decoded_ ? decoded_ : stored_.Shared(); }

  private:
    CachedObject stored_;
    std::shared_ptr<const Object> decoded_;
};

}  // namespace ctrl::cache::internal
