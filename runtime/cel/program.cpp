#include "ctrl/cel/program.hpp"

#include "ctrl/cel/internal/ast.hpp"
#include "ctrl/cel/internal/eval.hpp"
#include "ctrl/cel/internal/program_access.hpp"

namespace ctrl::cel {

StatusOr<Program> Program::Compile(std::string_view expression) {
    StatusOr<std::unique_ptr<internal::Expr>> root = internal::Parse(expression);
    if (!root.Ok())
        return root.GetStatus();
    return Program(std::string(expression), std::shared_ptr<const internal::Expr>(std::move(*root)));
}

bool Program::Uses(std::string_view variable) const {
    return internal::UsesVariable(*root_, variable);
}

StatusOr<bool> Program::Test(const Object& self) const {
    return ProgramAccess::Test(*this, self.Document().Root());
}

internal::Value ProgramAccess::Evaluate(const Program& program, const internal::JsonValue& self,
                                        const internal::JsonValue* defaults) {
    internal::Activation activation;
    activation.variables.emplace_back("self", internal::Value::FromJson(self, defaults));
    return internal::Evaluate(*program.root_, activation);
}

StatusOr<bool> ProgramAccess::Test(const Program& program, const internal::JsonValue& self,
                                   const internal::JsonValue* defaults) {
    const internal::Value result = Evaluate(program, self, defaults);
    if (result.IsError())
        return BadRequestError(result.As<internal::Error>().message);
    if (!result.Is<bool>())
        return BadRequestError("the expression gave a " + std::string(result.TypeName()) + ", not a bool");
    return result.As<bool>();
}

}  // namespace ctrl::cel
