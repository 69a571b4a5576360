#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ctrl/cel/internal/ast.hpp"
#include "ctrl/cel/internal/value.hpp"

namespace ctrl::cel::internal {

// The variables an expression sees: self (and oldSelf), and the macros' iteration variables, the
// innermost last.
struct Activation {
    std::vector<std::pair<std::string, Value>> variables;

    const Value* Find(std::string_view name) const;
};

// Evaluates expression; an error is a Value holding Error.
Value Evaluate(const Expr& expression, Activation& activation);

// all, exists, exists_one, filter and map over a list's elements or a map's keys.
Value EvaluateMacro(const Expr& macro, Activation& activation);

// A function call: args[0] is the target when has_target ("s.startsWith(p)"). An Error when no
// overload takes the arguments.
Value CallFunction(std::string_view name, bool has_target, const std::vector<Value>& args);

// A field name as a rule writes it: `__namespace__` for namespace, `__dash__` for "-", `__dot__`
// for ".", `__slash__` for "/", `__underscores__` for "__" (Kubernetes' escaping of property names).
std::string UnescapeFieldName(std::string_view name);

}  // namespace ctrl::cel::internal
