// The comprehension macros: all, exists, exists_one, filter and map (with or without a filter),
// over a list's elements or a map's keys, with CEL's error rules: a predicate's error is the
// result unless another element decides (a false for all, a true for exists).
#include "ctrl/cel/internal/eval.hpp"

namespace ctrl::cel::internal {

namespace {

// The values a macro iterates: a list's elements, a map's keys.
std::vector<Value> RangeOf(const Value& range) {
    if (range.IsMap())
        return MapKeys(range);
    std::vector<Value> elements;
    for (std::size_t i = 0; i < ListSize(range); ++i)
        elements.push_back(ListAt(range, i));
    return elements;
}

// Binds the iteration variable for one step, and unbinds it when the step ends.
class Binding {
  public:
    Binding(Activation& activation, const std::string& name, Value value) : activation_(activation) {
        activation_.variables.emplace_back(name, std::move(value));
    }
    ~Binding() { activation_.variables.pop_back(); }
    Binding(const Binding&) = delete;
    Binding& operator=(const Binding&) = delete;

  private:
    Activation& activation_;
};

Value PredicateError(const std::string& macro, const Value& result) {
    return result.IsError() ? result
                            : Value::Fail(macro + "() needs a bool predicate, not a " + std::string(result.TypeName()));
}

// all (decisive false) and exists (decisive true).
Value Quantifier(const Expr& macro, Activation& activation, const std::vector<Value>& range, bool decisive) {
    std::optional<Value> error;
    for (const Value& element : range) {
        Binding binding(activation, macro.var, element);
        const Value result = Evaluate(*macro.args[1], activation);
        if (result.Is<bool>()) {
            if (result.As<bool>() == decisive)
                return result;
        } else if (!error) {
            error = PredicateError(macro.name, result);
        }
    }
    return error ? *error : Value(!decisive);
}

Value ExistsOne(const Expr& macro, Activation& activation, const std::vector<Value>& range) {
    int64_t count = 0;
    for (const Value& element : range) {
        Binding binding(activation, macro.var, element);
        const Value result = Evaluate(*macro.args[1], activation);
        if (!result.Is<bool>())
            return PredicateError(macro.name, result);
        count += result.As<bool>() ? 1 : 0;
    }
    return Value(count == 1);
}

// filter(x, p), map(x, t) and map(x, p, t).
Value Transform(const Expr& macro, Activation& activation, const std::vector<Value>& range) {
    const bool is_filter = macro.name == "filter";
    const Expr* predicate = is_filter || macro.args.size() == 3 ? macro.args[1].get() : nullptr;
    const Expr* transform = is_filter ? nullptr : macro.args.back().get();
    auto out = std::make_shared<std::vector<Value>>();
    for (const Value& element : range) {
        Binding binding(activation, macro.var, element);
        if (predicate != nullptr) {
            const Value keep = Evaluate(*predicate, activation);
            if (!keep.Is<bool>())
                return PredicateError(macro.name, keep);
            if (!keep.As<bool>())
                continue;
        }
        out->push_back(transform != nullptr ? Evaluate(*transform, activation) : element);
        if (out->back().IsError())
            return out->back();
    }
    return Value(List(std::move(out)));
}

}  // namespace

Value EvaluateMacro(const Expr& macro, Activation& activation) {
    const Value range_value = Evaluate(*macro.args[0], activation);
    if (range_value.IsError())
        return range_value;
    if (!range_value.IsList() && !range_value.IsMap())
        return Value::Fail(macro.name + "() over a " + std::string(range_value.TypeName()) + ", not a list or map");
    const std::vector<Value> range = RangeOf(range_value);
    if (macro.name == "all")
        return Quantifier(macro, activation, range, false);
    if (macro.name == "exists")
        return Quantifier(macro, activation, range, true);
    if (macro.name == "exists_one")
        return ExistsOne(macro, activation, range);
    return Transform(macro, activation, range);
}

}  // namespace ctrl::cel::internal
