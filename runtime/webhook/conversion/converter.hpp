#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "ctrl/core/gvk.hpp"
#include "ctrl/core/object.hpp"
#include "ctrl/core/status.hpp"
#include "ctrl/core/status_or.hpp"

namespace ctrl::webhook::conversion {

// Where a converted object keeps what a version could not say: the annotation
// "conversion.ctrl.dev/<version>" holds, as JSON, the content (every member but apiVersion, kind
// and metadata) of the object as it was in <version>.
inline constexpr std::string_view kKeptContentAnnotationPrefix = "conversion.ctrl.dev/";
std::string KeptContentAnnotation(std::string_view version);

// How one spoke version converts to and from the hub, on objects: what a typed spoke's ConvertTo
// and ConvertFrom become (SpokeOf<T>, SpokeWith<Hub, T>). Each function is handed a destination
// that holds only apiVersion, kind and the source's metadata, and sets what it carries; an error
// is the conversion's failure (its message reaches the client).
struct SpokeConversion {
    std::string version;
    std::function<Status(const Object& spoke, Object& hub)> to_hub;
    std::function<Status(const Object& hub, Object& spoke)> from_hub;
};

// Converts the objects of one group kind between its versions, through its hub (controller-
// runtime's hub-and-spoke conversion): spoke -> hub -> another spoke; the same version is a copy.
// Nothing is lost on the way (docs/decisions.md, decision 71): when the object a conversion
// produced, converted back, is not the object it came from, the source's content is kept in the
// annotation KeptContentAnnotation(source version) of the result, and a later conversion back to
// that version restores, from it, what the other version could not carry and did not change.
// Copyable; const methods are thread-safe.
class Converter {
  public:
    // The converter of hub's group and kind, with hub's version as the hub and no spoke yet.
    explicit Converter(GroupVersionKind hub);

    // Adds a spoke. BadRequest for an empty version, the hub's version or a missing function;
    // AlreadyExists for a version added before.
    Status AddSpoke(SpokeConversion spoke);

    GroupKind Kind() const { return {hub_.group, hub_.kind}; }
    const GroupVersionKind& Hub() const { return hub_; }
    // The hub's version first, then the spokes' in the order added.
    std::vector<std::string> Versions() const;
    bool HasVersion(std::string_view version) const;

    // object (of this group and kind, in one of its versions) in version. BadRequest for an object
    // of another group or kind, NotFound naming the version and the known ones for a version this
    // converter does not know; a conversion function's error comes back with its code and its
    // message prefixed with what was being converted ("converting ConfigSecret team-a/creds from
    // examples.ctrl.dev/v1beta1 to examples.ctrl.dev/v1alpha1: ...").
    StatusOr<Object> Convert(const Object& object, std::string_view version) const;

  private:
    const SpokeConversion* Spoke(std::string_view version) const;
    // from (in from_version) converted by the functions only, through the hub: into a fresh object
    // of to_version carrying from's metadata.
    StatusOr<Object> Through(const Object& from, std::string_view from_version, std::string_view to_version) const;
    // The object of version whose metadata is a copy of from's: what a conversion function fills.
    Object Fresh(std::string_view version, const Object& metadata_from) const;
    // Restores into converted (in to_version) what the content kept in from's annotation said.
    Status RestoreKept(const Object& from, std::string_view from_version, std::string_view to_version,
                       Object& converted) const;
    std::string Describe(const Object& object) const;

    GroupVersionKind hub_;
    std::vector<SpokeConversion> spokes_;
};

}  // namespace ctrl::webhook::conversion
