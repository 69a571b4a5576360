#include "ctrl/fake/internal/api_errors.hpp"

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

Status PreconditionFailed(const GroupVersionKind& gvk, std::string_view name, std::string_view field,
                          std::string_view wanted, std::string_view actual) {
    const std::string_view why = field == "UID" ? "The object might have been deleted and then recreated"
                                                : "The object might have been modified";
    return ConflictError("Operation cannot be fulfilled on " + QualifiedKind(gvk) + " \"" + std::string(name) +
                         "\": the " + std::string(field) + " in the precondition (" + std::string(wanted) +
                         ") does not match the " + std::string(field) + " in record (" + std::string(actual) + "). " +
                         std::string(why))
        .WithHttpCode(409)
        .WithReason("Conflict");
}

Status UnknownFieldSelector(std::string_view field, const std::vector<std::string>& known) {
    std::string message = "\"" + std::string(field) + "\" is not a known field selector: only ";
    for (std::size_t i = 0; i < known.size(); ++i)
        message += (i == 0 ? "\"" : ", \"") + known[i] + "\"";
    return ServerBadRequest(std::move(message));
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

Status ImmutableField(std::string_view kind, std::string_view name, std::string_view field, std::string_view value) {
    const std::string error =
        std::string(field) + ": Invalid value: \"" + std::string(value) + "\": field is immutable";
    const StatusCause cause{"FieldValueInvalid", "Invalid value: \"" + std::string(value) + "\": field is immutable",
                            std::string(field)};
    return InvalidError(std::string(kind) + " \"" + std::string(name) + "\" is invalid: " + error + "; " + error,
                        {cause, cause})
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
