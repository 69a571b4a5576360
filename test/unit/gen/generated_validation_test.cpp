// Validate() of generated kinds: one cause per broken constraint, naming the field path, with the
// API server's cause types.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "gen/gallery.hpp"
#include "gen/quota.hpp"
#include "gen/widget.hpp"

namespace {

using gentest::limits::v1::Quota;

Quota QuotaWithSpec(const std::string& spec) {
    auto quota = Quota::Parse(R"({"metadata":{"name":"q","namespace":"ns"},"spec":)" + spec + "}");
    EXPECT_TRUE(quota.Ok()) << quota.GetStatus();
    return std::move(quota).Value();
}

std::vector<std::string> Causes(const ctrl::Status& status) {
    std::vector<std::string> out;
    for (const ctrl::StatusCause& cause : status.Causes())
        out.push_back(cause.type + " " + cause.field + ": " + cause.message);
    return out;
}

TEST(GeneratedValidationTest, AValidObjectIsOk) {
    const Quota quota = QuotaWithSpec(
        R"({"mode":"Lenient","replicas":10,"ratio":1,"name":"abc-1","owners":["a@example.com"],"tags":{"a":"b"},)"
        R"("note":null})");
    EXPECT_TRUE(quota.Validate().Ok()) << quota.Validate();
}

TEST(GeneratedValidationTest, EveryConstraintNamesItsField) {
    const Quota quota = QuotaWithSpec(
        R"({"mode":"Loose","replicas":11,"ratio":0,"name":"Ab","owners":["a@example.com","b@x.org","c@example.com"],)"
        R"("tags":{"a":"123456","b":"","c":""},"paused":"no"})");
    const ctrl::Status status = quota.Validate();
    EXPECT_TRUE(ctrl::IsInvalid(status)) << status;
    EXPECT_EQ(
        Causes(status),
        (std::vector<std::string>{
            R"(FieldValueNotSupported spec.mode: Unsupported value: "Loose": supported values: "Strict", "Lenient")",
            "FieldValueInvalid spec.replicas: must be less than or equal to 10",
            "FieldValueInvalid spec.ratio: must be greater than 0",
            "FieldValueInvalid spec.paused: is a string, not a boolean",
            "FieldValueInvalid spec.name: must be at least 3 characters long",
            R"(FieldValueInvalid spec.name: "Ab" does not match the pattern "^[a-z][a-z0-9-]*$")",
            "FieldValueTooMany spec.owners: must have at most 2 items",
            R"(FieldValueInvalid spec.owners[1]: "b@x.org" does not match the pattern "^[a-z]+@example\.com$")",
            "FieldValueTooMany spec.tags: must have at most 2 properties",
            "FieldValueTooLong spec.tags.a: may not be more than 5 characters long",
        }));
    EXPECT_EQ(status.Message().rfind("Quota ns/q is invalid: spec.mode: Unsupported value", 0), 0u) << status;
}

TEST(GeneratedValidationTest, RequiredFieldsAndDefaults) {
    const ctrl::Status missing = QuotaWithSpec("{}").Validate();
    EXPECT_EQ(Causes(missing), (std::vector<std::string>{"FieldValueRequired spec.mode: Required value",
                                                         "FieldValueRequired spec.owners: Required value"}));
    const ctrl::Status no_spec = Quota().Validate();
    EXPECT_EQ(Causes(no_spec), std::vector<std::string>{"FieldValueRequired spec: Required value"});

    const Quota defaults = QuotaWithSpec("{}");
    EXPECT_EQ(defaults.Spec().Mode(), "Strict");
    EXPECT_EQ(defaults.Spec().Replicas(), 3);
    EXPECT_EQ(defaults.Spec().Ratio(), 0.5);
    EXPECT_FALSE(defaults.Spec().Paused());
    EXPECT_EQ(defaults.Spec().Note(), std::nullopt);
}

TEST(GeneratedValidationTest, EnumValuesHaveNamedConstants) {
    using gentest::limits::v1::QuotaSpecLevel;
    using gentest::limits::v1::QuotaSpecMode;
    using gentest::limits::v1::QuotaSpecZones;
    static_assert(QuotaSpecLevel::k1 == 1 && QuotaSpecLevel::k2 == 2 && QuotaSpecLevel::kMinus1 == -1);
    EXPECT_STREQ(QuotaSpecZones::kEuWest1, "eu-west-1");
    EXPECT_STREQ(QuotaSpecZones::kEmpty, "");
    EXPECT_STREQ(QuotaSpecZones::kTLS1_2, "TLS1.2");
    EXPECT_STREQ(QuotaSpecZones::kAB, "a.b");
    EXPECT_STREQ(QuotaSpecZones::kAB2, "a_b");  // two values with one name: the second is numbered

    // The constants compare with what accessors return and pass to setters as they are.
    Quota quota = QuotaWithSpec(R"({"owners":["a@example.com"]})");
    EXPECT_EQ(quota.Spec().Mode(), QuotaSpecMode::kStrict);  // the default
    quota.MutableSpec().SetMode(QuotaSpecMode::kLenient);
    quota.MutableSpec().SetLevel(QuotaSpecLevel::kMinus1);
    quota.MutableSpec().SetZones({QuotaSpecZones::kTLS1_2, QuotaSpecZones::kEmpty});
    EXPECT_EQ(quota.Spec().Mode(), QuotaSpecMode::kLenient);
    EXPECT_EQ(quota.Spec().Level(), QuotaSpecLevel::kMinus1);
    EXPECT_EQ(quota.Spec().Zones(), (std::vector<std::string>{"TLS1.2", ""}));
    EXPECT_TRUE(quota.Validate().Ok()) << quota.Validate();
}

TEST(GeneratedValidationTest, IntegerEnumsAreChecked) {
    const Quota quota = QuotaWithSpec(R"({"mode":"Strict","owners":["a@example.com"],"level":3,"zones":["eu"]})");
    EXPECT_EQ(
        Causes(quota.Validate()),
        (std::vector<std::string>{
            R"(FieldValueNotSupported spec.level: Unsupported value: 3: supported values: "1", "2", "-1")",
            R"(FieldValueNotSupported spec.zones[0]: Unsupported value: "eu": supported values: "eu-west-1", "", )"
            R"("TLS1.2", "a.b", "a_b")"}));
    EXPECT_TRUE(QuotaWithSpec(R"({"mode":"Strict","owners":["a@example.com"],"level":2})").Validate().Ok());
    // A number that is not an integer is a type error, not an enum one.
    EXPECT_EQ(Causes(QuotaWithSpec(R"({"mode":"Strict","owners":["a@example.com"],"level":1.5})").Validate()),
              std::vector<std::string>{"FieldValueInvalid spec.level: is a float, not an integer"});
}

TEST(GeneratedValidationTest, NumberEnumsAreChecked) {
    for (const char* step : {"0.5", "1", "1.0", "25", "2.5e1"}) {
        EXPECT_TRUE(QuotaWithSpec(std::string(R"({"mode":"Strict","owners":["a@example.com"],"step":)") + step + "}")
                        .Validate()
                        .Ok())
            << step;
    }
    EXPECT_EQ(Causes(QuotaWithSpec(R"({"mode":"Strict","owners":["a@example.com"],"step":0.25})").Validate()),
              std::vector<std::string>{
                  R"(FieldValueNotSupported spec.step: Unsupported value: 0.25: supported values: "0.5", "1", "25")"});
}

TEST(GeneratedValidationTest, FormatsAreChecked) {
    const std::string base = R"({"mode":"Strict","owners":["a@example.com"],)";
    EXPECT_TRUE(
        QuotaWithSpec(base + R"("startedAt":"2026-12-05T08:00:00.5+01:00","address":"10.0.0.1","weight":2147483647})")
            .Validate()
            .Ok());
    EXPECT_EQ(
        Causes(QuotaWithSpec(base + R"("startedAt":"yesterday","address":"10.0.0","weight":2147483648})").Validate()),
        (std::vector<std::string>{R"(FieldValueInvalid spec.startedAt: must be of type date-time: "yesterday")",
                                  R"(FieldValueInvalid spec.address: must be of type ipv4: "10.0.0")",
                                  "FieldValueInvalid spec.weight: must be of type integer with format int32"}));
}

TEST(GeneratedValidationTest, SetsAndListMapsHoldNoDuplicates) {
    const Quota quota = QuotaWithSpec(
        R"({"mode":"Strict","owners":["a@example.com"],"aliases":["a","b","a"],)"
        R"("endpoints":[{"host":"a","port":1},{"host":"a","port":2},{"host":"a","port":1},{"host":"a"}]})");
    EXPECT_EQ(
        Causes(quota.Validate()),
        (std::vector<std::string>{R"(FieldValueDuplicate spec.aliases[2]: Duplicate value: "a")",
                                  R"(FieldValueDuplicate spec.endpoints[2]: Duplicate value: {"host":"a","port":1})"}));
}

TEST(GeneratedValidationTest, AnIntegerMayBeWrittenAsAnIntegralFloat) {
    // As the API server takes it: 2.0 is the integer 2 (its enum checked so), 1.5 is not an integer.
    EXPECT_TRUE(
        QuotaWithSpec(R"({"mode":"Strict","owners":["a@example.com"],"level":2.0,"replicas":4.0})").Validate().Ok());
    EXPECT_EQ(Causes(QuotaWithSpec(R"({"mode":"Strict","owners":["a@example.com"],"level":3.0})").Validate()),
              std::vector<std::string>{
                  R"(FieldValueNotSupported spec.level: Unsupported value: 3: supported values: "1", "2", "-1")"});
}

TEST(GeneratedValidationTest, NestedArraysAndRequiredItemFields) {
    auto gallery = gentest::collections::v1::Gallery::Parse(
        R"({"spec":{"pictures":[{"title":"a"},{"tags":[1]},"x"],"rooms":{"r":{"floor":"2"}},"ratings":[1.5]}})");
    ASSERT_TRUE(gallery.Ok());
    EXPECT_EQ(Causes(gallery->Validate()),
              (std::vector<std::string>{"FieldValueRequired spec.pictures[1].title: Required value",
                                        "FieldValueInvalid spec.pictures[1].tags[0]: is an integer, not a string",
                                        "FieldValueInvalid spec.pictures[2]: is a string, not an object",
                                        "FieldValueInvalid spec.ratings[0]: is a float, not an integer",
                                        "FieldValueInvalid spec.rooms.r.floor: is a string, not an integer"}));
}

TEST(GeneratedValidationTest, HandWrittenChecksJoinTheGeneratedOnes) {
    gentest::nested::v1::Widget widget;
    widget.MutableSpec().MutableFrame();
    ctrl::scheme::Validation validation;
    widget.Validate(validation);
    validation.Add("FieldValueForbidden", "spec.size", "must be even");
    EXPECT_EQ(Causes(validation.ToStatus("Widget", widget.Key())),
              (std::vector<std::string>{"FieldValueRequired spec.size: Required value",
                                        "FieldValueRequired spec.frame.material: Required value",
                                        "FieldValueForbidden spec.size: must be even"}));
}

}  // namespace
