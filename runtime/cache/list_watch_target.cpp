#include "ctrl/cache/list_watch_target.hpp"

#include "ctrl/rest/request_builder.hpp"
#include "ctrl/sharding/bucket_list.hpp"

namespace ctrl::cache {

namespace {

rest::RequestBuilder Base(const ListWatchTarget& target, bool list) {
    rest::RequestBuilder builder("GET");
    if (target.metadata_only) {
        builder.Header("Accept",
                       list ? "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json"
                            : "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json");
    } else if (target.protobuf && !list) {
        // JSON second: what a server that cannot send this kind in protobuf falls back to.
        builder.Header("Accept", "application/vnd.kubernetes.protobuf, application/json");
    }
    builder.GroupVersion(target.resource.ToGroupVersion()).Resource(target.resource.resource);
    if (!target.shard.Selector().empty())
        builder.Param("shardSelector", target.shard.Selector());
    if (target.namespaced && !target.namespace_name.empty())
        builder.Namespace(target.namespace_name);
    return builder;
}

}  // namespace

std::string ListWatchTarget::Describe() const {
    std::string out = resource.resource;
    out += resource.group.empty() ? "." + resource.version : "." + resource.version + "." + resource.group;
    if (namespaced && !namespace_name.empty())
        out += " in namespace \"" + namespace_name + "\"";
    if (!label_selector.empty())
        out += " with labels \"" + label_selector + "\"";
    if (!field_selector.empty())
        out += " with fields \"" + field_selector + "\"";
    if (!shard.SelectsEverything())
        out += " in shard buckets " + sharding::FormatBucketList(shard.Owned());
    if (metadata_only)
        out += " (metadata only)";
    return out;
}

StatusOr<rest::HttpRequest> BuildListRequest(const ListWatchTarget& target, int64_t page_size,
                                             const std::string& continue_token, std::chrono::milliseconds timeout) {
    rest::ListParams params;
    params.label_selector = target.label_selector;
    params.field_selector = target.field_selector;
    if (page_size > 0)
        params.limit = page_size;
    params.continue_token = continue_token;
    return Base(target, /*list=*/true).List(params).Timeout(timeout).Build();
}

StatusOr<rest::HttpRequest> BuildWatchRequest(const ListWatchTarget& target, const std::string& resource_version,
                                              int64_t timeout_seconds, std::chrono::milliseconds header_timeout) {
    rest::ListParams params;
    params.label_selector = target.label_selector;
    params.field_selector = target.field_selector;
    params.resource_version = resource_version;
    params.watch = true;
    params.allow_watch_bookmarks = true;
    params.timeout_seconds = timeout_seconds;
    return Base(target, /*list=*/false).List(params).Timeout(header_timeout).Build();
}

StatusOr<rest::HttpRequest> BuildWatchListRequest(const ListWatchTarget& target, int64_t timeout_seconds,
                                                  std::chrono::milliseconds header_timeout) {
    rest::ListParams params;
    params.label_selector = target.label_selector;
    params.field_selector = target.field_selector;
    params.resource_version = "";  // with NotOlderThan: a consistent read, as a list without one
    params.resource_version_match = "NotOlderThan";
    params.watch = true;
    params.allow_watch_bookmarks = true;
    params.send_initial_events = true;
    params.timeout_seconds = timeout_seconds;
    return Base(target, /*list=*/false).List(params).Timeout(header_timeout).Build();
}

}  // namespace ctrl::cache
