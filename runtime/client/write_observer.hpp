#pragma once

#include <string_view>

#include "ctrl/core/gvk.hpp"
#include "ctrl/core/object.hpp"

namespace ctrl::client {

// A write the server accepted, as the client that sent it saw it: the object's kind and key and
// the resourceVersion of the server's answer (for a delete, of the object as deleted or as marked
// for deletion; empty when the server answered with a Status only).
struct ObservedWrite {
    GroupVersionKind gvk{};
    std::string_view namespace_name{};
    std::string_view name{};
    std::string_view resource_version{};
    // The answer's labels (selectors decide whether a cache will see the write at all); null for
    // a delete answered by a Status.
    const Object* object = nullptr;
    bool deleted = false;
};

// Told of every write a client made that the server accepted and that changed the object itself:
// Create, Update, Patch, Delete and writes of its status (or any subresource) that answer the
// object. Not told of dry runs, of DeleteAllOf, nor of subresource writes whose answer is another
// kind (a Scale, an Eviction). The cache implements it to read what this process wrote
// (cache::Cache, read-your-own-writes). Called on the writer's thread right after the answer is
// decoded, before the write returns: it must be quick and must not block.
class WriteObserver {
  public:
    virtual ~WriteObserver() = default;
    virtual void ObserveWrite(const ObservedWrite& write) = 0;
};

}  // namespace ctrl::client
