#include "ctrl/webhook/conversion/registry.hpp"

#include <string>
#include <utility>

namespace ctrl::webhook::conversion {
namespace {

std::string Describe(const Object& object, std::size_t index) {
    std::string name(object.Name());
    if (!object.Namespace().empty())
        name = std::string(object.Namespace()) + "/" + name;
    return "request.objects[" + std::to_string(index) + "] (" + std::string(object.ApiVersion()) + " " +
           std::string(object.Kind()) + (name.empty() ? "" : " " + name) + ")";
}

Response Failure(Status status) {
    Response response;
    response.result = std::move(status);
    return response;
}

}  // namespace

Status Registry::Register(Converter converter) {
    const GroupKind kind = converter.Kind();
    std::lock_guard lock(mu_);
    if (converters_.contains(kind))
        return AlreadyExistsError("a conversion of " + kind.String() + " is already registered");
    converters_.emplace(kind, std::make_shared<const Converter>(std::move(converter)));
    return OkStatus();
}

bool Registry::Registered(const GroupKind& kind) const {
    std::lock_guard lock(mu_);
    return converters_.contains(kind);
}

std::shared_ptr<const Converter> Registry::Find(const GroupKind& kind) const {
    std::lock_guard lock(mu_);
    auto it = converters_.find(kind);
    return it == converters_.end() ? nullptr : it->second;
}

Response Registry::Convert(const Request& request) const {
    StatusOr<GroupVersion> desired = GroupVersion::Parse(request.desired_api_version);
    if (!desired.Ok())
        return Failure(BadRequestError("desiredAPIVersion \"" + request.desired_api_version +
                                       "\" is not an apiVersion: " + desired.GetStatus().Message()));
    Response response;
    response.converted_objects.reserve(request.objects.size());
    for (std::size_t i = 0; i < request.objects.size(); ++i) {
        const Object& object = request.objects[i];
        StatusOr<GroupVersionKind> gvk = object.GetGroupVersionKind();
        if (!gvk.Ok())
            return Failure(gvk.GetStatus().Annotate(Describe(object, i)));
        if (gvk->group != desired->group)
            return Failure(BadRequestError(Describe(object, i) + " is of group \"" + gvk->group +
                                           "\", not of the desired apiVersion " + request.desired_api_version));
        std::shared_ptr<const Converter> converter = Find(gvk->ToGroupKind());
        if (converter == nullptr)
            return Failure(NotFoundError(Describe(object, i) + ": no conversion of " + gvk->ToGroupKind().String() +
                                         " is registered with this webhook"));
        StatusOr<Object> converted = converter->Convert(object, desired->version);
        if (!converted.Ok())
            return Failure(converted.GetStatus());  // it names the object and the versions
        response.converted_objects.push_back(std::move(converted).Value());
    }
    return response;
}

}  // namespace ctrl::webhook::conversion
