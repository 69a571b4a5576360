#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

#include "ctrl/core/gvk.hpp"
#include "ctrl/core/status_or.hpp"
#include "ctrl/rest/transport.hpp"
#include "ctrl/sharding/shard_filter.hpp"

namespace ctrl::cache {

// What a reflector lists and watches: one resource, optionally one namespace of it, optionally
// filtered by label and field selectors (the server filters). Every field says its default.
struct ListWatchTarget {
    GroupVersionResource resource{};
    // Whether the resource is namespaced (from the RESTMapper).
    bool namespaced = false;
    // Only this namespace ("" = every namespace). Ignored when the resource is not namespaced.
    std::string namespace_name{};
    // Selectors in their string form ("app=web", "spec.nodeName=n1"); "" selects everything.
    std::string label_selector{};
    std::string field_selector{};
    // Ask for metadata only (PartialObjectMetadata): objects then hold apiVersion
    // "meta.k8s.io/v1", kind "PartialObjectMetadata" and metadata; the reader puts the kind back.
    bool metadata_only = false;
    // Watch in protobuf (controller-runtime's default for built-in kinds): the API server encodes
    // protobuf several times faster than JSON, which is most of a large sync's time; each event is
    // transcoded into the exact JSON the server would have sent (ctrl::protobuf). Only for kinds
    // protobuf::HasBuiltinSchema knows (the server answers JSON for custom resources anyway, and
    // the stream is read by its content type); ignored with metadata_only. Lists in pages stay JSON.
    bool protobuf = false;
    // Only the objects of these shard buckets (a sharded controller's share, sharding::Ring): sent
    // as the shardSelector parameter (the API server filters when its ShardedListAndWatch gate is
    // on) and applied by the reflector to what arrives (the server ignores the parameter with the
    // gate off). Default: every object, no parameter. A filter that selects nothing lists nothing.
    sharding::ShardFilter shard{};

    // "pods.v1 in namespace \"shop\" with labels \"app=web\"": for messages.
    std::string Describe() const;
};

// One page of the list: page_size items (0: no limit) from continue_token on, at the latest
// resourceVersion (a consistent read: the API server pages it, from its watch cache when it can).
StatusOr<rest::HttpRequest> BuildListRequest(const ListWatchTarget& target, int64_t page_size,
                                             const std::string& continue_token, std::chrono::milliseconds timeout);
// A watch from resource_version with bookmarks, which the server ends after timeout_seconds.
StatusOr<rest::HttpRequest> BuildWatchRequest(const ListWatchTarget& target, const std::string& resource_version,
                                              int64_t timeout_seconds, std::chrono::milliseconds header_timeout);

// A watch-list: the objects at the latest resourceVersion as ADDED events (served from the API
// server's watch cache), a bookmark annotated k8s.io/initial-events-end, then the changes after it;
// ended by the server after timeout_seconds.
StatusOr<rest::HttpRequest> BuildWatchListRequest(const ListWatchTarget& target, int64_t timeout_seconds,
                                                  std::chrono::milliseconds header_timeout);

}  // namespace ctrl::cache
