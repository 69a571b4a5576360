#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "ctrl/api/timestamp.hpp"
#include "ctrl/core/object.hpp"
#include "ctrl/scheme/object_view.hpp"
#include "ctrl/scheme/typed_list.hpp"
#include "ctrl/scheme/typed_object.hpp"

namespace ctrl::api {

// The read accessors of a Lease, shared by Lease and LeaseView: what leader election reads. Every
// field is optional, as in the API; acquireTime and renewTime are MicroTimes.
template <typename Self>
class LeaseFields {
  public:
    // spec.holderIdentity: who holds the lease; nullopt when unset, "" after a release.
    std::optional<std::string_view> HolderIdentity() const;
    std::optional<int64_t> LeaseDurationSeconds() const;
    std::optional<Timestamp> AcquireTime() const;
    std::optional<Timestamp> RenewTime() const;
    std::optional<int64_t> LeaseTransitions() const;

  private:
    const Object& Obj() const { return static_cast<const Self&>(*this).AsObject(); }
};

class LeaseView;

// coordination.k8s.io/v1 Lease. Setters given nullopt remove the field; times are written as
// MicroTime ("2024-05-01T10:00:00.123456Z").
class Lease final : public scheme::TypedObjectBase<Lease>, public LeaseFields<Lease> {
  public:
    static constexpr scheme::StaticGroupVersionKind kGroupVersionKind{"coordination.k8s.io", "v1", "Lease"};
    static constexpr std::string_view kListKind = "LeaseList";
    using View = LeaseView;
    using TypedObjectBase::TypedObjectBase;

    void SetHolderIdentity(std::optional<std::string_view> holder);
    void SetLeaseDurationSeconds(std::optional<int64_t> seconds);
    void SetAcquireTime(std::optional<Timestamp> time);
    void SetRenewTime(std::optional<Timestamp> time);
    void SetLeaseTransitions(std::optional<int64_t> transitions);
};

// A read-only Lease view of an object owned elsewhere.
class LeaseView final : public scheme::ObjectView, public LeaseFields<LeaseView> {
  public:
    explicit LeaseView(const Object& object) : ObjectView(object) {}
    LeaseView(const Lease& lease) : ObjectView(lease) {}  // NOLINT(google-explicit-constructor)
    LeaseView(Lease&&) = delete;
};

using LeaseList = scheme::TypedList<Lease>;

extern template class LeaseFields<Lease>;
extern template class LeaseFields<LeaseView>;

}  // namespace ctrl::api
