#include "ctrl/client/patch.hpp"

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <optional>
#include <utility>

#include "ctrl/client/internal/json_patch.hpp"
#include "ctrl/client/internal/merge_patch.hpp"
#include "ctrl/client/internal/strategic_merge_patch.hpp"
#include "ctrl/client/internal/strategic_merge_schema.hpp"
#include "ctrl/core/internal/json.hpp"

namespace ctrl::client {
namespace {

// "Pod default/web", for messages.
std::string Describe(const Object& object) {
    std::string text(object.Kind().empty() ? "object" : object.Kind());
    text.append(" ");
    if (!object.Namespace().empty())
        text.append(object.Namespace()).append("/");
    text.append(object.Name().empty() ? "(unnamed)" : object.Name());
    return text;
}

// The original a patch is computed from. With the optimistic lock, lock_version is the original's
// resourceVersion (empty when it had none: Data then fails) and, when strip_version, the diff base
// is a copy without it, so a merge patch carries the version (controller-runtime's
// MergeFromWithOptimisticLock clears it on the original and sets it on the modified object).
class Original {
  public:
    Original(const Object& original, const MergeFromOptions& options, bool strip_version)
        : description(Describe(original)), original_(&original) {
        if (!options.optimistic_lock)
            return;
        lock_version = std::string(original.ResourceVersion());
        if (strip_version && !lock_version->empty()) {
            stripped_ = original.DeepCopy();
            stripped_->RemoveNestedField({"metadata", "resourceVersion"});
        }
    }
    Original(const Original&) = delete;
    Original& operator=(const Original&) = delete;

    // What the patch is computed against.
    const Object& Base() const { return stripped_ ? *stripped_ : *original_; }

    std::optional<std::string> lock_version;
    std::string description;

  private:
    const Object* original_;
    std::optional<Object> stripped_;
};

// The object to diff against the original: object itself, or under the lock a copy in scratch
// whose resourceVersion is the original's (only when it differs).
StatusOr<const Object*> Modified(const Original& original, const Object& object, Object& scratch) {
    if (!original.lock_version)
        return &object;
    if (original.lock_version->empty()) {
        return BadRequestError("cannot use the optimistic lock: the original " + original.description +
                               " has no resourceVersion");
    }
    if (object.ResourceVersion() == *original.lock_version)
        return &object;
    scratch = object.DeepCopy();
    scratch.SetResourceVersion(*original.lock_version);
    return &scratch;
}

// The patch metadata of the original's kind (of the object's when the original names none).
StatusOr<const internal::PatchSchema*> StrategicSchema(const std::optional<GroupVersionKind>& original_kind,
                                                       const Object& object, std::string_view description) {
    GroupVersionKind kind;
    if (original_kind) {
        kind = *original_kind;
    } else {
        StatusOr<GroupVersionKind> object_kind = object.GetGroupVersionKind();
        if (!object_kind.Ok()) {
            return BadRequestError("cannot compute a strategic merge patch for " + std::string(description) +
                                   ": it has no apiVersion and kind to find its patch merge keys by");
        }
        kind = std::move(object_kind).Value();
    }
    const internal::PatchSchema* schema = internal::FindPatchSchema(kind);
    if (schema == nullptr) {
        return BadRequestError("strategic merge patch is not supported for " + kind.String() +
                               ": the runtime knows the patch merge keys of built-in kinds only; use MergeFrom");
    }
    return schema;
}

// The JSON of object without metadata.managedFields, written without copying the object.
std::string JsonWithoutManagedFields(const Object& object) {
    const ctrl::internal::JsonValue& root = object.Document().Root();
    if (!object.HasManagedFields())
        return object.ToJson();
    rapidjson::StringBuffer buffer;
    rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
    writer.StartObject();
    for (auto it = root.MemberBegin(); it != root.MemberEnd(); ++it) {
        writer.Key(it->name.GetString(), it->name.GetStringLength());
        if (ctrl::internal::JsonView(it->name) != "metadata" || !it->value.IsObject()) {
            it->value.Accept(writer);
            continue;
        }
        writer.StartObject();
        for (auto field = it->value.MemberBegin(); field != it->value.MemberEnd(); ++field) {
            if (ctrl::internal::JsonView(field->name) == "managedFields")
                continue;
            writer.Key(field->name.GetString(), field->name.GetStringLength());
            field->value.Accept(writer);
        }
        writer.EndObject();
    }
    writer.EndObject();
    return std::string(buffer.GetString(), buffer.GetSize());
}

}  // namespace

std::string_view PatchContentType(PatchType type) {
    switch (type) {
        case PatchType::kJsonPatch:
            return "application/json-patch+json";
        case PatchType::kMergePatch:
            return "application/merge-patch+json";
        case PatchType::kStrategicMergePatch:
            return "application/strategic-merge-patch+json";
        case PatchType::kApply:
            return "application/apply-patch+yaml";
    }
    return "application/merge-patch+json";
}

Patch RawPatch(PatchType type, std::string_view data) {
    Patch patch(type, Patch::Source::kRaw);
    patch.raw_ = data;
    return patch;
}

Patch Patch::FromOriginal(PatchType type, Source source, const Object& original, MergeFromOptions options) {
    Patch patch(type, source);
    patch.original_ = &original;
    patch.options_ = options;
    return patch;
}

Patch MergeFrom(const Object& original, MergeFromOptions options) {
    return Patch::FromOriginal(PatchType::kMergePatch, Patch::Source::kMergeFrom, original, options);
}

Patch StrategicMergeFrom(const Object& original, MergeFromOptions options) {
    return Patch::FromOriginal(PatchType::kStrategicMergePatch, Patch::Source::kStrategicMergeFrom, original, options);
}

Patch JsonPatchFrom(const Object& original, MergeFromOptions options) {
    return Patch::FromOriginal(PatchType::kJsonPatch, Patch::Source::kJsonPatchFrom, original, options);
}

Patch Apply() {
    return Patch(PatchType::kApply, Patch::Source::kApply);
}

StatusOr<std::string> Patch::Data(const Object& object) const {
    switch (source_) {
        case Source::kRaw:
            return std::string(raw_);
        case Source::kApply:
            return JsonWithoutManagedFields(object);
        case Source::kMergeFrom: {
            const Original from(*original_, options_, /*strip_version=*/true);
            Object scratch;
            CTRL_ASSIGN_OR_RETURN(const Object* modified, Modified(from, object, scratch));
            return internal::CreateMergePatch(from.Base(), *modified);
        }
        case Source::kStrategicMergeFrom: {
            StatusOr<GroupVersionKind> gvk = original_->GetGroupVersionKind();
            std::optional<GroupVersionKind> original_kind;
            if (gvk.Ok())
                original_kind = std::move(gvk).Value();
            const Original from(*original_, options_, /*strip_version=*/true);
            CTRL_ASSIGN_OR_RETURN(const internal::PatchSchema* schema,
                                  StrategicSchema(original_kind, object, from.description));
            Object scratch;
            CTRL_ASSIGN_OR_RETURN(const Object* modified, Modified(from, object, scratch));
            return internal::CreateTwoWayStrategicMergePatch(from.Base(), *modified, *schema);
        }
        case Source::kJsonPatchFrom: {
            const Original from(*original_, options_, /*strip_version=*/false);
            Object scratch;
            CTRL_ASSIGN_OR_RETURN(const Object* modified, Modified(from, object, scratch));
            return internal::CreateJsonPatch(from.Base(), *modified, from.lock_version);
        }
    }
    return InternalError("unknown patch source");
}

std::string JsonPatchBetween(const Object& original, const Object& modified) {
    return internal::CreateJsonPatch(original, modified);
}

}  // namespace ctrl::client
