#pragma once

#include <concepts>
#include <cstddef>
#include <functional>
#include <type_traits>
#include <utility>

namespace ctrl {

template <typename Signature>
class AwaitSafeFunction;

namespace internal {
template <typename T>
inline constexpr bool kIsFunctionWrapper = false;
template <typename Signature>
inline constexpr bool kIsFunctionWrapper<std::function<Signature>> = true;
template <typename Signature>
inline constexpr bool kIsFunctionWrapper<AwaitSafeFunction<Signature>> = true;
}  // namespace internal

// Whether a callable passed as F (the type a forwarding reference deduces: T& for a named callable,
// T for a temporary or a std::move) can be written inside a co_await expression on GCC 12, which
// destroys some temporaries of such an expression twice (PR 99576; docs/decisions.md, decision 16):
// a named callable (it is copied), or a temporary whose destructor is trivial (a lambda capturing
// by reference, [this], captureless, capturing only scalars; a function pointer), or a
// std::function / AwaitSafeFunction (built by a constructor, which GCC 12 destroys once). Refused:
// a temporary callable with a non-trivial destructor, such as a lambda capturing a std::string or a
// shared_ptr by copy. The callee cannot tell a temporary from a std::move of a named callable, so
// that is refused too: pass the name.
template <typename F>
concept AwaitSafeCallable = std::is_lvalue_reference_v<F> || std::is_trivially_destructible_v<std::remove_cvref_t<F>> ||
    internal::kIsFunctionWrapper<std::remove_cvref_t<F>>;

namespace internal {
// What the refusing overloads take: a callable AwaitSafeCallable refuses.
template <typename F>
concept NotAwaitSafeCallable = !AwaitSafeCallable<F>;
// F is a callable Function can hold, and not Wrapper itself (whose copies and moves are its own).
template <typename F, typename Wrapper, typename Function>
concept CallableFor = !std::same_as<std::remove_cvref_t<F>, Wrapper> && std::is_constructible_v<Function, F>;
template <typename F, typename Wrapper, typename Function>
concept AcceptedCallable = CallableFor<F, Wrapper, Function> && AwaitSafeCallable<F>;
template <typename F, typename Wrapper, typename Function>
concept RefusedCallable = CallableFor<F, Wrapper, Function> && NotAwaitSafeCallable<F>;
}  // namespace internal

// A std::function that refuses, at compile time, a callable that is not AwaitSafeCallable: the
// parameter type of the calls that take a callable and are awaited (cache IndexField,
// RetryOnConflict, CreateOrUpdate's mutate, map functions, Suspend). It is a std::function (pass
// it wherever one is wanted):
//   co_await cache.IndexField(ctx, gvk, "spec.node", [&](const Object& o) { ... });  // [&]: fine
//   auto extract = [key](const Object& o) { ... };                                  // by copy: name it
//   co_await cache.IndexField(ctx, gvk, "data." + key, extract);
//   co_await cache.IndexField(ctx, gvk, "data." + key, [key](const Object& o) { ... });  // does not compile
template <typename R, typename... Args>
class AwaitSafeFunction<R(Args...)> : public std::function<R(Args...)> {
    using Base = std::function<R(Args...)>;

  public:
    AwaitSafeFunction() = default;
    AwaitSafeFunction(std::nullptr_t) {}  // NOLINT(google-explicit-constructor)

    // A named callable (copied), or a temporary one that AwaitSafeCallable accepts.
    template <internal::AcceptedCallable<AwaitSafeFunction, Base> F>
    AwaitSafeFunction(F&& fn) : Base(std::forward<F>(fn)) {}  // NOLINT(google-explicit-constructor)

    // Refused: a temporary callable whose destructor is not trivial (a lambda capturing a
    // std::string or a shared_ptr by copy, written inside the call), which GCC 12 destroys twice
    // when the call is inside a co_await expression. Name it first and pass the name.
    template <internal::RefusedCallable<AwaitSafeFunction, Base> F>
    AwaitSafeFunction(F&& fn) = delete;  // a temporary capturing by copy: name it first (GCC 12 frees it twice)
};

}  // namespace ctrl
