#pragma once

#include <concepts>
#include <ranges>
#include <string_view>
#include <utility>
#include <vector>

#include "ctrl/core/object.hpp"
#include "ctrl/core/object_list.hpp"
#include "ctrl/core/status_or.hpp"
#include "ctrl/scheme/typed_object.hpp"

namespace ctrl::scheme {

namespace internal {
// Makes list a list of item_gvk's kind: a missing apiVersion or kind is set, items get theirs
// (FillItemTypeMeta); a list or item of another kind is BadRequest, with the list unchanged.
Status AdoptListKind(ObjectList& list, const StaticGroupVersionKind& item_gvk, std::string_view list_kind);
}  // namespace internal

// The list of a typed kind (PodList is TypedList<Pod>): an ObjectList whose apiVersion and kind
// are T's list kind, so it can be passed wherever an ObjectList is read into. Items stay Objects
// (each with its own pool); TakeItems moves them out as T, Views reads them in place through
// T::View when T has one. Move-only, like ObjectList.
template <TypedObject T>
class TypedList final : public ObjectList {
  public:
    using Item = T;
    static constexpr StaticGroupVersionKind kGroupVersionKind{T::kGroupVersionKind.group, T::kGroupVersionKind.version,
                                                              T::kListKind};

    // An empty list with apiVersion and kind set.
    TypedList() { SetGroupVersionKind(kGroupVersionKind.ToGroupVersionKind()); }

    // Takes list's items (no copy). A missing apiVersion or kind, on the list or its items, is
    // set; another kind is BadRequest.
    static StatusOr<TypedList> FromObjectList(ObjectList&& list) {
        CTRL_RETURN_IF_ERROR(internal::AdoptListKind(list, T::kGroupVersionKind, T::kListKind));
        TypedList typed;
        static_cast<ObjectList&>(typed) = std::move(list);
        return typed;
    }
    // Parses a List response, then FromObjectList.
    static StatusOr<TypedList> Parse(std::string_view json) {
        CTRL_ASSIGN_OR_RETURN(ObjectList list, ObjectList::Parse(json));
        return FromObjectList(std::move(list));
    }
    TypedList DeepCopy() const {
        TypedList copy;
        static_cast<ObjectList&>(copy) = ObjectList::DeepCopy();
        return copy;
    }

    // Appends item (no copy).
    void AddItem(T&& item) { Items().emplace_back(std::move(item)); }

    // Moves every item out as T and leaves the list empty. An item of another kind (one added
    // through Items()) is BadRequest, with the list unchanged.
    StatusOr<std::vector<T>> TakeItems() {
        CTRL_RETURN_IF_ERROR(internal::AdoptListKind(*this, T::kGroupVersionKind, T::kListKind));
        std::vector<T> out;
        out.reserve(Items().size());
        for (Object& item : Items()) {
            StatusOr<T> typed = T::FromObject(std::move(item));
            if (!typed.Ok())
                return typed.GetStatus();  // not reached: AdoptListKind checked every item
            out.push_back(std::move(typed).Value());
        }
        Items().clear();
        return out;
    }

    // The items read in place through T's view: `for (api::PodView pod : list.Views())`.
    auto Views() const requires requires { typename T::View; }
    {
        return std::views::transform(Items(), [](const Object& item) { return typename T::View(item); });
    }
};

// A list type the client can read into: an ObjectList of a typed kind, with the list kind static.
template <typename L>
concept TypedObjectList = std::derived_from<L, ObjectList> && requires {
    typename L::Item;
    { L::kGroupVersionKind } -> std::convertible_to<StaticGroupVersionKind>;
} && TypedObject<typename L::Item>;

}  // namespace ctrl::scheme
