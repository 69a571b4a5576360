#include "controllers/podlister/pod_lister.hpp"

#include <string>
#include <utility>

namespace ctrl::podlister {
namespace {

// One page into `page`; on success its items are moved to the end of `into`.
Task<Status> ReadPage(Context ctx, client::Reader& reader, client::ListOptions options, api::PodList& into) {
    api::PodList page;
    Status read = co_await reader.List(std::move(ctx), page, std::move(options));
    if (!read.Ok())
        co_return read;
    into.SetResourceVersion(page.ResourceVersion());
    into.SetContinue(page.Continue());
    for (Object& item : page.Items())
        into.Items().push_back(std::move(item));
    co_return OkStatus();
}

}  // namespace

Task<StatusOr<PodListing>> ListAllPods(Context ctx, client::Reader& reader, int64_t chunk_size) {
    if (chunk_size <= 0)
        co_return BadRequestError("listing pods: the chunk size must be > 0, got " + std::to_string(chunk_size));
    PodListing listing;
    std::string continue_token;
    do {
        client::ListOptions options;
        options.limit = chunk_size;
        options.continue_token = continue_token;
        Status read = co_await ReadPage(ctx, reader, std::move(options), listing.pods);
        ++listing.pages;
        if (IsGone(read) && !continue_token.empty()) {
            // The continue token expired (etcd compacted past it): list again in one request,
            // as client-go's pager does, so the result is still one snapshot.
            listing.pods.Items().clear();
            listing.relisted = true;
            client::ListOptions full;
            read = co_await ReadPage(ctx, reader, std::move(full), listing.pods);
            ++listing.pages;
        }
        if (!read.Ok()) {
            co_return read.Annotate("listing pods in all namespaces (page " + std::to_string(listing.pages) +
                                    ", chunk size " + std::to_string(chunk_size) + ")");
        }
        continue_token = std::string(listing.pods.Continue());
    } while (!continue_token.empty());
    listing.pods.SetContinue("");
    co_return listing;
}

}  // namespace ctrl::podlister
