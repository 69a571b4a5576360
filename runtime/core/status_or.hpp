#pragma once

#include <cstdlib>
#include <iostream>
#include <optional>
#include <type_traits>
#include <utility>

#include "ctrl/core/status.hpp"

namespace ctrl {

// A value of T, or the non-OK Status saying why there is none. Reading the value of an error
// is a bug: it prints the status and aborts.
template <typename T>
class [[nodiscard]] StatusOr {
    static_assert(!std::is_same_v<std::decay_t<T>, Status>, "StatusOr<Status> is meaningless");

  public:
    // No value yet: an Unknown error (as absl::StatusOr). Lets coroutine machinery that
    // default-constructs results hold a StatusOr.
    StatusOr() : status_(UnknownError("StatusOr holds no value")) {}
    // An OK status without a value is a bug in the caller; it becomes an Internal error.
    StatusOr(Status status)  // NOLINT(google-explicit-constructor)
        : status_(status.Ok() ? InternalError("StatusOr constructed from an OK Status without a value")
                              : std::move(status)) {}
    StatusOr(const T& value) : value_(value) {}        // NOLINT(google-explicit-constructor)
    StatusOr(T&& value) : value_(std::move(value)) {}  // NOLINT(google-explicit-constructor)
    template <typename U>
    requires(std::is_constructible_v<T, U&&> && !std::is_same_v<std::decay_t<U>, T> &&
             !std::is_same_v<std::decay_t<U>, Status> && !std::is_same_v<std::decay_t<U>, StatusOr>) StatusOr(U&& value)
        : value_(std::forward<U>(value)) {}  // NOLINT(google-explicit-constructor)

    bool Ok() const { return value_.has_value(); }
    const Status& GetStatus() const { return status_; }

    const T& Value() const& {
        Check();
        return *value_;
    }
    T& Value() & {
        Check();
        return *value_;
    }
    T&& Value() && {
        Check();
        return std::move(*value_);
    }
    template <typename U>
    T ValueOr(U&& fallback) const& {
        return value_ ? *value_ : static_cast<T>(std::forward<U>(fallback));
    }

    const T& operator*() const& { return Value(); }
    T& operator*() & { return Value(); }
    T&& operator*() && { return std::move(*this).Value(); }
    const T* operator->() const { return &Value(); }
    T* operator->() { return &Value(); }

  private:
    void Check() const {
        if (!value_) {
            std::cerr << "ctrl::StatusOr: value read from an error: " << status_ << std::endl;
            std::abort();
        }
    }

    Status status_;
    std::optional<T> value_;
};

}  // namespace ctrl

#define CTRL_STATUS_CONCAT_INNER(a, b) a##b
#define CTRL_STATUS_CONCAT(a, b) CTRL_STATUS_CONCAT_INNER(a, b)

namespace ctrl::internal {
// The status the macros below return: as it is, or annotated with the caller's context.
inline Status WithContext(Status status) {
    return status;
}
inline Status WithContext(const Status& status, std::string_view context) {
    return status.Annotate(context);
}
}  // namespace ctrl::internal

// Error propagation, for functions (CTRL_RETURN_IF_ERROR, CTRL_ASSIGN_OR_RETURN) and for coroutines
// (CTRL_CO_...) that return Status or StatusOr<T>. An optional last argument names what was being
// done; it is evaluated only on error and prefixes the message (Status::Annotate):
//   CTRL_CO_RETURN_IF_ERROR(co_await client.Update(ctx, obj), "adding the finalizer to " + name);
//   CTRL_CO_ASSIGN_OR_RETURN(std::vector<api::Pod> pods, list.TakeItems());

// Returns the status from the enclosing function when it is not OK.
#define CTRL_RETURN_IF_ERROR(expr, ...)                                                                   \
    do {                                                                                                  \
        ::ctrl::Status ctrl_status_tmp_ = (expr);                                                         \
        if (!ctrl_status_tmp_.Ok())                                                                       \
            return ::ctrl::internal::WithContext(std::move(ctrl_status_tmp_) __VA_OPT__(, ) __VA_ARGS__); \
    } while (false)

// `CTRL_ASSIGN_OR_RETURN(auto x, F());` declares x from F()'s value, or returns its status.
#define CTRL_ASSIGN_OR_RETURN(lhs, expr, ...) \
    CTRL_ASSIGN_OR_RETURN_IMPL(CTRL_STATUS_CONCAT(ctrl_statusor_, __LINE__), lhs, expr, return, __VA_ARGS__)

// The same two for coroutines.
#define CTRL_CO_RETURN_IF_ERROR(expr, ...)                                                                   \
    do {                                                                                                     \
        ::ctrl::Status ctrl_status_tmp_ = (expr);                                                            \
        if (!ctrl_status_tmp_.Ok())                                                                          \
            co_return ::ctrl::internal::WithContext(std::move(ctrl_status_tmp_) __VA_OPT__(, ) __VA_ARGS__); \
    } while (false)
#define CTRL_CO_ASSIGN_OR_RETURN(lhs, expr, ...) \
    CTRL_ASSIGN_OR_RETURN_IMPL(CTRL_STATUS_CONCAT(ctrl_statusor_, __LINE__), lhs, expr, co_return, __VA_ARGS__)

#define CTRL_ASSIGN_OR_RETURN_IMPL(tmp, lhs, expr, ret, ...)                           \
    auto tmp = (expr);                                                                 \
    if (!tmp.Ok())                                                                     \
        ret ::ctrl::internal::WithContext(tmp.GetStatus() __VA_OPT__(, ) __VA_ARGS__); \
    lhs = std::move(tmp).Value()
