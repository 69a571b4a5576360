#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "ctrl/core/gvk.hpp"
#include "ctrl/core/object.hpp"
#include "ctrl/core/status.hpp"
#include "ctrl/core/status_or.hpp"

namespace ctrl::webhook::admission {

// What the API server asks a webhook to admit.
enum class Operation { kCreate, kUpdate, kDelete, kConnect };
// "CREATE", "UPDATE", "DELETE", "CONNECT".
std::string_view OperationName(Operation operation);

// Who made the request (authentication.k8s.io/v1 UserInfo).
struct UserInfo {
    std::string username;
    std::string uid;
    std::vector<std::string> groups;
};

// An admission.k8s.io/v1 AdmissionRequest: the object of a write the API server is about to make,
// and the object before it. Knows nothing of the webhook that answers it.
struct Request {
    std::string uid;                // echoed in the response
    GroupVersionKind kind;          // the kind of object (as the webhook registered for it)
    GroupVersionResource resource;  // "apps/v1, Resource=deployments"
    std::string sub_resource;       // "status", "scale", "" for the object itself
    GroupVersionKind request_kind;  // the kind the client sent, when converted for the webhook
    GroupVersionResource request_resource;
    std::string name;            // may be empty on CREATE (generateName)
    std::string namespace_name;  // empty for a cluster-scoped object
    Operation operation = Operation::kCreate;
    UserInfo user_info;
    Object object;      // the new object: {} for DELETE
    Object old_object;  // the existing object: {} for CREATE (and CONNECT)
    bool has_object = false;
    bool has_old_object = false;
    bool dry_run = false;  // the write is a dry run: a webhook must make no side effect
    Object options;        // CreateOptions, UpdateOptions or DeleteOptions; {} when absent
};

// An admission.k8s.io/v1 AdmissionResponse: allowed or not, why (a metav1.Status), a JSON patch
// for a mutating webhook, warnings for the client. Built with Allowed, Denied, Errored,
// FromStatus or PatchResponse.
struct Response {
    bool allowed = true;
    int code = 200;      // the Status's HTTP code
    std::string reason;  // "Forbidden", "Invalid", ...; empty when allowed
    std::string message;
    std::vector<StatusCause> causes;    // field causes of an Invalid answer
    std::string patch;                  // an RFC 6902 JSON patch (text); empty: none
    std::vector<std::string> warnings;  // shown to the client ("Warning: ...")
    std::map<std::string, std::string> audit_annotations;

    Response& WithWarnings(std::vector<std::string> more);
};

// Admits the request (with message, if any).
Response Allowed(std::string message = "");
// Refuses it: 403, reason Forbidden, with message (controller-runtime's Denied).
Response Denied(std::string message);
// Refuses it because the webhook could not decide: code (400 for a request it cannot read, 500
// for its own failure) and the message (controller-runtime's Errored).
Response Errored(int code, std::string message);
// OK: Allowed. An error: refused with its HTTP code (or the code's usual one: Invalid 422,
// Forbidden 403, BadRequest 400, NotFound 404, Conflict/AlreadyExists 409, Internal 500, ...;
// 403 for a code with none), its reason (or the code's name), its message and field causes.
Response FromStatus(const Status& status);
// Admits the request with the JSON patch that turns original into modified (no patch when they
// are equal): what a mutating webhook answers.
Response PatchResponse(const Object& original, const Object& modified);

// A decoded AdmissionReview: the apiVersion it came in (admission.k8s.io/v1 or v1beta1, which
// have the same shape; the answer uses the same) and its request.
struct Review {
    std::string api_version;
    Request request;
};

// Decodes an AdmissionReview. BadRequest naming what is wrong: not JSON, not an AdmissionReview
// of admission.k8s.io/v1 or v1beta1, no request, no uid, an unknown operation, or an object or
// oldObject that is not a JSON object.
StatusOr<Review> DecodeReview(std::string_view body);
// The AdmissionReview answering request uid with response, in api_version.
std::string EncodeReview(std::string_view api_version, std::string_view uid, const Response& response);

}  // namespace ctrl::webhook::admission
