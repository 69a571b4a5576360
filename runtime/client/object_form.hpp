#pragma once

#include <concepts>
#include <type_traits>
#include <utility>

#include "ctrl/core/object.hpp"
#include "ctrl/core/object_list.hpp"
#include "ctrl/scheme/typed_list.hpp"
#include "ctrl/scheme/typed_object.hpp"

namespace ctrl::client {

// How the client reads and writes an object, chosen by its C++ type (the client's templates
// pass it to the virtual calls):
//   kTyped        a typed kind (api::Pod, TypedList<Pod>): the kind must be in the Scheme.
//   kUnstructured a plain Object / ObjectList: the kind is the object's apiVersion and kind.
//   kMetadata     PartialObjectMetadata(List): only apiVersion, kind and metadata travel.
enum class ObjectForm { kTyped, kUnstructured, kMetadata };

// An object whose metadata only is read and written (metav1.PartialObjectMetadata). Its
// apiVersion and kind name the kind it stands for ("v1", "Pod"), not PartialObjectMetadata:
// the client asks the server for the metadata form with the Accept header
// `application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1` and sets them back after.
class PartialObjectMetadata final : public Object {
  public:
    PartialObjectMetadata() = default;
    explicit PartialObjectMetadata(const GroupVersionKind& gvk) { SetGroupVersionKind(gvk); }
    // Takes object's document (no copy).
    explicit PartialObjectMetadata(Object&& object) : Object(std::move(object)) {}

    PartialObjectMetadata DeepCopy() const { return PartialObjectMetadata(Object::DeepCopy()); }
};

// A list of PartialObjectMetadata. Its apiVersion and kind name the list kind it stands for
// ("v1", "PodList"); items come back with the item kind's apiVersion and kind.
class PartialObjectMetadataList final : public ObjectList {
  public:
    PartialObjectMetadataList() = default;
    // A list of item_gvk's objects: apiVersion from it, kind "<Kind>List".
    explicit PartialObjectMetadataList(const GroupVersionKind& item_gvk) { SetItemGroupVersionKind(item_gvk); }
};

// What the client's templates accept: Object itself or a class that is one with no state of
// its own (a typed kind, PartialObjectMetadata).
template <typename T>
concept ClientObject = std::derived_from<T, Object> && sizeof(T) == sizeof(Object);
template <typename L>
concept ClientObjectList = std::derived_from<L, ObjectList> && sizeof(L) == sizeof(ObjectList);

// The form of object type T.
template <ClientObject T>
constexpr ObjectForm FormOf() {
    if constexpr (std::is_same_v<T, PartialObjectMetadata>) {
        return ObjectForm::kMetadata;
    } else if constexpr (std::is_same_v<T, Object>) {
        return ObjectForm::kUnstructured;
    } else {
        static_assert(scheme::TypedObject<T>, "a client object is an Object, a typed kind or PartialObjectMetadata");
        return ObjectForm::kTyped;
    }
}

// The form of list type L.
template <ClientObjectList L>
constexpr ObjectForm ListFormOf() {
    if constexpr (std::is_same_v<L, PartialObjectMetadataList>) {
        return ObjectForm::kMetadata;
    } else if constexpr (std::is_same_v<L, ObjectList>) {
        return ObjectForm::kUnstructured;
    } else {
        static_assert(scheme::TypedObjectList<L>, "a client list is an ObjectList, a TypedList or a metadata list");
        return ObjectForm::kTyped;
    }
}

}  // namespace ctrl::client
