#include "ctrl/api/lease.hpp"

#include "ctrl/api/internal/fields.hpp"
#include "ctrl/api/timestamp.hpp"

namespace ctrl::api {

namespace {

std::optional<Timestamp> SpecTime(const Object& object, std::string_view field) {
    const std::optional<std::string_view> text = internal::OptString(internal::Find(object, {"spec", field}));
    return text ? ParseRfc3339(*text) : std::nullopt;
}

void SetSpecTime(Object& object, std::string_view field, std::optional<Timestamp> time) {
    if (time)
        internal::SetString(object, {"spec", field}, FormatRfc3339Micro(*time));
    else
        internal::Remove(object, {"spec", field});
}

void SetSpecInt(Object& object, std::string_view field, std::optional<int64_t> value) {
    if (value)
        internal::SetInt(object, {"spec", field}, *value);
    else
        internal::Remove(object, {"spec", field});
}

}  // namespace

template <typename Self>
std::optional<std::string_view> LeaseFields<Self>::HolderIdentity() const {
    return internal::OptString(internal::Find(Obj(), {"spec", "holderIdentity"}));
}

template <typename Self>
std::optional<int64_t> LeaseFields<Self>::LeaseDurationSeconds() const {
    return internal::OptInt(internal::Find(Obj(), {"spec", "leaseDurationSeconds"}));
}

template <typename Self>
std::optional<Timestamp> LeaseFields<Self>::AcquireTime() const {
    return SpecTime(Obj(), "acquireTime");
}

template <typename Self>
std::optional<Timestamp> LeaseFields<Self>::RenewTime() const {
    return SpecTime(Obj(), "renewTime");
}

template <typename Self>
std::optional<int64_t> LeaseFields<Self>::LeaseTransitions() const {
    return internal::OptInt(internal::Find(Obj(), {"spec", "leaseTransitions"}));
}

template class LeaseFields<Lease>;
template class LeaseFields<LeaseView>;

void Lease::SetHolderIdentity(std::optional<std::string_view> holder) {
    if (holder)
        internal::SetString(*this, {"spec", "holderIdentity"}, *holder);
    else
        internal::Remove(*this, {"spec", "holderIdentity"});
}

void Lease::SetLeaseDurationSeconds(std::optional<int64_t> seconds) {
    SetSpecInt(*this, "leaseDurationSeconds", seconds);
}

void Lease::SetAcquireTime(std::optional<Timestamp> time) {
    SetSpecTime(*this, "acquireTime", time);
}

void Lease::SetRenewTime(std::optional<Timestamp> time) {
    SetSpecTime(*this, "renewTime", time);
}

void Lease::SetLeaseTransitions(std::optional<int64_t> transitions) {
    SetSpecInt(*this, "leaseTransitions", transitions);
}

}  // namespace ctrl::api
