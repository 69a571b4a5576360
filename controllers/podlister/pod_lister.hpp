#pragma once

#include <cstdint>

#include "ctrl/api/pod.hpp"
#include "ctrl/client/reader.hpp"
#include "ctrl/core/context.hpp"
#include "ctrl/core/status_or.hpp"
#include "ctrl/core/task.hpp"

namespace ctrl::podlister {

// Every pod of every namespace, and how many LIST requests it took.
struct PodListing {
    api::PodList pods{};
    // Pages read, the full relist after an expired continue token included.
    int pages = 0;
    // Whether a continue token expired (410) and the pods were listed again in one request, as
    // client-go's pager does; the listing is then one consistent snapshot all the same.
    bool relisted = false;
};

// Lists the pods of every namespace in pages of at most chunk_size (limit/continue) until the
// server has no more, and returns them in the server's order (namespace, then name). chunk_size
// must be > 0. The first error ends the listing and is returned with the page it happened on;
// ctx bounds the whole listing (each request is also bounded by the client's config timeout).
Task<StatusOr<PodListing>> ListAllPods(Context ctx, client::Reader& reader, int64_t chunk_size);

}  // namespace ctrl::podlister
