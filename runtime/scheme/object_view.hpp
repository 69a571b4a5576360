#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ctrl/core/gvk.hpp"
#include "ctrl/core/object.hpp"

namespace ctrl::scheme {

// A read-only view of an Object someone else owns (a cached object shared as const, an item of
// a list): the base of the typed views (api::PodView, ...). Knows the object's type and metadata;
// the typed view adds the kind's accessors. Cheap to copy (one pointer). The caller guarantees
// the object outlives the view and is not written to while the view is read.
class ObjectView {
  public:
    explicit ObjectView(const Object& object) : object_(&object) {}

    const Object& AsObject() const { return *object_; }

    std::string_view ApiVersion() const { return object_->ApiVersion(); }
    std::string_view Kind() const { return object_->Kind(); }
    std::string_view Name() const { return object_->Name(); }
    std::string_view Namespace() const { return object_->Namespace(); }
    std::string_view Uid() const { return object_->Uid(); }
    std::string_view ResourceVersion() const { return object_->ResourceVersion(); }
    int64_t Generation() const { return object_->Generation(); }
    std::optional<std::string> CreationTimestamp() const { return object_->CreationTimestamp(); }
    std::optional<std::string> DeletionTimestamp() const { return object_->DeletionTimestamp(); }
    ObjectKey Key() const { return object_->Key(); }
    std::map<std::string, std::string> Labels() const { return object_->Labels(); }
    std::optional<std::string_view> Label(std::string_view key) const { return object_->Label(key); }
    std::map<std::string, std::string> Annotations() const { return object_->Annotations(); }
    std::optional<std::string_view> Annotation(std::string_view key) const { return object_->Annotation(key); }
    std::vector<OwnerReference> OwnerReferences() const { return object_->OwnerReferences(); }
    std::vector<std::string> Finalizers() const { return object_->Finalizers(); }

  private:
    const Object* object_;
};

}  // namespace ctrl::scheme
