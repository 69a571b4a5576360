// Evaluation of a parsed expression: variables, field selection, indexing, operators with CEL's
// error semantics (an error is a value; && and || absorb it when the other side decides), and the
// comprehension macros.
#include "ctrl/cel/internal/eval.hpp"

#include <cmath>
#include <limits>
#include <type_traits>

namespace ctrl::cel::internal {

namespace {

Value NoOverload(std::string_view op, const Value& a, const Value& b) {
    return Value::Fail("no such overload: " + std::string(a.TypeName()) + " " + std::string(op) + " " +
                       std::string(b.TypeName()));
}

Value Select(const Value& operand, const std::string& field) {
    if (operand.IsError())
        return operand;
    if (!operand.IsMap())
        return Value::Fail("no such field '" + field + "' in a " + std::string(operand.TypeName()));
    const std::string name = UnescapeFieldName(field);
    std::optional<Value> value = MapFind(operand, Value(name));
    if (!value)
        return Value::Fail("no such key: " + name);
    return *value;
}

Value Has(const Value& operand, const std::string& field) {
    if (operand.IsError())
        return operand;
    if (!operand.IsMap())
        return Value::Fail("has() of a field of a " + std::string(operand.TypeName()));
    return Value(MapFind(operand, Value(UnescapeFieldName(field))).has_value());
}

Value Index(const Value& operand, const Value& index) {
    if (operand.IsError())
        return operand;
    if (index.IsError())
        return index;
    if (operand.IsList()) {
        if (!index.IsNumber() || (index.Is<double>() && std::trunc(index.As<double>()) != index.As<double>()))
            return NoOverload("[]", operand, index);
        const double position = AsDouble(index);
        if (position < 0 || position >= static_cast<double>(ListSize(operand)))
            return Value::Fail("index out of bounds: " + std::to_string(static_cast<int64_t>(position)));
        return ListAt(operand, static_cast<std::size_t>(position));
    }
    if (operand.IsMap()) {
        std::optional<Value> value = MapFind(operand, index);
        if (!value)
            return Value::Fail("no such key" + (index.Is<std::string>() ? ": " + index.As<std::string>() : ""));
        return *value;
    }
    return NoOverload("[]", operand, index);
}

// int64 or uint64 arithmetic with CEL's overflow and division errors.
template <typename T>
Value CheckedArithmetic(std::string_view op, T a, T b) {
    T result = 0;
    bool overflow = false;
    if (op == "+")
        overflow = __builtin_add_overflow(a, b, &result);
    else if (op == "-")
        overflow = __builtin_sub_overflow(a, b, &result);
    else if (op == "*")
        overflow = __builtin_mul_overflow(a, b, &result);
    else if (b == 0)
        return Value::Fail(op == "/" ? "division by zero" : "modulus by zero");
    else if constexpr (std::is_signed_v<T>)
        overflow = a == std::numeric_limits<T>::min() && b == -1;
    if (!overflow && (op == "/" || op == "%"))
        result = op == "/" ? a / b : a % b;
    if (overflow)
        return Value::Fail(std::is_signed_v<T> ? "integer overflow" : "unsigned integer overflow");
    return Value(result);
}

Value Concatenate(const Value& a, const Value& b) {
    auto list = std::make_shared<std::vector<Value>>();
    for (const Value* side : {&a, &b}) {
        for (std::size_t i = 0; i < ListSize(*side); ++i)
            list->push_back(ListAt(*side, i));
    }
    return Value(List(std::move(list)));
}

// + - * / % on numbers (ints with ints, uints with uints, otherwise as doubles: more lenient than
// CEL, which refuses int + double), strings and lists (+), durations (+ -).
Value Arithmetic(std::string_view op, const Value& a, const Value& b) {
    if (a.Is<int64_t>() && b.Is<int64_t>())
        return CheckedArithmetic(op, a.As<int64_t>(), b.As<int64_t>());
    if (a.Is<uint64_t>() && b.Is<uint64_t>())
        return CheckedArithmetic(op, a.As<uint64_t>(), b.As<uint64_t>());
    if (a.IsNumber() && b.IsNumber() && op != "%") {
        const double x = AsDouble(a);
        const double y = AsDouble(b);
        return Value(op == "+" ? x + y : op == "-" ? x - y : op == "*" ? x * y : x / y);
    }
    if (op == "+" && a.Is<std::string>() && b.Is<std::string>())
        return Value(a.As<std::string>() + b.As<std::string>());
    if (op == "+" && a.IsList() && b.IsList())
        return Concatenate(a, b);
    if ((op == "+" || op == "-") && a.Is<Duration>() && b.Is<Duration>()) {
        Value sum = CheckedArithmetic(op, a.As<Duration>().nanos, b.As<Duration>().nanos);
        return sum.IsError() ? sum : Value(Duration{sum.As<int64_t>()});
    }
    return NoOverload(op, a, b);
}

Value Contains(const Value& container, const Value& element) {
    if (container.IsList()) {
        for (std::size_t i = 0; i < ListSize(container); ++i) {
            if (Equal(ListAt(container, i), element))
                return Value(true);
        }
        return Value(false);
    }
    if (container.IsMap())
        return Value(MapFind(container, element).has_value());
    return NoOverload("in", element, container);
}

Value Binary(std::string_view op, const Value& a, const Value& b) {
    if (a.IsError())
        return a;
    if (b.IsError())
        return b;
    if (op == "==")
        return Value(Equal(a, b));
    if (op == "!=")
        return Value(!Equal(a, b));
    if (op == "in")
        return Contains(b, a);
    if (op == "<" || op == "<=" || op == ">" || op == ">=") {
        const std::optional<int> order = Compare(a, b);
        if (!order)
            return NoOverload(op, a, b);
        const bool result = op == "<" ? *order < 0 : op == "<=" ? *order <= 0 : op == ">" ? *order > 0 : *order >= 0;
        return Value(result);
    }
    return Arithmetic(op, a, b);
}

Value Negate(const Value& operand) {
    if (operand.Is<int64_t>()) {
        if (operand.As<int64_t>() == std::numeric_limits<int64_t>::min())
            return Value::Fail("integer overflow");
        return Value(-operand.As<int64_t>());
    }
    if (operand.Is<double>())
        return Value(-operand.As<double>());
    if (operand.Is<Duration>())
        return Value(Duration{-operand.As<Duration>().nanos});
    return operand.IsError() ? operand : Value::Fail("no such overload: -" + std::string(operand.TypeName()));
}

Value NotBool(const Value& condition, std::string_view what) {
    return condition.IsError()
               ? condition
               : Value::Fail(std::string(what) + " needs a bool, not a " + std::string(condition.TypeName()));
}

// && and ||: `decisive` (false for &&, true for ||) on either side decides, whatever the other is.
Value Logical(const Expr& expression, Activation& activation, bool decisive) {
    const Value left = Evaluate(*expression.args[0], activation);
    if (left.Is<bool>() && left.As<bool>() == decisive)
        return left;
    const Value right = Evaluate(*expression.args[1], activation);
    if (right.Is<bool>() && right.As<bool>() == decisive)
        return right;
    if (!left.Is<bool>())
        return NotBool(left, decisive ? "||" : "&&");
    if (!right.Is<bool>())
        return NotBool(right, decisive ? "||" : "&&");
    return Value(!decisive);
}

Value Ternary(const Expr& expression, Activation& activation) {
    const Value condition = Evaluate(*expression.args[0], activation);
    if (!condition.Is<bool>())
        return NotBool(condition, "?:");
    return Evaluate(*expression.args[condition.As<bool>() ? 1 : 2], activation);
}

Value Call(const Expr& expression, Activation& activation) {
    std::vector<Value> args;
    args.reserve(expression.args.size());
    for (const auto& arg : expression.args) {
        args.push_back(Evaluate(*arg, activation));
        if (args.back().IsError())
            return args.back();
    }
    return CallFunction(expression.name, expression.has_target, args);
}

Value Collection(const Expr& expression, Activation& activation) {
    if (expression.kind == ExprKind::kList) {
        auto list = std::make_shared<std::vector<Value>>();
        for (const auto& element : expression.args) {
            list->push_back(Evaluate(*element, activation));
            if (list->back().IsError())
                return list->back();
        }
        return Value(List(std::move(list)));
    }
    auto map = std::make_shared<std::vector<std::pair<Value, Value>>>();
    for (std::size_t i = 0; i + 1 < expression.args.size(); i += 2) {
        Value key = Evaluate(*expression.args[i], activation);
        Value value = Evaluate(*expression.args[i + 1], activation);
        if (key.IsError() || value.IsError())
            return key.IsError() ? key : value;
        for (const auto& entry : *map) {
            if (Equal(entry.first, key))
                return Value::Fail("a map literal repeats a key");
        }
        map->emplace_back(std::move(key), std::move(value));
    }
    return Value(Map(std::move(map)));
}

}  // namespace

const Value* Activation::Find(std::string_view name) const {
    for (auto it = variables.rbegin(); it != variables.rend(); ++it) {
        if (it->first == name)
            return &it->second;
    }
    return nullptr;
}

Value Evaluate(const Expr& expression, Activation& activation) {
    switch (expression.kind) {
        case ExprKind::kLiteral:
            return expression.literal;
        case ExprKind::kIdent:
            if (const Value* value = activation.Find(expression.name))
                return *value;
            return Value::Fail("undeclared reference to '" + expression.name + "'");
        case ExprKind::kSelect:
            return Select(Evaluate(*expression.args[0], activation), expression.name);
        case ExprKind::kHas:
            return Has(Evaluate(*expression.args[0], activation), expression.name);
        case ExprKind::kIndex:
            return Index(Evaluate(*expression.args[0], activation), Evaluate(*expression.args[1], activation));
        case ExprKind::kCall:
            return Call(expression, activation);
        case ExprKind::kList:
        case ExprKind::kMap:
            return Collection(expression, activation);
        case ExprKind::kMacro:
            return EvaluateMacro(expression, activation);
        case ExprKind::kNot: {
            const Value operand = Evaluate(*expression.args[0], activation);
            return operand.Is<bool>() ? Value(!operand.As<bool>()) : NotBool(operand, "!");
        }
        case ExprKind::kNegate:
            return Negate(Evaluate(*expression.args[0], activation));
        case ExprKind::kBinary:
            return Binary(expression.name, Evaluate(*expression.args[0], activation),
                          Evaluate(*expression.args[1], activation));
        case ExprKind::kAnd:
            return Logical(expression, activation, false);
        case ExprKind::kOr:
            return Logical(expression, activation, true);
        case ExprKind::kTernary:
            return Ternary(expression, activation);
    }
    return Value::Fail("unknown expression");
}

std::string UnescapeFieldName(std::string_view name) {
    static constexpr std::string_view kReserved[] = {
        "true", "false",  "null", "in",   "as",      "break",     "const",  "continue", "else", "for",  "function",
        "if",   "import", "let",  "loop", "package", "namespace", "return", "var",      "void", "while"};
    if (name.size() > 4 && name.substr(0, 2) == "__" && name.substr(name.size() - 2) == "__") {
        const std::string_view inner = name.substr(2, name.size() - 4);
        for (std::string_view word : kReserved) {
            if (inner == word)
                return std::string(word);
        }
    }
    static constexpr std::pair<std::string_view, std::string_view> kEscapes[] = {
        {"__underscores__", "__"}, {"__dot__", "."}, {"__dash__", "-"}, {"__slash__", "/"}};
    std::string out;
    for (std::size_t pos = 0; pos < name.size();) {
        bool replaced = false;
        for (const auto& [escape, text] : kEscapes) {
            if (name.substr(pos, escape.size()) == escape) {
                out += text;
                pos += escape.size();
                replaced = true;
                break;
            }
        }
        if (!replaced)
            out += name[pos++];
    }
    return out;
}

}  // namespace ctrl::cel::internal
