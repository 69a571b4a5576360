#pragma once

#include <memory>
#include <string>
#include <utility>

#include "ctrl/scheme/typed_object.hpp"
#include "ctrl/webhook/admission/handler.hpp"

namespace ctrl::webhook::admission {

namespace internal {

// The request's object (or old object) as T; BadRequest naming which one when it is not a T.
template <scheme::TypedObject T>
StatusOr<T> Decode(const Object& object, std::string_view which) {
    StatusOr<T> typed = T::FromObject(object.DeepCopy());
    if (!typed.Ok())
        return BadRequestError("cannot decode the request's " + std::string(which) + ": " +
                               typed.GetStatus().Message());
    return typed;
}

// The answer for a verdict (controller-runtime's: an error is the refusal, warnings kept).
inline Response FromVerdict(Verdict verdict) {
    Response response = FromStatus(verdict.status);
    response.WithWarnings(std::move(verdict.warnings));
    return response;
}

template <scheme::TypedObject T>
Task<Response> Validate(Context ctx, std::shared_ptr<Validator<T>> validator, const Request& request) {
    switch (request.operation) {
        case Operation::kConnect:
            co_return Allowed();
        case Operation::kCreate: {
            StatusOr<T> object = Decode<T>(request.object, "object");
            if (!object.Ok())
                co_return Errored(400, object.GetStatus().Message());
            Verdict verdict = co_await validator->ValidateCreate(std::move(ctx), *object);
            co_return FromVerdict(std::move(verdict));
        }
        case Operation::kUpdate: {
            StatusOr<T> object = Decode<T>(request.object, "object");
            StatusOr<T> old_object = Decode<T>(request.old_object, "oldObject");
            if (!object.Ok() || !old_object.Ok())
                co_return Errored(400, (object.Ok() ? old_object.GetStatus() : object.GetStatus()).Message());
            Verdict verdict = co_await validator->ValidateUpdate(std::move(ctx), *old_object, *object);
            co_return FromVerdict(std::move(verdict));
        }
        case Operation::kDelete: {
            // The object being deleted is the old object (the new one is empty).
            StatusOr<T> old_object = Decode<T>(request.old_object, "oldObject");
            if (!old_object.Ok())
                co_return Errored(400, old_object.GetStatus().Message());
            Verdict verdict = co_await validator->ValidateDelete(std::move(ctx), *old_object);
            co_return FromVerdict(std::move(verdict));
        }
    }
    co_return Errored(400, "unknown operation");
}

template <scheme::TypedObject T>
Task<Response> Default(Context ctx, std::shared_ptr<Defaulter<T>> defaulter, const Request& request) {
    if (request.operation != Operation::kCreate && request.operation != Operation::kUpdate)
        co_return Allowed();
    StatusOr<T> object = Decode<T>(request.object, "object");
    if (!object.Ok())
        co_return Errored(400, object.GetStatus().Message());
    if (Status defaulted = co_await defaulter->Default(std::move(ctx), *object); !defaulted.Ok())
        co_return FromStatus(defaulted);
    co_return PatchResponse(request.object, object->AsObject());
}

}  // namespace internal

// The Handler of a typed validator (controller-runtime's WithValidator).
template <scheme::TypedObject T>
Handler ValidatingHandler(std::shared_ptr<Validator<T>> validator) {
    return [validator](Context ctx, const Request& request) {
        return internal::Validate<T>(std::move(ctx), validator, request);
    };
}

// The Handler of a typed defaulter (controller-runtime's WithDefaulter).
template <scheme::TypedObject T>
Handler DefaultingHandler(std::shared_ptr<Defaulter<T>> defaulter) {
    return [defaulter](Context ctx, const Request& request) {
        return internal::Default<T>(std::move(ctx), defaulter, request);
    };
}

}  // namespace ctrl::webhook::admission
