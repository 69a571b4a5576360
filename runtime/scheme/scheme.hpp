#pragma once

#include <map>
#include <string>
#include <string_view>
#include <typeindex>
#include <typeinfo>
#include <unordered_map>
#include <vector>

#include "ctrl/core/gvk.hpp"
#include "ctrl/core/object.hpp"
#include "ctrl/core/object_list.hpp"
#include "ctrl/core/status_or.hpp"
#include "ctrl/scheme/typed_list.hpp"
#include "ctrl/scheme/typed_object.hpp"

namespace ctrl::scheme {

// The Reason of the status a Scheme returns for a kind or type it does not know. Its code is
// NotFound: the scheme has no entry. It is never NoMatch, which means "the API server serves no
// such kind" (a RESTMapper's answer); a kind missing from the scheme is the program's own gap.
inline constexpr std::string_view kNotRegisteredReason = "NotRegistered";

// Whether status is a Scheme's "not registered" (runtime.IsNotRegisteredError).
bool IsNotRegistered(const Status& status);

// One registered kind: its GVK, the C++ type that holds it, and whether it is a list kind.
struct KnownType {
    GroupVersionKind gvk;
    std::type_index type;
    std::string type_name;  // demangled: "ctrl::api::Pod"
    bool is_list = false;
};

// Maps C++ types to GroupVersionKinds and back (apimachinery's runtime.Scheme): which typed kinds
// the program knows, what kind an object of a type is, and how to make a fresh object of a kind.
// Filled by registration functions (api::corev1::AddToScheme, a user's own AddToScheme), each
// adding its kinds with AddKnownType<T>(), which also registers T's list kind (TypedList<T>).
//
// Thread-safety: a Scheme is built at startup by one thread and then only read. Registration is
// not synchronized and must happen before the scheme is shared (before a client, cache or manager
// is given it); const methods are safe from any number of threads after that.
class Scheme final {
  public:
    // name appears in "not registered" messages, as Go's scheme name does.
    explicit Scheme(std::string name = "ctrl");
    Scheme(Scheme&&) noexcept = default;
    Scheme& operator=(Scheme&&) noexcept = default;
    Scheme(const Scheme&) = delete;
    Scheme& operator=(const Scheme&) = delete;

    const std::string& Name() const { return name_; }

    // Registers typed kind T under T::kGroupVersionKind and TypedList<T> under its list kind.
    // Registering the same type again is a no-op; a kind already held by another type is
    // AlreadyExists ("double registration of different types"), with nothing registered.
    template <TypedObject T>
    Status AddKnownType() {
        return AddKnownTypes({
            Registration{GroupVersionKindOf<T>(), std::type_index(typeid(T)), false, &NewTyped<T>,
                         ListGroupVersionKindOf<T>()},
            Registration{ListGroupVersionKindOf<T>(), std::type_index(typeid(TypedList<T>)), true, nullptr,
                         GroupVersionKindOf<T>()},
        });
    }

    // The kinds type is registered under, in registration order (the first is the preferred).
    // NotRegistered (NotFound) when there is none.
    template <typename T>
    StatusOr<std::vector<GroupVersionKind>> ObjectKinds() const {
        return ObjectKindsFor(std::type_index(typeid(T)));
    }
    StatusOr<std::vector<GroupVersionKind>> ObjectKindsFor(std::type_index type) const;
    // The one kind of T, for the common case: the first of ObjectKinds<T>().
    template <typename T>
    StatusOr<GroupVersionKind> ObjectKind() const {
        CTRL_ASSIGN_OR_RETURN(std::vector<GroupVersionKind> kinds, ObjectKinds<T>());
        return kinds.front();
    }

    // The type registered for gvk; NotRegistered when there is none.
    StatusOr<std::type_index> TypeFor(const GroupVersionKind& gvk) const;
    // Whether gvk is registered (as an object or a list kind).
    bool Recognizes(const GroupVersionKind& gvk) const;
    template <typename T>
    bool IsRegistered() const {
        return types_.contains(std::type_index(typeid(T)));
    }
    // Whether some kind of the group, or of the group version, is registered.
    bool IsGroupRegistered(std::string_view group) const;
    bool IsVersionRegistered(const GroupVersion& gv) const;
    // The registered versions of group, in the order they were first registered.
    std::vector<std::string> VersionsForGroup(std::string_view group) const;

    // A fresh object of gvk with apiVersion and kind set (and, for a typed kind, whatever its
    // default constructor sets). A list kind gives the JSON list {"apiVersion", "kind", "items": []}.
    // NotRegistered when gvk is not registered:
    //   no kind "Widget" is registered for version "example.com/v1" in scheme "ctrl"
    StatusOr<Object> New(const GroupVersionKind& gvk) const;
    // An empty list of list_gvk (a registered list kind) with apiVersion and kind set.
    StatusOr<ObjectList> NewList(const GroupVersionKind& list_gvk) const;

    // Whether gvk is a registered list kind (PodList).
    bool IsListKind(const GroupVersionKind& gvk) const;
    // PodList for Pod; NotRegistered when item_gvk is not a registered object kind.
    StatusOr<GroupVersionKind> ListKindFor(const GroupVersionKind& item_gvk) const;
    // Pod for PodList; NotRegistered when list_gvk is not a registered list kind.
    StatusOr<GroupVersionKind> ItemKindFor(const GroupVersionKind& list_gvk) const;

    // Kind -> type for one group version (Go's KnownTypes), list kinds included.
    std::map<std::string, std::type_index> KnownTypes(const GroupVersion& gv) const;
    // Every registered kind -> type (Go's AllKnownTypes).
    std::map<GroupVersionKind, std::type_index> AllKnownTypes() const;
    // Every registered kind with its type name and list flag, ordered by GVK.
    std::vector<KnownType> AllKnownTypeInfo() const;

  private:
    using Factory = Object (*)();
    struct Registration {
        GroupVersionKind gvk;
        std::type_index type;
        bool is_list;
        Factory factory;          // null for list kinds
        GroupVersionKind paired;  // the list kind of an object kind; the item kind of a list kind
    };
    struct Entry {
        std::type_index type;
        std::string type_name;
        bool is_list;
        Factory factory;
        GroupVersionKind paired;
    };

    template <TypedObject T>
    static Object NewTyped() {
        return Object(T());
    }

    Status AddKnownTypes(std::vector<Registration> registrations);
    Status NotRegistered(const GroupVersionKind& gvk) const;

    std::string name_;
    std::unordered_map<GroupVersionKind, Entry> kinds_;
    std::unordered_map<std::type_index, std::vector<GroupVersionKind>> types_;
    std::vector<GroupVersion> versions_;  // in first-registration order
};

}  // namespace ctrl::scheme
