#pragma once

#include <concepts>
#include <functional>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>

#include "ctrl/core/status.hpp"
#include "ctrl/core/status_or.hpp"
#include "ctrl/scheme/kind_list.hpp"
#include "ctrl/scheme/typed_object.hpp"
#include "ctrl/webhook/conversion/converter.hpp"

namespace ctrl::webhook::conversion {

// A spoke (controller-runtime's conversion.Convertible): a version of a kind that converts to and
// from its hub. It names the hub and says how (ctrl-gen declares these for a CRD whose conversion
// strategy is Webhook; the author defines the two functions):
//   using ConversionHub = v1beta1::Widget;
//   ctrl::Status ConvertTo(v1beta1::Widget& hub) const;   // this version -> the hub
//   ctrl::Status ConvertFrom(const v1beta1::Widget& hub); // the hub -> this version
// Each starts from a destination holding only apiVersion, kind and the source's metadata, and
// sets every field it carries (CopyField helps). What it does not carry is not lost (Converter).
template <typename T>
concept Convertible = scheme::TypedObject<T> && requires {
    typename T::ConversionHub;
} && requires(const T& spoke, T& into, typename T::ConversionHub& hub, const typename T::ConversionHub& from) {
    { spoke.ConvertTo(hub) } -> std::same_as<Status>;
    { into.ConvertFrom(from) } -> std::same_as<Status>;
};

// A hub (controller-runtime's conversion.Hub): the version every other converts through. It names
// its spokes:
//   using ConversionSpokes = ctrl::scheme::KindList<v1alpha1::Widget, v1alpha2::Widget>;
template <typename T>
concept Hub = scheme::TypedObject<T> && requires {
    typename T::ConversionSpokes;
};

// The spoke conversion of Spoke to and from Hub made of two functions, for kinds whose class
// cannot declare ConvertTo and ConvertFrom (controller-runtime's NewSpokeConverter).
template <scheme::TypedObject HubKind, scheme::TypedObject Spoke>
SpokeConversion SpokeWith(std::function<Status(const Spoke& spoke, HubKind& hub)> to_hub,
                          std::function<Status(const HubKind& hub, Spoke& spoke)> from_hub) {
    SpokeConversion conversion;
    conversion.version = std::string(Spoke::kGroupVersionKind.version);
    conversion.to_hub = [to_hub = std::move(to_hub)](const Object& from, Object& to) -> Status {
        CTRL_ASSIGN_OR_RETURN(Spoke spoke, Spoke::FromObject(from.DeepCopy()));
        CTRL_ASSIGN_OR_RETURN(HubKind hub, HubKind::FromObject(std::move(to)));
        Status converted = to_hub(spoke, hub);
        to = std::move(hub);
        return converted;
    };
    conversion.from_hub = [from_hub = std::move(from_hub)](const Object& from, Object& to) -> Status {
        CTRL_ASSIGN_OR_RETURN(HubKind hub, HubKind::FromObject(from.DeepCopy()));
        CTRL_ASSIGN_OR_RETURN(Spoke spoke, Spoke::FromObject(std::move(to)));
        Status converted = from_hub(hub, spoke);
        to = std::move(spoke);
        return converted;
    };
    return conversion;
}

// The spoke conversion of a Convertible kind: its ConvertTo and ConvertFrom.
template <Convertible Spoke>
SpokeConversion SpokeOf() {
    using HubKind = typename Spoke::ConversionHub;
    return SpokeWith<HubKind, Spoke>([](const Spoke& spoke, HubKind& hub) { return spoke.ConvertTo(hub); },
                                     [](const HubKind& hub, Spoke& spoke) { return spoke.ConvertFrom(hub); });
}

namespace internal {
template <typename HubKind, typename... Spokes>
StatusOr<Converter> HubConverter(scheme::KindList<Spokes...> /*spokes*/) {
    static_assert(sizeof...(Spokes) > 0, "a conversion hub names at least one spoke in ConversionSpokes");
    static_assert((Convertible<Spokes> && ...),
                  "each of a hub's ConversionSpokes must be Convertible: name ConversionHub and declare "
                  "ConvertTo(Hub&) const and ConvertFrom(const Hub&), both returning ctrl::Status");
    static_assert((std::is_same_v<typename Spokes::ConversionHub, HubKind> && ...),
                  "each of a hub's ConversionSpokes must name that hub as its ConversionHub");
    Converter converter(scheme::GroupVersionKindOf<HubKind>());
    Status added;
    ((added = added.Ok() ? converter.AddSpoke(SpokeOf<Spokes>()) : added), ...);
    if (!added.Ok())
        return added;
    for (const GroupVersionKind& spoke : {scheme::GroupVersionKindOf<Spokes>()...}) {
        if (spoke.ToGroupKind() != converter.Kind())
            return BadRequestError("conversion of " + converter.Hub().String() + ": the spoke " + spoke.String() +
                                   " is of another group or kind");
    }
    return converter;
}
}  // namespace internal

// The Converter of Hub and the spokes it names (controller-runtime's hub-and-spoke conversion).
// BadRequest when a spoke is of another group or kind, AlreadyExists when two share a version.
template <Hub HubKind>
StatusOr<Converter> HubConverter() {
    return internal::HubConverter<HubKind>(typename HubKind::ConversionSpokes{});
}

// The Converter of T's group and kind when T is a hub or a spoke (what WebhookManagedBy registers
// for T); nullopt otherwise. T needs the complete hub and spokes (include their headers).
template <scheme::TypedObject T>
std::optional<StatusOr<Converter>> ConverterFor() {
    if constexpr (Hub<T>)
        return HubConverter<T>();
    else if constexpr (Convertible<T>)
        return HubConverter<typename T::ConversionHub>();
    else
        return std::nullopt;
}

}  // namespace ctrl::webhook::conversion
