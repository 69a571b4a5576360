#include "ctrl/webhook/conversion/converter.hpp"

#include <optional>
#include <utility>

#include "ctrl/webhook/conversion/internal/document.hpp"

namespace ctrl::webhook::conversion {
namespace {

// Removes the annotation key from object; drops metadata.annotations when it is left empty, so an
// object that had none does not gain an empty map.
void RemoveAnnotation(Object& object, const std::string& key) {
    std::map<std::string, std::string> annotations = object.Annotations();
    if (annotations.erase(key) == 0)
        return;
    if (annotations.empty())
        (void)object.RemoveNestedField({"metadata", "annotations"});
    else
        object.SetAnnotations(annotations);
}

std::string Join(const std::vector<std::string>& names) {
    std::string joined;
    for (const std::string& name : names)
        joined += (joined.empty() ? "" : ", ") + name;
    return joined;
}

}  // namespace

std::string KeptContentAnnotation(std::string_view version) {
    return std::string(kKeptContentAnnotationPrefix) + std::string(version);
}

Converter::Converter(GroupVersionKind hub) : hub_(std::move(hub)) {}

Status Converter::AddSpoke(SpokeConversion spoke) {
    const std::string what = "conversion of " + hub_.kind + " (" + hub_.group + "): spoke " + spoke.version;
    if (spoke.version.empty())
        return BadRequestError("conversion of " + hub_.kind + " (" + hub_.group + "): a spoke has no version");
    if (spoke.version == hub_.version)
        return BadRequestError(what + " is the hub's version");
    if (!spoke.to_hub || !spoke.from_hub)
        return BadRequestError(what + " lacks a conversion to or from the hub");
    if (Spoke(spoke.version) != nullptr)
        return AlreadyExistsError(what + " was added before");
    spokes_.push_back(std::move(spoke));
    return OkStatus();
}

std::vector<std::string> Converter::Versions() const {
    std::vector<std::string> versions = {hub_.version};
    for (const SpokeConversion& spoke : spokes_)
        versions.push_back(spoke.version);
    return versions;
}

bool Converter::HasVersion(std::string_view version) const {
    return version == hub_.version || Spoke(version) != nullptr;
}

const SpokeConversion* Converter::Spoke(std::string_view version) const {
    for (const SpokeConversion& spoke : spokes_) {
        if (spoke.version == version)
            return &spoke;
    }
    return nullptr;
}

std::string Converter::Describe(const Object& object) const {
    std::string name(object.Name());
    if (!object.Namespace().empty())
        name = std::string(object.Namespace()) + "/" + name;
    return hub_.kind + (name.empty() ? std::string(" (no name)") : " " + name);
}

Object Converter::Fresh(std::string_view version, const Object& metadata_from) const {
    Object fresh;
    fresh.SetApiVersion(GroupVersion(hub_.group, std::string(version)).String());
    fresh.SetKind(hub_.kind);
    if (std::optional<Object> metadata = internal::ValueAt(metadata_from, {"metadata"});
        metadata && metadata->IsJsonObject())
        (void)fresh.SetNestedField({"metadata"}, *metadata);
    return fresh;
}

StatusOr<Object> Converter::Through(const Object& from, std::string_view from_version,
                                    std::string_view to_version) const {
    const auto api_version = [this](std::string_view version) {
        return GroupVersion(hub_.group, std::string(version)).String();
    };
    if (from_version == to_version)
        return from.DeepCopy();
    std::optional<Object> via_hub;
    if (from_version != hub_.version) {
        via_hub = Fresh(hub_.version, from);
        if (Status converted = Spoke(from_version)->to_hub(from, *via_hub); !converted.Ok())
            return converted.Annotate("converting " + Describe(from) + " from " + api_version(from_version) +
                                      " to the hub " + api_version(hub_.version));
        if (to_version == hub_.version)
            return std::move(*via_hub);
    }
    const Object& hub = via_hub ? *via_hub : from;
    Object to = Fresh(to_version, hub);
    if (Status converted = Spoke(to_version)->from_hub(hub, to); !converted.Ok())
        return converted.Annotate("converting " + Describe(from) + " from the hub " + api_version(hub_.version) +
                                  " to " + api_version(to_version));
    return to;
}

Status Converter::RestoreKept(const Object& from, std::string_view from_version, std::string_view to_version,
                              Object& converted) const {
    const std::string key = KeptContentAnnotation(to_version);
    const std::optional<std::string_view> kept = from.Annotation(key);
    if (!kept)
        return OkStatus();
    const std::string where = Describe(from) + ": annotation " + key;
    StatusOr<Object> mine = Object::Parse(*kept);
    if (!mine.Ok())
        return BadRequestError(where + " is not JSON: " + mine.GetStatus().Message());
    if (!mine->IsJsonObject())
        return BadRequestError(where + " is not a JSON object");
    Object saved = Fresh(to_version, from);
    internal::SetContent(saved, *mine);
    // What the saved object looked like once said in from_version and converted back.
    StatusOr<Object> said = Through(saved, to_version, from_version);
    if (!said.Ok())
        return said.GetStatus().Annotate(where);
    StatusOr<Object> base = Through(*said, from_version, to_version);
    if (!base.Ok())
        return base.GetStatus().Annotate(where);
    internal::SetContent(converted,
                         internal::MergeThreeWay(internal::ContentOf(*base), internal::ContentOf(converted), *mine));
    return OkStatus();
}

StatusOr<Object> Converter::Convert(const Object& object, std::string_view version) const {
    StatusOr<GroupVersionKind> gvk = object.GetGroupVersionKind();
    if (!gvk.Ok())
        return gvk.GetStatus().Annotate("cannot convert " + Describe(object));
    if (gvk->group != hub_.group || gvk->kind != hub_.kind)
        return BadRequestError("cannot convert a " + gvk->String() + " with the conversion of " + hub_.kind + " (" +
                               hub_.group + ")");
    if (!HasVersion(gvk->version))
        return NotFoundError("cannot convert " + Describe(object) + " from " + gvk->ApiVersion() + ": " + gvk->version +
                             " is not a version of " + hub_.kind + " that converts (" + Join(Versions()) + ")");
    if (!HasVersion(version))
        return NotFoundError("cannot convert " + Describe(object) + " to " + hub_.group + "/" + std::string(version) +
                             ": " + std::string(version) + " is not a version of " + hub_.kind + " that converts (" +
                             Join(Versions()) + ")");
    if (gvk->version == version)
        return object.DeepCopy();
    CTRL_ASSIGN_OR_RETURN(Object converted, Through(object, gvk->version, version));
    CTRL_RETURN_IF_ERROR(RestoreKept(object, gvk->version, version, converted));
    RemoveAnnotation(converted, KeptContentAnnotation(version));
    RemoveAnnotation(converted, KeptContentAnnotation(gvk->version));
    // What version cannot say of object is kept for the way back.
    StatusOr<Object> back = Through(converted, version, gvk->version);
    const Object content = internal::ContentOf(object);
    if (!back.Ok() || internal::ContentOf(*back) != content)
        converted.SetAnnotation(KeptContentAnnotation(gvk->version), content.ToJson());
    return converted;
}

}  // namespace ctrl::webhook::conversion
