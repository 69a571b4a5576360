// A field's CEL rules (x-kubernetes-validations), checked as the API server checks them: each rule
// evaluated with self = the field's value; false or an evaluation error is a cause at the field (or
// at the rule's fieldPath under it).
#include <map>
#include <memory>
#include <mutex>

#include "ctrl/cel/internal/program_access.hpp"
#include "ctrl/cel/program.hpp"
#include "ctrl/core/internal/json.hpp"
#include "ctrl/scheme/schema_validation.hpp"

namespace ctrl::scheme {

namespace {

// What make(text) gives, made once per process and text (generated kinds hold rules and defaults
// as constants, so the texts are few). Each caller type T has its own cache.
template <typename T, typename Make>
std::shared_ptr<const T> OncePerText(std::string_view text, Make make) {
    static std::mutex mutex;
    static std::map<std::string, std::shared_ptr<const T>, std::less<>> cache;
    const std::lock_guard lock(mutex);
    if (auto it = cache.find(text); it != cache.end())
        return it->second;
    std::shared_ptr<const T> made = make(text);
    cache.emplace(std::string(text), made);
    return made;
}

std::shared_ptr<const StatusOr<cel::Program>> CompiledRule(std::string_view rule) {
    return OncePerText<StatusOr<cel::Program>>(rule, [](std::string_view text) {
        return std::make_shared<const StatusOr<cel::Program>>(cel::Program::Compile(text));
    });
}

// A FieldRule's cel_defaults parsed; nullptr for none (or malformed, which ctrl-gen does not write).
std::shared_ptr<const internal::JsonDocument> ParsedDefaults(std::string_view text) {
    if (text.empty())
        return nullptr;
    return OncePerText<internal::JsonDocument>(text, [](std::string_view json) {
        auto document = std::make_shared<internal::JsonDocument>();
        return internal::ParseJson(json, *document).Ok() ? std::shared_ptr<const internal::JsonDocument>(document)
                                                         : nullptr;
    });
}

std::string CauseType(std::string_view reason) {
    if (reason == "FieldValueForbidden" || reason == "FieldValueRequired" || reason == "FieldValueDuplicate")
        return std::string(reason);
    return "FieldValueInvalid";
}

std::string CausePath(const FieldRef& ref, std::string_view field_path) {
    std::string path = ref.PathString();
    if (path.empty() && !field_path.empty() && field_path.front() == '.')
        field_path.remove_prefix(1);
    return path + std::string(field_path);
}

}  // namespace

void Validation::CheckCelRules(const FieldRef& ref, const FieldRule& rule) {
    const auto* self = static_cast<const internal::JsonValue*>(ref.Resolve());
    if (self == nullptr)
        return;
    const std::shared_ptr<const internal::JsonDocument> defaults = ParsedDefaults(rule.cel_defaults);
    const internal::JsonValue* defaults_root = defaults ? &defaults->Root() : nullptr;
    for (const CelRule& cel_rule : rule.cel_rules) {
        const std::shared_ptr<const StatusOr<cel::Program>> program = CompiledRule(cel_rule.rule);
        if (!program->Ok()) {
            Add("FieldValueInvalid", ref.PathString(),
                "rule cannot be checked: " + program->GetStatus().Message() + ": " + std::string(cel_rule.rule));
            continue;
        }
        if ((*program)->Uses("oldSelf"))
            continue;  // a transition rule: needs the old object
        const StatusOr<bool> passed = cel::ProgramAccess::Test(**program, *self, defaults_root);
        if (!passed.Ok()) {
            AddCause(cel_causes_,
                     StatusCause{"FieldValueInvalid",
                                 passed.GetStatus().Message() + " evaluating rule: " + std::string(cel_rule.rule),
                                 ref.PathString()});
        } else if (!*passed) {
            std::string message =
                cel_rule.message.empty() ? "failed rule: " + std::string(cel_rule.rule) : std::string(cel_rule.message);
            AddCause(cel_causes_,
                     StatusCause{CauseType(cel_rule.reason), std::move(message), CausePath(ref, cel_rule.field_path)});
        }
    }
}

}  // namespace ctrl::scheme
