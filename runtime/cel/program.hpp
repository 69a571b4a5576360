#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "ctrl/core/object.hpp"
#include "ctrl/core/status_or.hpp"

namespace ctrl::cel {

namespace internal {
struct Expr;
}  // namespace internal

// A compiled CEL expression: the language of Kubernetes' validation rules
// (x-kubernetes-validations), evaluated against JSON. It covers what CRDs' rules use: literals,
// operators, field selection, has(), the macros all/exists/exists_one/filter/map, size, the string
// functions (contains, startsWith, endsWith, matches, lowerAscii, upperAscii, trim, split, join,
// replace, indexOf, lastIndexOf, substring), conversions (int, uint, double, string, bool, dyn) and
// duration(). Anything else (timestamps, quantities, url(), optional fields, bytes) is refused at
// compile time, so a caller knows it is not checked. Immutable; cheap to copy; safe to share
// between threads.
class Program {
  public:
    // BadRequest "<what> at column N" on a syntax error or a function this evaluator lacks.
    static StatusOr<Program> Compile(std::string_view expression);

    const std::string& Expression() const { return expression_; }
    // Whether the expression reads the variable (e.g. "oldSelf": a transition rule).
    bool Uses(std::string_view variable) const;

    // Evaluates a rule with `self` bound to object's JSON value (any JSON, not only an object).
    // Its result when that is a bool; else BadRequest naming the evaluation error ("no such key:
    // spec") or the type it gave.
    StatusOr<bool> Test(const Object& self) const;

  private:
    friend struct ProgramAccess;
    Program(std::string expression, std::shared_ptr<const internal::Expr> root)
        : expression_(std::move(expression)), root_(std::move(root)) {}

    std::string expression_;
    std::shared_ptr<const internal::Expr> root_;
};

}  // namespace ctrl::cel
