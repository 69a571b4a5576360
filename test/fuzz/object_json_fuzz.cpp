// Object JSON: any bytes either fail to parse with a BadRequest, or give an Object whose accessors
// all answer, and — unless it has duplicate member names — whose ToJson parses back to an equal Object and is stable,
// and which survives the cache's compact form (Encode -> Decode) exactly, its metadata readable in place.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "ctrl/cache/internal/compact_value.hpp"
#include "ctrl/cache/internal/intern_table.hpp"
#include "ctrl/core/object.hpp"
#include "test/fuzz/fuzz_input.hpp"

namespace ctrl::fuzz {
namespace {

void ReadEveryAccessor(const Object& object) {
    (void)object.GetGroupVersionKind();
    (void)object.Name();
    (void)object.GenerateName();
    (void)object.Namespace();
    (void)object.Uid();
    (void)object.ResourceVersion();
    (void)object.Generation();
    (void)object.CreationTimestamp();
    (void)object.DeletionTimestamp();
    (void)object.Labels();
    (void)object.Annotations();
    (void)object.OwnerReferences();
    (void)object.Finalizers();
    (void)object.HasManagedFields();
    (void)object.NestedString({"spec", "nodeName"});
    (void)object.NestedInt({"spec", "replicas"});
    (void)object.NestedFloat({"spec", "ratio"});
    (void)object.NestedBool({"spec", "paused"});
    (void)object.NestedStringSlice({"spec", "groupIds"});
    (void)object.NestedStringMap({"metadata", "labels"});
    (void)object.NestedSlice({"spec", "containers"});
    (void)object.NestedMap({"spec"});
}

void CheckCompactForm(const Object& object, const std::string& json) {
    cache::internal::InternTable keys;
    // Encoded twice: the second time, string values seen the first time are interned (value refs).
    (void)cache::internal::CompactValue::Encode(object, keys);
    const cache::internal::CompactValue compact = cache::internal::CompactValue::Encode(object, keys);
    const Object decoded = compact.Decode(keys);
    if (!(decoded == object))
        PropertyFailed("Decode(Encode(x)) != x", json + "\ndecoded: " + decoded.ToJson());
    if (decoded.ToJson() != json)
        PropertyFailed("the compact form changed the JSON text", json + "\ndecoded: " + decoded.ToJson());
    const cache::internal::CompactCursor root(compact.Bytes(), keys);
    if (root.IsObject() != object.IsJsonObject())
        PropertyFailed("the compact cursor disagrees on the root's type", json);
    if (const std::optional<cache::internal::CompactCursor> name = root.Find({"metadata", "name"});
        name && name->IsString() && *name->String() != object.Name())
        PropertyFailed("metadata.name read in place differs", json);
    if (const std::optional<cache::internal::CompactCursor> labels = root.Find({"metadata", "labels"});
        labels && labels->IsObject() && labels->StringMap() != object.Labels())
        PropertyFailed("metadata.labels read in place differ", json);
}

}  // namespace
}  // namespace ctrl::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace ctrl;
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    StatusOr<Object> parsed = Object::Parse(text);
    fuzz::ExpectOkOrBadRequest(parsed.GetStatus(), "a parse error that is not BadRequest");
    if (!parsed.Ok())
        return 0;
    const Object& object = parsed.Value();
    fuzz::ReadEveryAccessor(object);
    if (fuzz::HasDuplicateMembers(object))
        return 0;  // not comparable (fuzz_input.hpp); read above without a crash
    const std::string json = object.ToJson();
    StatusOr<Object> again = Object::Parse(json);
    if (!again.Ok())
        fuzz::PropertyFailed("ToJson wrote what Parse refuses", json + "\n" + again.GetStatus().ToString());
    if (!(again.Value() == object))
        fuzz::PropertyFailed("Parse(ToJson(x)) != x", json);
    if (again.Value().ToJson() != json)
        fuzz::PropertyFailed("ToJson is not stable", json + "\n" + again.Value().ToJson());
    const Object copy = object.DeepCopy();
    if (!(copy == object))
        fuzz::PropertyFailed("DeepCopy(x) != x", json);
    fuzz::CheckCompactForm(object, json);
    return 0;
}
