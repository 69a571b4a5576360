// CEL rules (x-kubernetes-validations, from a CRD): any text either compiles or fails with a
// BadRequest naming a column; a compiled rule evaluated against any JSON value gives a bool or a
// BadRequest, never a crash, whatever the value's shape and the schema defaults around it.
// Input: the rule, then "\n---\n", then self as JSON, then "\n---\n", then a defaults node.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "ctrl/cel/internal/program_access.hpp"
#include "ctrl/cel/program.hpp"
#include "ctrl/core/internal/json.hpp"
#include "ctrl/core/object.hpp"
#include "test/fuzz/fuzz_input.hpp"

namespace ctrl::fuzz {
namespace {

void CheckRule(std::string_view rule, std::string_view self_json, std::string_view defaults_json) {
    const StatusOr<cel::Program> program = cel::Program::Compile(rule);
    ExpectOkOrBadRequest(program.GetStatus(), "a CEL compile error that is not BadRequest");
    if (!program.Ok())
        return;
    if (program->Expression() != rule)
        PropertyFailed("a program does not keep its expression", std::string(rule));
    (void)program->Uses("oldSelf");
    StatusOr<Object> self = Object::Parse(self_json);
    if (!self.Ok())
        return;
    ExpectOkOrBadRequest(program->Test(*self).GetStatus(), "a CEL evaluation error that is not BadRequest");
    internal::JsonDocument defaults;
    if (internal::ParseJson(defaults_json, defaults).Ok()) {
        const StatusOr<bool> result = cel::ProgramAccess::Test(*program, self->Document().Root(), &defaults.Root());
        ExpectOkOrBadRequest(result.GetStatus(), "a CEL evaluation error with defaults that is not BadRequest");
    }
}

}  // namespace
}  // namespace ctrl::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    ctrl::fuzz::FuzzInput input(data, size);
    const std::string_view rule = input.TakeUntil("\n---\n");
    const std::string_view self = input.TakeUntil("\n---\n");
    ctrl::fuzz::CheckRule(rule, self, input.TakeRest());
    return 0;
}
