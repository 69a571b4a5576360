#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ctrl/core/gvk.hpp"
#include "ctrl/core/status_or.hpp"
#include "ctrl/rest/transport.hpp"

namespace ctrl::rest {

// Percent-encodes a query value as Go's url.QueryEscape does (space becomes '+').
std::string EscapeQueryValue(std::string_view value);
// Percent-encodes one path segment as Go's url.PathEscape does.
std::string EscapePathSegment(std::string_view segment);

// The list and watch query parameters of the API (metav1.ListOptions). Unset fields are not
// sent.
struct ListParams {
    std::string label_selector{};
    std::string field_selector{};
    std::optional<int64_t> limit{};
    std::string continue_token{};
    std::optional<std::string> resource_version{};
    std::string resource_version_match{};  // "", "NotOlderThan", "Exact"
    bool watch = false;
    bool allow_watch_bookmarks = false;
    std::optional<bool> send_initial_events{};
    std::optional<int64_t> timeout_seconds{};
};

// The query parameters of writes (create, update, patch, delete).
struct WriteParams {
    bool dry_run = false;                           // dryRun=All
    std::string field_manager{};                    // fieldManager=
    std::optional<bool> force{};                    // force= (server-side apply)
    std::string field_validation{};                 // fieldValidation= ("", "Ignore", "Warn", "Strict")
    std::string propagation_policy{};               // delete: "Orphan", "Background", "Foreground"
    std::optional<int64_t> grace_period_seconds{};  // delete
};

// Builds an HttpRequest for the API server: `/api/v1` for the core group, `/apis/<g>/<v>`
// otherwise, then `namespaces/<ns>/` when namespaced, the resource, the name, the subresource
// and the escaped query. Names are checked like client-go's path segments ("", ".", "..", and
// names containing '/' or '%' are BadRequest) when Build() runs.
class RequestBuilder {
  public:
    explicit RequestBuilder(std::string method) { request_.method = std::move(method); }

    RequestBuilder& GroupVersion(const ctrl::GroupVersion& gv);
    RequestBuilder& Namespace(std::string_view namespace_name);
    RequestBuilder& Resource(std::string_view resource);
    RequestBuilder& Name(std::string_view name);
    RequestBuilder& SubResource(std::string_view subresource);
    // A fixed path instead of the resource path: "/version", "/apis", "/api/v1".
    RequestBuilder& AbsPath(std::string_view path);
    // A query parameter; the value is escaped. May repeat a key.
    RequestBuilder& Param(std::string_view key, std::string_view value);
    RequestBuilder& List(const ListParams& params);
    RequestBuilder& Write(const WriteParams& params);
    RequestBuilder& Header(std::string name, std::string value);
    RequestBuilder& Body(std::string body, std::string content_type = "application/json");
    RequestBuilder& Timeout(std::chrono::milliseconds timeout);

    StatusOr<HttpRequest> Build() const;

  private:
    HttpRequest request_;
    std::optional<ctrl::GroupVersion> group_version_{};
    std::string abs_path_{};
    std::string namespace_{};
    std::string resource_{};
    std::string name_{};
    std::string subresource_{};
    std::vector<std::pair<std::string, std::string>> params_{};
};

}  // namespace ctrl::rest
