#pragma once

#include "ctrl/cel/internal/value.hpp"
#include "ctrl/cel/program.hpp"

namespace ctrl::cel {

// For the layers above (scheme's validation): a Program evaluated against a JSON value inside a
// document, without copying it into an Object.
struct ProgramAccess {
    // The result of the expression with `self` bound to self (an error is a Value holding Error);
    // defaults: the defaults node that applies under self (internal::JsonRef), or nullptr.
    static internal::Value Evaluate(const Program& program, const internal::JsonValue& self,
                                    const internal::JsonValue* defaults = nullptr);
    // As Program::Test, against a JSON value.
    static StatusOr<bool> Test(const Program& program, const internal::JsonValue& self,
                               const internal::JsonValue* defaults = nullptr);
};

}  // namespace ctrl::cel
