#include "ctrl/scheme/scheme.hpp"

#include <cxxabi.h>

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <utility>

namespace ctrl::scheme {

namespace {

// "ctrl::api::Pod" rather than the mangled name, for messages.
std::string Demangle(const char* mangled) {
    int status = 0;
    std::unique_ptr<char, decltype(&std::free)> demangled(abi::__cxa_demangle(mangled, nullptr, nullptr, &status),
                                                          &std::free);
    return status == 0 && demangled != nullptr ? std::string(demangled.get()) : std::string(mangled);
}

std::string Quoted(std::string_view s) {
    return "\"" + std::string(s) + "\"";
}

}  // namespace

bool IsNotRegistered(const Status& status) {
    return IsNotFound(status) && status.Reason() == kNotRegisteredReason;
}

Scheme::Scheme(std::string name) : name_(std::move(name)) {}

Status Scheme::AddKnownTypes(std::vector<Registration> registrations) {
    // Check every registration before changing anything, so a failed call registers nothing.
    for (const Registration& r : registrations) {
        if (r.gvk.version.empty())
            return BadRequestError("cannot register " + Demangle(r.type.name()) + ": its version is empty");
        if (r.gvk.kind.empty())
            return BadRequestError("cannot register " + Demangle(r.type.name()) + ": its kind is empty");
        auto existing = kinds_.find(r.gvk);
        if (existing != kinds_.end() && existing->second.type != r.type) {
            return AlreadyExistsError("double registration of different types for " + r.gvk.String() + ": " +
                                      existing->second.type_name + " and " + Demangle(r.type.name()));
        }
    }
    for (Registration& r : registrations) {
        if (kinds_.contains(r.gvk))
            continue;
        kinds_.emplace(r.gvk, Entry{r.type, Demangle(r.type.name()), r.is_list, r.factory, std::move(r.paired)});
        types_[r.type].push_back(r.gvk);
        GroupVersion gv = r.gvk.ToGroupVersion();
        if (std::find(versions_.begin(), versions_.end(), gv) == versions_.end())
            versions_.push_back(std::move(gv));
    }
    return OkStatus();
}

Status Scheme::NotRegistered(const GroupVersionKind& gvk) const {
    std::string message;
    if (gvk.kind.empty()) {
        message = "no version " + Quoted(gvk.ApiVersion()) + " has been registered in scheme " + Quoted(name_);
    } else {
        message = "no kind " + Quoted(gvk.kind) + " is registered for version " + Quoted(gvk.ApiVersion()) +
                  " in scheme " + Quoted(name_);
    }
    return NotFoundError(std::move(message)).WithReason(std::string(kNotRegisteredReason));
}

StatusOr<std::vector<GroupVersionKind>> Scheme::ObjectKindsFor(std::type_index type) const {
    auto it = types_.find(type);
    if (it == types_.end()) {
        return NotFoundError("no kind is registered for the type " + Demangle(type.name()) + " in scheme " +
                             Quoted(name_))
            .WithReason(std::string(kNotRegisteredReason));
    }
    return it->second;
}

StatusOr<std::type_index> Scheme::TypeFor(const GroupVersionKind& gvk) const {
    auto it = kinds_.find(gvk);
    if (it == kinds_.end())
        return NotRegistered(gvk);
    return it->second.type;
}

bool Scheme::Recognizes(const GroupVersionKind& gvk) const {
    return kinds_.contains(gvk);
}

bool Scheme::IsGroupRegistered(std::string_view group) const {
    return std::any_of(versions_.begin(), versions_.end(), [&](const GroupVersion& gv) { return gv.group == group; });
}

bool Scheme::IsVersionRegistered(const GroupVersion& gv) const {
    return std::find(versions_.begin(), versions_.end(), gv) != versions_.end();
}

std::vector<std::string> Scheme::VersionsForGroup(std::string_view group) const {
    std::vector<std::string> out;
    for (const GroupVersion& gv : versions_) {
        if (gv.group == group)
            out.push_back(gv.version);
    }
    return out;
}

StatusOr<Object> Scheme::New(const GroupVersionKind& gvk) const {
    auto it = kinds_.find(gvk);
    if (it == kinds_.end())
        return NotRegistered(gvk);
    if (it->second.is_list) {
        Object list;
        list.SetGroupVersionKind(gvk);
        CTRL_RETURN_IF_ERROR(list.SetNestedStringSlice({"items"}, {}));
        return list;
    }
    Object object = it->second.factory();
    object.SetGroupVersionKind(gvk);
    return object;
}

StatusOr<ObjectList> Scheme::NewList(const GroupVersionKind& list_gvk) const {
    auto it = kinds_.find(list_gvk);
    if (it == kinds_.end())
        return NotRegistered(list_gvk);
    if (!it->second.is_list)
        return BadRequestError(list_gvk.String() + " is not a list kind in scheme " + Quoted(name_));
    ObjectList list;
    list.SetGroupVersionKind(list_gvk);
    return list;
}

bool Scheme::IsListKind(const GroupVersionKind& gvk) const {
    auto it = kinds_.find(gvk);
    return it != kinds_.end() && it->second.is_list;
}

StatusOr<GroupVersionKind> Scheme::ListKindFor(const GroupVersionKind& item_gvk) const {
    auto it = kinds_.find(item_gvk);
    if (it == kinds_.end() || it->second.is_list)
        return NotRegistered(item_gvk);
    return it->second.paired;
}

StatusOr<GroupVersionKind> Scheme::ItemKindFor(const GroupVersionKind& list_gvk) const {
    auto it = kinds_.find(list_gvk);
    if (it == kinds_.end() || !it->second.is_list)
        return NotRegistered(list_gvk);
    return it->second.paired;
}

std::map<std::string, std::type_index> Scheme::KnownTypes(const GroupVersion& gv) const {
    std::map<std::string, std::type_index> out;
    for (const auto& [gvk, entry] : kinds_) {
        if (gvk.group == gv.group && gvk.version == gv.version)
            out.emplace(gvk.kind, entry.type);
    }
    return out;
}

std::map<GroupVersionKind, std::type_index> Scheme::AllKnownTypes() const {
    std::map<GroupVersionKind, std::type_index> out;
    for (const auto& [gvk, entry] : kinds_)
        out.emplace(gvk, entry.type);
    return out;
}

std::vector<KnownType> Scheme::AllKnownTypeInfo() const {
    std::vector<KnownType> out;
    out.reserve(kinds_.size());
    for (const auto& [gvk, entry] : kinds_)
        out.push_back(KnownType{gvk, entry.type, entry.type_name, entry.is_list});
    std::sort(out.begin(), out.end(), [](const KnownType& a, const KnownType& b) { return a.gvk < b.gvk; });
    return out;
}

}  // namespace ctrl::scheme
