// A recursive-descent parser of CEL's grammar:
//   Expr   = Or ["?" Or ":" Expr]         Or  = And {"||" And}        And = Rel {"&&" Rel}
//   Rel    = Add {("<"|"<="|">="|">"|"=="|"!="|"in") Add}            Add = Mul {("+"|"-") Mul}
//   Mul    = Unary {("*"|"/"|"%") Unary}  Unary = Member | "!"... Member | "-"... Member
//   Member = Primary {"." IDENT ["(" args ")"] | "[" Expr "]"}
//   Primary = IDENT ["(" args ")"] | "(" Expr ")" | "[" list "]" | "{" map "}" | literal
#include <algorithm>
#include <iterator>
#include <limits>

#include "ctrl/cel/internal/ast.hpp"
#include "ctrl/cel/internal/lexer.hpp"

namespace ctrl::cel::internal {

namespace {

using ExprPtr = std::unique_ptr<Expr>;

constexpr int kMaxDepth = 250;

ExprPtr Node(ExprKind kind, std::size_t column, std::string name = {}) {
    auto node = std::make_unique<Expr>();
    node->kind = kind;
    node->column = column;
    node->name = std::move(name);
    return node;
}

bool IsMacro(std::string_view name, std::size_t args) {
    if (name == "map")
        return args == 2 || args == 3;
    return args == 2 && (name == "all" || name == "exists" || name == "exists_one" || name == "filter");
}

class Parser {
  public:
    explicit Parser(std::vector<Token> tokens) : tokens_(std::move(tokens)) {}

    StatusOr<ExprPtr> ParseAll() {
        ExprPtr root = ParseExpr();
        if (error_.Ok() && Peek().kind != TokenKind::kEnd)
            Fail("unexpected " + Describe(Peek()));
        if (!error_.Ok())
            return error_;
        return root;
    }

  private:
    const Token& Peek() const { return tokens_[pos_]; }
    bool IsPunct(std::string_view text) const { return Peek().kind == TokenKind::kPunct && Peek().text == text; }
    bool Accept(std::string_view text) {
        if (!IsPunct(text))
            return false;
        ++pos_;
        return true;
    }
    void Expect(std::string_view text) {
        if (!Accept(text))
            Fail("expected '" + std::string(text) + "', found " + Describe(Peek()));
    }
    static std::string Describe(const Token& token) {
        if (token.kind == TokenKind::kEnd)
            return "the end of the expression";
        if (token.kind == TokenKind::kLiteral)
            return "a literal";
        return "'" + token.text + "'";
    }
    // Records the first error (at the current token); parsing then unwinds with placeholders.
    ExprPtr Fail(const std::string& what) { return FailAt(what, Peek().column); }
    ExprPtr FailAt(const std::string& what, std::size_t column) {
        if (error_.Ok())
            error_ = BadRequestError(what + " at column " + std::to_string(column));
        pos_ = tokens_.size() - 1;
        return Node(ExprKind::kLiteral, Peek().column);
    }

    ExprPtr ParseExpr() {
        if (++depth_ > kMaxDepth)
            return Fail("expression nested too deeply");
        ExprPtr condition = ParseOr();
        if (IsPunct("?")) {
            auto node = Node(ExprKind::kTernary, Peek().column);
            ++pos_;
            node->args.push_back(std::move(condition));
            node->args.push_back(ParseOr());
            Expect(":");
            node->args.push_back(ParseExpr());
            condition = std::move(node);
        }
        --depth_;
        return condition;
    }

    template <typename Next>
    ExprPtr ParseLeftAssociative(std::initializer_list<std::string_view> ops, ExprKind kind, Next next) {
        ExprPtr left = (this->*next)();
        // Each operator of a chain deepens the tree (and its evaluation's recursion) by one.
        const int depth_before = depth_;
        while (true) {
            const Token& token = Peek();
            const bool in = token.kind == TokenKind::kIdent && token.text == "in" &&
                            std::find(ops.begin(), ops.end(), "in") != ops.end();
            const bool op =
                token.kind == TokenKind::kPunct && std::find(ops.begin(), ops.end(), token.text) != ops.end();
            if (!in && !op) {
                depth_ = depth_before;
                return left;
            }
            if (++depth_ > kMaxDepth)
                return Fail("expression nested too deeply");
            auto node = Node(kind, token.column, token.text);
            ++pos_;
            node->args.push_back(std::move(left));
            node->args.push_back((this->*next)());
            left = std::move(node);
        }
    }

    ExprPtr ParseOr() { return ParseLeftAssociative({"||"}, ExprKind::kOr, &Parser::ParseAnd); }
    ExprPtr ParseAnd() { return ParseLeftAssociative({"&&"}, ExprKind::kAnd, &Parser::ParseRelation); }
    ExprPtr ParseRelation() {
        return ParseLeftAssociative({"<", "<=", ">", ">=", "==", "!=", "in"}, ExprKind::kBinary, &Parser::ParseAdd);
    }
    ExprPtr ParseAdd() { return ParseLeftAssociative({"+", "-"}, ExprKind::kBinary, &Parser::ParseMul); }
    ExprPtr ParseMul() { return ParseLeftAssociative({"*", "/", "%"}, ExprKind::kBinary, &Parser::ParseUnary); }

    ExprPtr ParseUnary() {
        if (IsPunct("!") || IsPunct("-")) {
            const Token op = Peek();
            ++pos_;
            if (op.text == "-" && Peek().kind == TokenKind::kLiteral && Peek().text == kInt64MinMagnitude) {
                auto literal = Node(ExprKind::kLiteral, op.column);
                literal->literal = Value(std::numeric_limits<int64_t>::min());
                ++pos_;
                return ParseMemberSuffixes(std::move(literal));
            }
            if (++depth_ > kMaxDepth)
                return Fail("expression nested too deeply");
            auto node = Node(op.text == "!" ? ExprKind::kNot : ExprKind::kNegate, op.column);
            node->args.push_back(ParseUnary());
            --depth_;
            return node;
        }
        return ParseMemberSuffixes(ParsePrimary());
    }

    // Arguments after "(" up to ")".
    std::vector<ExprPtr> ParseArguments() {
        std::vector<ExprPtr> args;
        if (!Accept(")")) {
            do {
                args.push_back(ParseExpr());
            } while (Accept(","));
            Expect(")");
        }
        return args;
    }

    ExprPtr ParseMemberSuffixes(ExprPtr operand) {
        while (error_.Ok()) {
            const std::size_t column = Peek().column;
            if (Accept("[")) {
                auto node = Node(ExprKind::kIndex, column);
                node->args.push_back(std::move(operand));
                node->args.push_back(ParseExpr());
                Expect("]");
                operand = std::move(node);
            } else if (Accept(".")) {
                if (Peek().kind != TokenKind::kIdent)
                    return Fail("expected a field or method name after '.', found " + Describe(Peek()));
                std::string name = Peek().text;
                const std::size_t name_column = Peek().column;
                ++pos_;
                operand = Accept("(") ? MakeMethodCall(std::move(operand), std::move(name), name_column)
                                      : MakeSelect(std::move(operand), std::move(name), column);
            } else {
                break;
            }
        }
        return operand;
    }

    static ExprPtr MakeSelect(ExprPtr operand, std::string name, std::size_t column) {
        auto node = Node(ExprKind::kSelect, column, std::move(name));
        node->args.push_back(std::move(operand));
        return node;
    }

    ExprPtr MakeMethodCall(ExprPtr target, std::string name, std::size_t column) {
        std::vector<ExprPtr> args = ParseArguments();
        if (IsMacro(name, args.size())) {
            if (args[0]->kind != ExprKind::kIdent)
                return Fail(name + "() needs a variable name as its first argument");
            auto node = Node(ExprKind::kMacro, column, name);
            node->var = args[0]->name;
            node->args.push_back(std::move(target));
            for (std::size_t i = 1; i < args.size(); ++i)
                node->args.push_back(std::move(args[i]));
            return node;
        }
        if (!IsKnownFunction(name))
            return FailAt("unsupported function " + name + "()", column);
        auto node = Node(ExprKind::kCall, column, std::move(name));
        node->has_target = true;
        node->args.push_back(std::move(target));
        for (ExprPtr& arg : args)
            node->args.push_back(std::move(arg));
        return node;
    }

    ExprPtr ParseGlobalCall(std::string name, std::size_t column) {
        std::vector<ExprPtr> args = ParseArguments();
        if (name == "has") {
            if (args.size() != 1 || args[0]->kind != ExprKind::kSelect)
                return Fail("has() takes one field selection, as in has(self.field)");
            args[0]->kind = ExprKind::kHas;
            return std::move(args[0]);
        }
        if (!IsKnownFunction(name))
            return FailAt("unsupported function " + name + "()", column);
        auto node = Node(ExprKind::kCall, column, std::move(name));
        node->args = std::move(args);
        return node;
    }

    // Elements up to the closing bracket; a trailing comma is allowed.
    void ParseElements(Expr& node, std::string_view close, bool pairs) {
        while (error_.Ok() && !Accept(close)) {
            node.args.push_back(ParseExpr());
            if (pairs) {
                Expect(":");
                node.args.push_back(ParseExpr());
            }
            if (!Accept(",")) {
                Expect(close);
                break;
            }
        }
    }

    ExprPtr ParsePrimary() {
        const Token token = Peek();
        ++pos_;
        if (token.kind == TokenKind::kLiteral) {
            if (token.text == kInt64MinMagnitude) {
                --pos_;
                return Fail("integer literal out of range");
            }
            auto node = Node(ExprKind::kLiteral, token.column);
            node->literal = token.literal;
            return node;
        }
        if (token.kind == TokenKind::kIdent && token.text != "in")
            return Accept("(") ? ParseGlobalCall(token.text, token.column)
                               : Node(ExprKind::kIdent, token.column, token.text);
        if (token.kind == TokenKind::kPunct && token.text == "(") {
            ExprPtr inner = ParseExpr();
            Expect(")");
            return inner;
        }
        if (token.kind == TokenKind::kPunct && (token.text == "[" || token.text == "{")) {
            const bool map = token.text == "{";
            auto node = Node(map ? ExprKind::kMap : ExprKind::kList, token.column);
            ParseElements(*node, map ? "}" : "]", map);
            return node;
        }
        --pos_;
        return Fail("unexpected " + Describe(token));
    }

    std::vector<Token> tokens_;
    std::size_t pos_ = 0;
    int depth_ = 0;
    Status error_;
};

}  // namespace

bool IsKnownFunction(std::string_view name) {
    static constexpr std::string_view kFunctions[] = {
        "size", "contains", "startsWith", "endsWith", "matches", "lowerAscii",  "upperAscii",
        "trim", "split",    "join",       "replace",  "indexOf", "lastIndexOf", "substring",
        "int",  "uint",     "double",     "string",   "bool",    "duration",    "dyn"};
    return std::find(std::begin(kFunctions), std::end(kFunctions), name) != std::end(kFunctions);
}

StatusOr<std::unique_ptr<Expr>> Parse(std::string_view expression) {
    StatusOr<std::vector<Token>> tokens = Tokenize(expression);
    if (!tokens.Ok())
        return tokens.GetStatus();
    return Parser(std::move(*tokens)).ParseAll();
}

bool UsesVariable(const Expr& expression, std::string_view variable) {
    if (expression.kind == ExprKind::kIdent)
        return expression.name == variable;
    for (std::size_t i = 0; i < expression.args.size(); ++i) {
        const bool rebound = expression.kind == ExprKind::kMacro && i > 0 && expression.var == variable;
        if (!rebound && UsesVariable(*expression.args[i], variable))
            return true;
    }
    return false;
}

}  // namespace ctrl::cel::internal
