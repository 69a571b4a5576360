// A field's CEL rules in scheme::Validation: evaluated against the field's value, reported at the
// field (or the rule's fieldPath) with the rule's message and reason, and held back, as the API
// server holds them back, when a blocking problem (a wrong type, a missing required field, an
// unsupported enum value, too long, too many) was found.
#include <gtest/gtest.h>

#include "ctrl/scheme/field_ref.hpp"
#include "ctrl/scheme/schema_validation.hpp"

namespace ctrl {
void PrintTo(const StatusCause& cause, std::ostream* out) {
    *out << "{" << cause.type << ", " << cause.message << ", " << cause.field << "}";
}
}  // namespace ctrl

namespace ctrl::scheme {
namespace {

constexpr CelRule kReplicaRules[] = {
    {.rule = "!has(self.min) || self.min <= (has(self.max) ? self.max : 100)",
     .message = "min must be less than or equal to max"},
    {.rule = "self.mode != 'Topology' || has(self.topology)",
     .field_path = ".topology",
     .reason = "FieldValueRequired"},
    {.rule = "self.name.startsWith('a')"},
    {.rule = "self == oldSelf"},  // a transition rule: not checked without an old object
};
constexpr FieldRule kSpecRule{.type = SchemaType::kObject, .cel_rules = kReplicaRules};
constexpr FieldRule kMinRule{.type = SchemaType::kInteger};
constexpr std::string_view kModes[] = {"Topology", "Flat"};
constexpr FieldRule kModeRule{.type = SchemaType::kString, .enum_values = kModes};

std::vector<StatusCause> Validate(const std::string& spec_json) {
    const Object object = *Object::Parse(R"({"spec":)" + spec_json + "}");
    Validation validation;
    const FieldRef spec = FieldRef(object).Child("spec");
    if (validation.Check(spec, kSpecRule)) {
        validation.Check(spec.Child("min"), kMinRule);
        validation.Check(spec.Child("mode"), kModeRule);
    }
    return validation.Causes();
}

TEST(CelValidation, AFalseRuleIsACauseAtTheFieldWithItsMessage) {
    EXPECT_EQ(Validate(R"({"name":"a","mode":"Flat","min":3,"max":5})"), std::vector<StatusCause>{});
    EXPECT_EQ(Validate(R"({"name":"a","mode":"Flat","min":30,"max":5})"),
              (std::vector<StatusCause>{{"FieldValueInvalid", "min must be less than or equal to max", "spec"}}));
}

TEST(CelValidation, FieldPathAndReasonPlaceAndTypeTheCause) {
    EXPECT_EQ(
        Validate(R"({"name":"a","mode":"Topology"})"),
        (std::vector<StatusCause>{
            {"FieldValueRequired", "failed rule: self.mode != 'Topology' || has(self.topology)", "spec.topology"}}));
}

TEST(CelValidation, AnEvaluationErrorIsACauseNamingTheRule) {
    EXPECT_EQ(Validate(R"({"min":1})"),
              (std::vector<StatusCause>{
                  {"FieldValueInvalid",
                   "no such key: mode evaluating rule: self.mode != 'Topology' || has(self.topology)", "spec"},
                  {"FieldValueInvalid", "no such key: name evaluating rule: self.name.startsWith('a')", "spec"}}));
}

TEST(CelValidation, RulesAreHeldBackWhenABlockingProblemWasFound) {
    // min above max breaks a rule, but an unsupported mode is blocking: only the enum is reported.
    const std::vector<StatusCause> causes = Validate(R"({"name":"a","min":30,"max":5,"mode":"Ring"})");
    ASSERT_EQ(causes.size(), 1u);
    EXPECT_EQ(causes[0].type, "FieldValueNotSupported");
    // A wrong type is blocking too: the rule, which would fail comparing a string, is held back.
    const std::vector<StatusCause> type_error = Validate(R"({"name":"a","min":"many"})");
    ASSERT_EQ(type_error.size(), 1u);
    EXPECT_EQ(type_error[0].field, "spec.min");
}

TEST(CelValidation, RulesSeeTheSchemaDefaultsOfAbsentFieldsAsTheServerDoes) {
    // Gateway API's parentRefs: group and kind are defaulted, and the rules compare them.
    static constexpr CelRule kRefs[] = {
        {.rule = "self.all(p, p.group == 'gateway.networking.k8s.io' && has(p.kind) && p.kind == 'Gateway')"},
        {.rule = "self.all(p, p.options.size() == 2 && p.options.mode == 'Same')"},
        {.rule = "self.all(p, p.exists(k, k == 'kind'))"}};  // defaulted keys are keys
    static constexpr FieldRule kRefsRule{
        .type = SchemaType::kArray,
        .cel_rules = kRefs,
        .cel_defaults = R"({"[]":{"group":{"=":"gateway.networking.k8s.io"},"kind":{"=":"Gateway"},)"
                        R"("options":{"=":{"mode":"Same"},"depth":{"=":2}}}})"};
    const auto causes = [](const std::string& json) {
        const Object object = *Object::Parse(json);
        Validation validation;
        validation.Check(FieldRef(object).Child("refs"), kRefsRule);
        return validation.Causes();
    };
    EXPECT_EQ(causes(R"({"refs":[{"name":"a"},{"name":"b","group":"gateway.networking.k8s.io"}]})"),
              std::vector<StatusCause>{});
    const std::vector<StatusCause> wrong_group = causes(R"({"refs":[{"name":"a","group":"example.com"}]})");
    ASSERT_EQ(wrong_group.size(), 1u);
    EXPECT_EQ(wrong_group[0].field, "refs");
    // An object default is defaulted inside too; a present value is not replaced.
    EXPECT_EQ(causes(R"({"refs":[{"options":{"mode":"Same"}}]})"), std::vector<StatusCause>{});
    EXPECT_EQ(causes(R"({"refs":[{"options":{"mode":"All"}}]})").size(), 1u);
}

TEST(CelValidation, ARuleOutsideTheSubsetIsACauseNotSilence) {
    static constexpr CelRule kUrl[] = {{.rule = "url(self).getScheme() == 'https'"}};
    static constexpr FieldRule kUrlRule{.type = SchemaType::kString, .cel_rules = kUrl};
    const Object object = *Object::Parse(R"({"url":"http://x"})");
    Validation validation;
    validation.Check(FieldRef(object).Child("url"), kUrlRule);
    ASSERT_EQ(validation.Causes().size(), 1u);
    EXPECT_EQ(validation.Causes()[0].message,
              "rule cannot be checked: unsupported function url() at column 1: url(self).getScheme() == 'https'");
}

}  // namespace
}  // namespace ctrl::scheme
