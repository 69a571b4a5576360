#include "ctrl/fake/internal/object_form.hpp"

#include <utility>

namespace ctrl::fake::internal {

Object InForm(Object stored, client::ObjectForm form, const GroupVersionKind& gvk) {
    if (form != client::ObjectForm::kMetadata) {
        stored.SetGroupVersionKind(gvk);
        return stored;
    }
    Object metadata;
    metadata.SetGroupVersionKind(gvk);
    StatusOr<Object> meta = stored.NestedMap({"metadata"});
    if (meta.Ok())
        (void)metadata.SetNestedField({"metadata"}, *meta);
    return metadata;
}

void ListInForm(ObjectList& list, client::ObjectForm form, const GroupVersionKind& item_gvk) {
    list.SetItemGroupVersionKind(item_gvk);
    for (Object& item : list.Items())
        item = InForm(std::move(item), form, item_gvk);
}

}  // namespace ctrl::fake::internal
