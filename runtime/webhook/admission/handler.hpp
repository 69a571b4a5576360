#pragma once

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "ctrl/core/context.hpp"
#include "ctrl/core/status.hpp"
#include "ctrl/core/task.hpp"
#include "ctrl/webhook/admission/review.hpp"

namespace ctrl::webhook::admission {

// Answers one admission request (a raw handler, for any kind). Runs on the webhook server's
// connection strands, several requests at once: it must be thread-safe. ctx ends when the API
// server's timeout for the call passes or the server stops. A dry-run request (request.dry_run)
// must cause no side effect.
using Handler = std::function<Task<Response>(Context ctx, const Request& request)>;

// The request a handler, validator or defaulter is answering, from the ctx it was given
// (controller-runtime's RequestFromContext); null outside one.
const Request* RequestFrom(const Context& ctx);
// ctx carrying request (what the webhook server hands to handlers).
Context WithRequest(const Context& ctx, const Request& request);

// What a validator says of an object: OK or why it is refused (Invalid with field causes,
// Forbidden, or any Status: its message is what the client sees), plus warnings either way.
// `co_return InvalidError("...")` and `co_return OkStatus()` both make one.
struct Verdict {
    Verdict() = default;
    Verdict(Status status_in) : status(std::move(status_in)) {}  // NOLINT(google-explicit-constructor)
    Verdict(Status status_in, std::vector<std::string> warnings_in)
        : status(std::move(status_in)), warnings(std::move(warnings_in)) {}
    Status status;
    std::vector<std::string> warnings;
};

// Validates one kind's writes (controller-runtime's admission.Validator[T]): the object decoded
// as T, the old one too on update. CONNECT requests are admitted without a call.
template <typename T>
class Validator {
  public:
    virtual ~Validator() = default;
    virtual Task<Verdict> ValidateCreate(Context ctx, const T& object) = 0;
    virtual Task<Verdict> ValidateUpdate(Context ctx, const T& old_object, const T& new_object) = 0;
    // The object being deleted. Default: admitted.
    virtual Task<Verdict> ValidateDelete(Context ctx, const T& object);
};

template <typename T>
Task<Verdict> Validator<T>::ValidateDelete(Context /*ctx*/, const T& /*object*/) {
    co_return OkStatus();
}

// Sets defaults on one kind's objects (controller-runtime's admission.Defaulter[T]): the object
// decoded as T, changed in place; the webhook answers with the JSON patch between the object it
// received and the one Default left (computed, never hand-written; fields T does not know are kept
// as they came). An error refuses the request. Called for CREATE and UPDATE.
template <typename T>
class Defaulter {
  public:
    virtual ~Defaulter() = default;
    virtual Task<Status> Default(Context ctx, T& object) = 0;
};

}  // namespace ctrl::webhook::admission
