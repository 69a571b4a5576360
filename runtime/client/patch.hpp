#pragma once

#include <string>
#include <string_view>

#include "ctrl/core/object.hpp"
#include "ctrl/core/status_or.hpp"

namespace ctrl::client {

// The patch formats the API server accepts (types.PatchType).
enum class PatchType {
    kJsonPatch,            // RFC 6902: a list of operations
    kMergePatch,           // RFC 7386: JSON merge patch; lists are replaced whole
    kStrategicMergePatch,  // built-in kinds only: lists with a merge key are merged by it
    kApply,                // server-side apply: the fields the caller's field manager wants to own
};

// "application/json-patch+json", "application/merge-patch+json",
// "application/strategic-merge-patch+json", "application/apply-patch+yaml".
std::string_view PatchContentType(PatchType type);

// The RFC 6902 JSON patch that turns original into modified, "[]" when they are equal (what an
// admission webhook's defaulter answers; the operations MergeFrom's kJsonPatch form sends).
std::string JsonPatchBetween(const Object& original, const Object& modified);

// The options of MergeFrom and its relatives.
struct MergeFromOptions {
    // MergeFromWithOptimisticLock: the patch carries the original's resourceVersion (a JSON patch:
    // a "test" of it), so the server refuses it when the object changed since it was read:
    // Conflict for a merge patch, 422 Invalid for a JSON patch whose test failed. Data is
    // BadRequest when the original has no resourceVersion.
    bool optimistic_lock = false;
};

// A patch for Client::Patch (controller-runtime's client.Patch): its type and how to compute its
// body from the object passed to Patch, which is the object as the caller wants it to be.
// A small handle, trivially destructible, so `co_await client.Patch(ctx, obj, MergeFrom(original))`
// is safe even under GCC 12 (docs/decisions.md, decision 16). It refers to the original object (MergeFrom
// and its relatives) or the raw data (RawPatch) without copying them: the caller keeps them alive
// and unchanged until the Patch call has finished.
class Patch {
  public:
    PatchType Type() const { return type_; }
    // The body to send for object. BadRequest when it cannot be computed (a strategic merge patch
    // for a kind without a known schema; the optimistic lock on an original without a
    // resourceVersion).
    StatusOr<std::string> Data(const Object& object) const;

  private:
    enum class Source { kRaw, kMergeFrom, kStrategicMergeFrom, kJsonPatchFrom, kApply };
    Patch(PatchType type, Source source) : type_(type), source_(source) {}
    // A patch computed from original when it is sent.
    static Patch FromOriginal(PatchType type, Source source, const Object& original, MergeFromOptions options);

    friend Patch RawPatch(PatchType type, std::string_view data);
    friend Patch MergeFrom(const Object& original, MergeFromOptions options);
    friend Patch StrategicMergeFrom(const Object& original, MergeFromOptions options);
    friend Patch JsonPatchFrom(const Object& original, MergeFromOptions options);
    friend Patch Apply();

    PatchType type_;
    Source source_;
    const Object* original_ = nullptr;
    MergeFromOptions options_{};
    std::string_view raw_{};
};

// A patch whose body is exactly data (client.RawPatch). data is not copied, so a temporary
// string is refused at compile time (name it first); a literal is fine.
Patch RawPatch(PatchType type, std::string_view data);
inline Patch RawPatch(PatchType type, const char* data) {
    return RawPatch(type, std::string_view(data));
}
Patch RawPatch(PatchType type, std::string&& data) = delete;

// A JSON merge patch from original to the object passed to Patch (client.MergeFrom): changed
// fields, null for removed ones; a changed list is sent whole. original is read when the patch is
// sent, not copied.
Patch MergeFrom(const Object& original, MergeFromOptions options = {});
// The patch keeps a reference to original: a temporary (Go's `MergeFrom(pod.DeepCopy())`) would
// dangle, so it does not compile. Name the copy first: `auto original = pod; ... MergeFrom(original)`.
Patch MergeFrom(const Object&& original, MergeFromOptions options = {}) = delete;

// A strategic merge patch from original to the object (client.StrategicMergeFrom): like MergeFrom,
// but lists the kind's schema merges by key (a pod's containers by name, ...) carry only the
// changed entries, and removed entries as {"<key>": ..., "$patch": "delete"}. Only for built-in
// kinds the runtime knows the merge keys of; other kinds get BadRequest (the server rejects it for
// custom resources too).
Patch StrategicMergeFrom(const Object& original, MergeFromOptions options = {});
Patch StrategicMergeFrom(const Object&& original, MergeFromOptions options = {}) = delete;

// A JSON patch (RFC 6902) from original to the object: add, remove and replace operations.
Patch JsonPatchFrom(const Object& original, MergeFromOptions options = {});
Patch JsonPatchFrom(const Object&& original, MergeFromOptions options = {}) = delete;

// Server-side apply of the object itself (client.Apply): the body is the object without
// metadata.managedFields (the server refuses them). Name the field manager with
// PatchOptions::field_owner (required by the server) and take contested fields with force.
Patch Apply();

}  // namespace ctrl::client
