#include "runtime/fake/internal/api_errors.hpp"

#include <utility>

namespace ctrl::fake::internal {

std::string QualifiedResource(const discovery::RESTMapping& mapping) {
    std::string resource = mapping.resource.resource;
    if (!mapping.resource.group.empty())
        resource += "." + mapping.resource.group;
    return resource;
}

std::string QualifiedKind(const GroupVersionKind& gvk) {
    return gvk.group.empty() ? gvk.kind : gvk.kind + "." + gvk.group;
}

Status NotFound(const discovery::RESTMapping& mapping, std::string_view name) {
    return NotFoundError(QualifiedResource(mapping) + " \"" + std::string(name) + "\" not found")
        .WithHttpCode(404)
        .WithReason("NotFound");
}

Status AlreadyExists(const discovery::RESTMapping& mapping, std::string_view name) {
    return AlreadyExistsError(QualifiedResource(mapping) + " \"" + std::string(name) + "\" already exists")
        .WithHttpCode(409)
        .WithReason("AlreadyExists");
}

Status Conflict(const discovery::RESTMapping& mapping, std::string_view name, std::string_view why) {
    return ConflictError("Operation cannot be fulfilled on " + QualifiedResource(mapping) + " \"" + std::string(name) +
                         "\": " + std::string(why))
        .WithHttpCode(409)
        .WithReason("Conflict");
}

Status StaleResourceVersion(const discovery::RESTMapping& mapping, std::string_view name) {
    return Conflict(mapping, name,
                    "the object has been modified; please apply your changes to the latest version and try again");
}

Status InvalidField(std::string_view kind, std::string_view name, std::string_view field, std::string_view cause_type,
                    std::string_view detail) {
    std::string message = std::string(kind) + " \"" + std::string(name) + "\" is invalid: " + std::string(field) +
                          ": " + std::string(detail);
    return InvalidError(std::move(message),
                        {StatusCause{std::string(cause_type), std::string(detail), std::string(field)}})
        .WithHttpCode(422)
        .WithReason("Invalid");
}

Status ResourcePathNotFound() {
    return NotFoundError("the server could not find the requested resource").WithHttpCode(404).WithReason("NotFound");
}

Status ServerBadRequest(std::string message) {
    return BadRequestError(std::move(message)).WithHttpCode(400).WithReason("BadRequest");
}

}  // namespace ctrl::fake::internal
