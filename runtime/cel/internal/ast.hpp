#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "ctrl/cel/internal/value.hpp"
#include "ctrl/core/status_or.hpp"

namespace ctrl::cel::internal {

// The kinds of a parsed expression's nodes.
enum class ExprKind {
    kLiteral,  // literal
    kIdent,    // name
    kSelect,   // args[0].name
    kHas,      // has(args[0].name)
    kIndex,    // args[0][args[1]]
    kCall,     // name(args...), or args[0].name(args[1...]) when has_target
    kList,     // [args...]
    kMap,      // {args[0]: args[1], args[2]: args[3], ...}
    kMacro,    // args[0].name(var, args[1]) (all, exists, exists_one, filter, map) or
               // args[0].map(var, args[1], args[2]) (filter, then transform)
    kNot,      // !args[0]
    kNegate,   // -args[0]
    kBinary,   // args[0] name args[1]: + - * / % == != < <= > >= in
    kAnd,      // args[0] && args[1]
    kOr,       // args[0] || args[1]
    kTernary,  // args[0] ? args[1] : args[2]
};

// One node of a parsed CEL expression.
struct Expr {
    ExprKind kind = ExprKind::kLiteral;
    Value literal;
    std::string name;  // identifier, field, function, macro or operator
    std::string var;   // a macro's iteration variable
    bool has_target = false;
    std::vector<std::unique_ptr<Expr>> args;
    std::size_t column = 0;  // 1-based, of the node's first character
};

// The functions a call may name (with or without a target); any other is refused at parse time.
bool IsKnownFunction(std::string_view name);

// Parses expression (CEL's grammar; the macros has, all, exists, exists_one, filter and map).
// BadRequest "<what> at column N" on a syntax error or an unknown function.
StatusOr<std::unique_ptr<Expr>> Parse(std::string_view expression);

// Whether expression names the variable (outside a macro that rebinds it).
bool UsesVariable(const Expr& expression, std::string_view variable);

}  // namespace ctrl::cel::internal
