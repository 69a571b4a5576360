#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ctrl/core/gvk.hpp"
#include "ctrl/core/object.hpp"
#include "ctrl/core/status_or.hpp"

namespace ctrl {

// A Kubernetes list (PodList, a custom resource's list, or a v1 List): its type, the list metadata
// a client pages and watches with, and the items. Each item is an Object with its own pool, so one
// can be moved into a cache alone. Other list-level fields (metadata.selfLink, ...) are not kept.
// Move-only; copy with DeepCopy. Not thread-safe for writes.
class ObjectList {
  public:
    ObjectList() = default;
    ObjectList(ObjectList&&) noexcept = default;
    ObjectList& operator=(ObjectList&&) noexcept = default;
    ObjectList(const ObjectList&) = delete;
    ObjectList& operator=(const ObjectList&) = delete;

    // Parses a List response. Missing or null items make an empty list; items keep every field
    // (and usually lack apiVersion and kind: see FillItemTypeMeta). BadRequest for malformed JSON
    // (naming the byte offset and reason), for a body that is not a JSON object, or for a known
    // field of the wrong type ("items[2] is a string, not an object").
    static StatusOr<ObjectList> Parse(std::string_view json);
    // Compact JSON: apiVersion and kind when set, metadata (empty fields left out), items (always
    // an array).
    std::string ToJson() const;
    ObjectList DeepCopy() const;

    std::string_view ApiVersion() const { return api_version_; }
    std::string_view Kind() const { return kind_; }
    void SetApiVersion(std::string_view api_version) { api_version_ = api_version; }
    void SetKind(std::string_view kind) { kind_ = kind; }
    // The list's own kind ("v1, Kind=PodList"); BadRequest when apiVersion or kind is missing or
    // malformed.
    StatusOr<GroupVersionKind> GetGroupVersionKind() const;
    void SetGroupVersionKind(const GroupVersionKind& gvk);

    // The kind of the items: "Pod" for "PodList"; empty when kind does not end in "List" or is
    // "List" itself (a v1 List may hold any kinds).
    std::string_view ItemKind() const;
    // apiVersion with ItemKind: "v1, Kind=Pod" for a v1 PodList. BadRequest when either is missing
    // or malformed.
    StatusOr<GroupVersionKind> ItemGroupVersionKind() const;
    // Makes this a list of item_gvk: apiVersion from it and kind "<Kind>List".
    void SetItemGroupVersionKind(const GroupVersionKind& item_gvk);
    // Sets apiVersion and kind, where missing, on each item from the list's apiVersion and
    // ItemKind. Items that have both are untouched, so a v1 List of mixed kinds is fine.
    // BadRequest, with no item changed, when an item lacks a field the list cannot supply.
    Status FillItemTypeMeta();

    // metadata.resourceVersion: where a watch started after this list resumes.
    std::string_view ResourceVersion() const { return resource_version_; }
    void SetResourceVersion(std::string_view resource_version) { resource_version_ = resource_version; }
    // metadata.continue: the token for the next page; empty on the last page.
    std::string_view Continue() const { return continue_; }
    void SetContinue(std::string_view continue_token) { continue_ = continue_token; }
    // metadata.remainingItemCount: how many items the following pages hold, when the server says.
    std::optional<int64_t> RemainingItemCount() const { return remaining_item_count_; }
    void SetRemainingItemCount(std::optional<int64_t> count) { remaining_item_count_ = count; }

    std::vector<Object>& Items() { return items_; }
    const std::vector<Object>& Items() const { return items_; }

  private:
    std::string api_version_;
    std::string kind_;
    std::string resource_version_;
    std::string continue_;
    std::optional<int64_t> remaining_item_count_;
    std::vector<Object> items_;
};

}  // namespace ctrl
