#include "ctrl/core/label_selector.hpp"

#include <gtest/gtest.h>

#include <string>

#include "ctrl/core/labels.hpp"
#include "ctrl/core/object.hpp"

namespace ctrl {
namespace {

LabelSelector MustParse(std::string_view text) {
    StatusOr<LabelSelector> selector = LabelSelector::Parse(text);
    EXPECT_TRUE(selector.Ok()) << text << ": " << selector.GetStatus();
    return selector.ValueOr(LabelSelector::Nothing());
}

// The message of the BadRequest that text must fail with.
std::string ParseError(std::string_view text) {
    StatusOr<LabelSelector> selector = LabelSelector::Parse(text);
    EXPECT_FALSE(selector.Ok()) << text << " parsed as " << (selector.Ok() ? selector->String() : "");
    EXPECT_TRUE(IsBadRequest(selector.GetStatus())) << text << ": " << selector.GetStatus();
    return selector.GetStatus().Message();
}

TEST(LabelKeyTest, AcceptsNamesWithOptionalDnsPrefix) {
    for (const std::string& key :
         std::vector<std::string>{"a", "A", "app", "My_Name-1.x", "app.kubernetes.io/name", "example.com/a..b",
                                  "a-b.c/Z", std::string(63, 'k'), std::string(253, 'p') + "/n"}) {
        EXPECT_TRUE(ValidateLabelKey(key).Ok()) << key << ": " << ValidateLabelKey(key);
    }
}

TEST(LabelKeyTest, RejectsBadKeysNamingKeyAndRule) {
    struct Case {
        std::string key;
        std::string rule;
    };
    for (const Case& c : std::vector<Case>{
             {"", "name part must not be empty"},
             {"example.com/", "name part must not be empty"},
             {"/name", "prefix part before '/' must not be empty"},
             {"a/b/c", "one '/'"},
             {"-a", "must start and end with an alphanumeric character"},
             {"a-", "must start and end with an alphanumeric character"},
             {"a b", "must consist of alphanumeric characters"},
             {"caf\xc3\xa9", "must consist of alphanumeric characters"},
             {std::string(64, 'k'), "name part must be no more than 63 characters (it has 64)"},
             {"Example.com/a", "prefix part must be a lowercase DNS subdomain"},
             {"exa_mple.com/a", "prefix part must be a lowercase DNS subdomain"},
             {"a..b/c", "prefix part must be a lowercase DNS subdomain"},
             {"-a.com/c", "prefix part must be a lowercase DNS subdomain"},
             {std::string(254, 'p') + "/n", "prefix part must be no more than 253 characters (it has 254)"},
         }) {
        Status status = ValidateLabelKey(c.key);
        ASSERT_TRUE(IsBadRequest(status)) << c.key;
        EXPECT_NE(status.Message().find("invalid label key \"" + c.key + "\""), std::string::npos) << status;
        EXPECT_NE(status.Message().find(c.rule), std::string::npos) << status;
    }
}

TEST(LabelValueTest, AcceptsEmptyAndWellFormedValues) {
    for (const std::string& value :
         std::vector<std::string>{"", "v", "MyValue", "my_value", "12345", "a.b-c", std::string(63, 'v')}) {
        EXPECT_TRUE(ValidateLabelValue(value).Ok()) << value;
    }
}

TEST(LabelValueTest, RejectsTooLongAndBadCharacters) {
    Status too_long = ValidateLabelValue(std::string(64, 'v'));
    EXPECT_TRUE(IsBadRequest(too_long));
    EXPECT_NE(too_long.Message().find("must be no more than 63 characters (it has 64)"), std::string::npos);
    for (std::string value : {"-v", "v-", "_v", "a b", "a/b", "v\n"}) {
        Status status = ValidateLabelValue(value);
        ASSERT_TRUE(IsBadRequest(status)) << value;
        EXPECT_NE(status.Message().find("invalid label value \"" + value + "\""), std::string::npos) << status;
        EXPECT_NE(status.Message().find("must start and end with an alphanumeric"), std::string::npos) << status;
    }
}

TEST(LabelsTest, ValidatesAndFormatsSets) {
    EXPECT_TRUE(ValidateLabels({{"app", "web"}, {"tier", ""}}).Ok());
    Status bad = ValidateLabels({{"app", "web"}, {"tier", "-x"}});
    EXPECT_TRUE(IsBadRequest(bad));
    EXPECT_NE(bad.Message().find("label \"tier\": invalid label value \"-x\""), std::string::npos) << bad;
    EXPECT_TRUE(IsBadRequest(ValidateLabels({{"a b", "x"}})));
    EXPECT_EQ(FormatLabels({{"b", "2"}, {"a", "1"}}), "a=1,b=2");
}

TEST(LabelSelectorTest, EqualityOperators) {
    LabelSelector eq = MustParse("app=web");
    EXPECT_TRUE(eq.Matches({{"app", "web"}, {"x", "y"}}));
    EXPECT_FALSE(eq.Matches({{"app", "db"}}));
    EXPECT_FALSE(eq.Matches({}));
    EXPECT_EQ(MustParse("app==web"), eq);  // == is a synonym of =

    LabelSelector ne = MustParse("app!=web");
    EXPECT_FALSE(ne.Matches({{"app", "web"}}));
    EXPECT_TRUE(ne.Matches({{"app", "db"}}));
    EXPECT_TRUE(ne.Matches({}));  // an absent label is not equal
}

TEST(LabelSelectorTest, SetOperators) {
    LabelSelector in = MustParse("env in (prod,staging)");
    EXPECT_TRUE(in.Matches({{"env", "prod"}}));
    EXPECT_TRUE(in.Matches({{"env", "staging"}}));
    EXPECT_FALSE(in.Matches({{"env", "dev"}}));
    EXPECT_FALSE(in.Matches({}));

    LabelSelector notin = MustParse("env notin (prod)");
    EXPECT_FALSE(notin.Matches({{"env", "prod"}}));
    EXPECT_TRUE(notin.Matches({{"env", "dev"}}));
    EXPECT_TRUE(notin.Matches({}));
}

TEST(LabelSelectorTest, ExistenceOperators) {
    LabelSelector exists = MustParse("gpu");
    EXPECT_TRUE(exists.Matches({{"gpu", ""}}));
    EXPECT_FALSE(exists.Matches({{"cpu", "x"}}));
    LabelSelector absent = MustParse("!gpu");
    EXPECT_FALSE(absent.Matches({{"gpu", "true"}}));
    EXPECT_TRUE(absent.Matches({}));
    ASSERT_EQ(absent.Requirements().size(), 1u);
    EXPECT_EQ(absent.Requirements()[0].Operator(), LabelOperator::kDoesNotExist);
}

TEST(LabelSelectorTest, IntegerComparisons) {
    LabelSelector gt = MustParse("replicas>2");
    EXPECT_TRUE(gt.Matches({{"replicas", "3"}}));
    EXPECT_FALSE(gt.Matches({{"replicas", "2"}}));
    EXPECT_FALSE(gt.Matches({{"replicas", "-5"}}));
    EXPECT_FALSE(gt.Matches({{"replicas", "many"}}));  // not an integer: no match
    EXPECT_FALSE(gt.Matches({}));
    LabelSelector lt = MustParse("replicas<10");
    EXPECT_TRUE(lt.Matches({{"replicas", "9"}}));
    EXPECT_TRUE(lt.Matches({{"replicas", "+3"}}));  // Go's strconv.ParseInt takes a '+'
    for (const char* not_integer : {"", "+", "-", "+-3", " 3", "3 ", "0x3", "3.0"}) {
        EXPECT_FALSE(lt.Matches({{"replicas", not_integer}})) << not_integer;
    }
    EXPECT_FALSE(lt.Matches({{"replicas", "10"}}));
    EXPECT_FALSE(lt.Matches({{"replicas", "99999999999999999999"}}));  // out of int64 range
}

TEST(LabelSelectorTest, ConjunctionOfEveryOperator) {
    LabelSelector selector = MustParse("a=b,c!=d,e in (x,y),f notin (z),g,!h,n>1,m<5");
    Labels labels{{"a", "b"}, {"c", "q"}, {"e", "y"}, {"f", "w"}, {"g", ""}, {"n", "2"}, {"m", "4"}};
    EXPECT_TRUE(selector.Matches(labels));
    for (const auto& [key, bad] : std::vector<std::pair<std::string, std::string>>{
             {"a", "c"}, {"c", "d"}, {"e", "z"}, {"f", "z"}, {"h", "1"}, {"n", "1"}, {"m", "5"}}) {
        Labels changed = labels;
        changed[key] = bad;
        EXPECT_FALSE(selector.Matches(changed)) << key << "=" << bad;
    }
    Labels without_g = labels;
    without_g.erase("g");
    EXPECT_FALSE(selector.Matches(without_g));
}

TEST(LabelSelectorTest, ToleratesWhitespaceAroundTokens) {
    LabelSelector spaced = MustParse("  a = b ,\tc  in  ( x ,  y ) ,\n! d , e\r!=f ");
    EXPECT_EQ(spaced, MustParse("a=b,c in (x,y),!d,e!=f"));
    EXPECT_EQ(spaced.String(), "a=b,c in (x,y),!d,e!=f");
    EXPECT_TRUE(MustParse("   ").Empty());
}

TEST(LabelSelectorTest, EmptyValuesAndKeywordsAsIdentifiers) {
    LabelSelector empty_set = MustParse("a in ()");
    EXPECT_TRUE(empty_set.Matches({{"a", ""}}));
    EXPECT_FALSE(empty_set.Matches({{"a", "x"}}));
    EXPECT_EQ(MustParse("a in (,x)").Requirements()[0].Values(), (std::vector<std::string>{"", "x"}));
    EXPECT_EQ(MustParse("a in (x,,x,)").Requirements()[0].Values(), (std::vector<std::string>{"", "x"}));
    EXPECT_TRUE(MustParse("a=").Matches({{"a", ""}}));
    EXPECT_TRUE(MustParse("a=,b").Matches({{"a", ""}, {"b", "1"}}));

    LabelSelector keywords = MustParse("in in (in,notin),notin=in");
    EXPECT_TRUE(keywords.Matches({{"in", "notin"}, {"notin", "in"}}));
    EXPECT_EQ(keywords.String(), "in in (in,notin),notin=in");
}

TEST(LabelSelectorTest, CanonicalStringSortsAndRoundTrips) {
    LabelSelector selector = MustParse("z==1,a in (y,x,x),!m,b,c notin (q,p),a>3");
    EXPECT_EQ(selector.String(), "a in (x,y),a>3,b,c notin (p,q),!m,z=1");
    EXPECT_EQ(MustParse(selector.String()), selector);
    EXPECT_EQ(MustParse(selector.String()).String(), selector.String());
    for (std::string text : {"a in ()", "a in (,x)", "a=", "x.io/k!=v", "!a,b<-0"}) {
        StatusOr<LabelSelector> first = LabelSelector::Parse(text);
        if (!first.Ok())
            continue;  // "b<-0": '-0' is not a valid label value
        EXPECT_EQ(MustParse(first->String()), *first) << text;
    }
    EXPECT_FALSE(LabelSelector::Parse("b<-0").Ok());
}

TEST(LabelSelectorTest, MalformedInputNamesPositionTokenAndExpectation) {
    struct Case {
        std::string text;
        std::string detail;
    };
    for (const Case& c : std::vector<Case>{
             {"a in x)", "at position 5: found 'x', expected '('"},
             {"a in (x", "at position 7: found end of string, expected ',' or ')'"},
             {"a in", "at position 4: found end of string, expected '('"},
             {"a in (x y)", "at position 8: found 'y', expected ',' or ')'"},
             {"a in (x,=)", "at position 8: found '=', expected a value, ',' or ')'"},
             {"a=b,", "at position 4: found end of string, expected '!' or a label key"},
             {",a", "at position 0: found ',', expected '!' or a label key"},
             {"a=b,,c", "at position 4: found ',', expected '!' or a label key"},
             {"a b", "at position 2: found 'b', expected an operator (=, ==, !=, in, notin, >, <)"},
             {"a!b", "at position 1: found '!', expected an operator"},
             {"a=b c", "at position 4: found 'c', expected ',' or end of string"},
             {"!a=b", "at position 2: found '=', expected ',' or end of string"},
             {"!", "at position 1: found end of string, expected a label key"},
             {"a=(b)", "at position 2: found '(', expected a value"},
             {"a<=1", "at position 2: found '=', expected a value"},
             {"a>x", "at position 2: requirement on label \"a\": the value \"x\" of operator \">\" must be an integer"},
             {"a<1.5", "must be an integer"},
             {"a>", "at position 2: requirement on label \"a\": the value \"\" of operator \">\" must be an integer"},
             {"-a=b", "at position 0: invalid label key \"-a\""},
             {"x,a/b/c", "at position 2: invalid label key \"a/b/c\""},
             {"a=-b", "at position 2: invalid label value \"-b\""},
             {"a in (x, y_)", "at position 9: invalid label value \"y_\""},
             {"a=" + std::string(64, 'v'), "must be no more than 63 characters"},
         }) {
        std::string message = ParseError(c.text);
        EXPECT_NE(message.find("unable to parse label selector \"" + c.text + "\": "), std::string::npos) << message;
        EXPECT_NE(message.find(c.detail), std::string::npos) << c.text << " -> " << message;
    }
}

TEST(LabelSelectorTest, EverythingNothingAndEmpty) {
    EXPECT_TRUE(LabelSelector().Empty());
    EXPECT_TRUE(LabelSelector::Everything().Matches({}));
    EXPECT_EQ(LabelSelector::Everything().String(), "");
    EXPECT_EQ(MustParse(""), LabelSelector::Everything());

    LabelSelector nothing = LabelSelector::Nothing();
    EXPECT_FALSE(nothing.Empty());
    EXPECT_TRUE(nothing.IsNothing());
    EXPECT_FALSE(nothing.Matches({}));
    EXPECT_FALSE(nothing.Matches({{"a", "b"}}));
    EXPECT_NE(nothing, LabelSelector::Everything());
    nothing.Add(*LabelRequirement::Create("a", LabelOperator::kExists, {}));
    EXPECT_TRUE(nothing.IsNothing());
    EXPECT_TRUE(nothing.Requirements().empty());
    EXPECT_FALSE(MustParse("a").Empty());
}

TEST(LabelSelectorTest, FromSetValidatesAndMatchesExactly) {
    StatusOr<LabelSelector> selector = LabelSelector::FromSet({{"tier", "web"}, {"app", "shop"}});
    ASSERT_TRUE(selector.Ok()) << selector.GetStatus();
    EXPECT_EQ(selector->String(), "app=shop,tier=web");
    EXPECT_TRUE(selector->Matches({{"app", "shop"}, {"tier", "web"}, {"x", "y"}}));
    EXPECT_FALSE(selector->Matches({{"app", "shop"}}));
    EXPECT_TRUE(LabelSelector::FromSet({})->Empty());

    StatusOr<LabelSelector> bad = LabelSelector::FromSet({{"app", "no good"}});
    EXPECT_TRUE(IsBadRequest(bad.GetStatus()));
    EXPECT_NE(bad.GetStatus().Message().find("invalid label value \"no good\""), std::string::npos);

    LabelSelector unchecked = LabelSelector::FromValidatedSet({{"app", "no good"}});
    EXPECT_TRUE(unchecked.Matches({{"app", "no good"}}));
    EXPECT_EQ(unchecked.String(), "app=no good");
}

TEST(LabelSelectorTest, AddKeepsCanonicalOrderAndExactMatchIsFound) {
    LabelSelector selector = MustParse("m=1");
    selector.Add(*LabelRequirement::Create("z", LabelOperator::kIn, {"b", "a"}))
        .Add(*LabelRequirement::Create("a", LabelOperator::kNotEquals, {"x"}));
    EXPECT_EQ(selector.String(), "a!=x,m=1,z in (a,b)");
    EXPECT_EQ(selector.RequiresExactMatch("m"), "1");
    EXPECT_EQ(selector.RequiresExactMatch("z"), std::nullopt);
    EXPECT_EQ(selector.RequiresExactMatch("a"), std::nullopt);
    EXPECT_EQ(MustParse("k in (v)").RequiresExactMatch("k"), "v");
}

TEST(LabelRequirementTest, CreateEnforcesValueCountsPerOperator) {
    auto message = [](LabelOperator op, std::vector<std::string> values) {
        StatusOr<LabelRequirement> r = LabelRequirement::Create("k", op, std::move(values));
        EXPECT_TRUE(IsBadRequest(r.GetStatus()));
        return r.GetStatus().Message();
    };
    EXPECT_EQ(message(LabelOperator::kIn, {}),
              "requirement on label \"k\": operator \"in\" needs at least one value (got 0)");
    EXPECT_EQ(message(LabelOperator::kExists, {"x"}),
              "requirement on label \"k\": operator \"exists\" takes no values (got 1)");
    EXPECT_EQ(message(LabelOperator::kEquals, {"a", "b"}),
              "requirement on label \"k\": operator \"=\" needs exactly one value (got 2)");
    EXPECT_NE(message(LabelOperator::kLessThan, {"1e3"}).find("must be an integer"), std::string::npos);
    EXPECT_NE(message(LabelOperator::kNotIn, {"ok", "bad value"}).find("invalid label value \"bad value\""),
              std::string::npos);
    EXPECT_TRUE(IsBadRequest(LabelRequirement::Create("", LabelOperator::kExists, {}).GetStatus()));
    StatusOr<LabelRequirement> ok = LabelRequirement::Create("k", LabelOperator::kNotIn, {"b", "a", "b"});
    ASSERT_TRUE(ok.Ok());
    EXPECT_EQ(ok->Values(), (std::vector<std::string>{"a", "b"}));
    EXPECT_EQ(ok->String(), "k notin (a,b)");
}

Object MustParseJson(std::string_view json) {
    StatusOr<Object> object = Object::Parse(json);
    EXPECT_TRUE(object.Ok()) << object.GetStatus();
    return object.Ok() ? std::move(object).Value() : Object();
}

StatusOr<LabelSelectorSpec> SpecFromJson(std::string_view json) {
    return LabelSelectorSpec::FromObject(MustParseJson(json));
}

TEST(LabelSelectorSpecTest, DecodesAndAndsMatchLabelsWithExpressions) {
    StatusOr<LabelSelectorSpec> spec = SpecFromJson(R"({
        "matchLabels": {"app": "web"},
        "matchExpressions": [
            {"key": "env", "operator": "In", "values": ["prod", "staging"]},
            {"key": "tier", "operator": "NotIn", "values": ["cache"]},
            {"key": "gpu", "operator": "Exists"},
            {"key": "spot", "operator": "DoesNotExist", "values": []}
        ],
        "unknownField": 1})");
    ASSERT_TRUE(spec.Ok()) << spec.GetStatus();
    EXPECT_EQ(spec->match_labels, (std::map<std::string, std::string>{{"app", "web"}}));
    ASSERT_EQ(spec->match_expressions.size(), 4u);
    EXPECT_EQ(spec->match_expressions[0],
              (LabelSelectorRequirement{"env", LabelSelectorOperator::kIn, {"prod", "staging"}}));
    EXPECT_EQ(spec->match_expressions[3].op, LabelSelectorOperator::kDoesNotExist);

    StatusOr<LabelSelector> selector = ToSelector(*spec);
    ASSERT_TRUE(selector.Ok()) << selector.GetStatus();
    EXPECT_EQ(selector->String(), "app=web,env in (prod,staging),gpu,!spot,tier notin (cache)");
    Labels labels{{"app", "web"}, {"env", "prod"}, {"gpu", "1"}};
    EXPECT_TRUE(selector->Matches(labels));
    EXPECT_FALSE(selector->Matches({{"env", "prod"}, {"gpu", "1"}}));                 // matchLabels missed
    EXPECT_FALSE(selector->Matches({{"app", "web"}, {"env", "dev"}, {"gpu", "1"}}));  // expression missed
    labels["spot"] = "true";
    EXPECT_FALSE(selector->Matches(labels));
}

TEST(LabelSelectorSpecTest, EmptySpecMatchesEverything) {
    for (std::string_view json : {"{}", R"({"matchLabels": {}, "matchExpressions": []})",
                                  R"({"matchLabels": null, "matchExpressions": null})"}) {
        StatusOr<LabelSelectorSpec> spec = SpecFromJson(json);
        ASSERT_TRUE(spec.Ok()) << json << ": " << spec.GetStatus();
        EXPECT_EQ(*spec, LabelSelectorSpec{});
        StatusOr<LabelSelector> selector = ToSelector(*spec);
        ASSERT_TRUE(selector.Ok());
        EXPECT_TRUE(selector->Empty());
        EXPECT_TRUE(selector->Matches({}));
        EXPECT_TRUE(selector->Matches({{"any", "thing"}}));
    }
    std::optional<LabelSelectorSpec> absent;  // "not specified" is the caller's to interpret
    EXPECT_FALSE(absent.has_value());
}

TEST(LabelSelectorSpecTest, NullFieldsAreAbsentAsInGoDecoding) {
    StatusOr<LabelSelectorSpec> spec =
        SpecFromJson(R"({"matchExpressions": [{"key": "a", "operator": "Exists", "values": null}]})");
    ASSERT_TRUE(spec.Ok()) << spec.GetStatus();
    EXPECT_EQ(spec->match_expressions[0], (LabelSelectorRequirement{"a", LabelSelectorOperator::kExists, {}}));
    StatusOr<LabelSelectorSpec> no_values =
        SpecFromJson(R"({"matchExpressions": [{"key": "a", "operator": "In", "values": null}]})");
    EXPECT_EQ(no_values.GetStatus().Message(), "matchExpressions[0].values: must be non-empty when operator is In");
}

TEST(LabelSelectorSpecTest, RejectsInvalidObjectsNamingTheField) {
    struct Case {
        std::string json;
        std::string message;
    };
    for (const Case& c : std::vector<Case>{
             {R"({"matchExpressions": [{"key": "a", "operator": "In", "values": ["x"]},
                                      {"key": "b", "operator": "Foo"}]})",
              "matchExpressions[1].operator: \"Foo\" is not a valid label selector operator"},
             {R"({"matchExpressions": [{"key": "a", "operator": "in", "values": ["x"]}]})",
              "matchExpressions[0].operator: \"in\" is not a valid label selector operator"},
             {R"({"matchExpressions": [{"key": "a", "operator": "In", "values": []}]})",
              "matchExpressions[0].values: must be non-empty when operator is In"},
             {R"({"matchExpressions": [{"key": "a", "operator": "NotIn"}]})",
              "matchExpressions[0].values: must be non-empty when operator is NotIn"},
             {R"({"matchExpressions": [{"key": "a", "operator": "Exists", "values": ["x"]}]})",
              "matchExpressions[0].values: must be empty when operator is Exists"},
             {R"({"matchExpressions": [{"key": "a", "operator": "In", "values": ["ok", "not ok"]}]})",
              "matchExpressions[0].values[1]: invalid label value \"not ok\""},
             {R"({"matchExpressions": [{"key": "-a", "operator": "Exists"}]})",
              "matchExpressions[0].key: invalid label key \"-a\""},
             {R"({"matchExpressions": [{"operator": "Exists"}]})", "matchExpressions[0].key: required"},
             {R"({"matchExpressions": [{"key": "a"}]})", "matchExpressions[0].operator: required"},
             {R"({"matchExpressions": [{"key": 7, "operator": "Exists"}]})",
              "matchExpressions[0].key: must be a string"},
             {R"({"matchExpressions": [{"key": "a", "operator": 1}]})",
              "matchExpressions[0].operator: must be a string"},
             {R"({"matchExpressions": [{"key": "a", "operator": "In", "values": "x"}]})",
              "matchExpressions[0].values: must be an array of strings"},
             {R"({"matchExpressions": [{"key": "a", "operator": "In", "values": [1]}]})",
              "matchExpressions[0].values: must be an array of strings"},
             {R"({"matchExpressions": ["a"]})", "matchExpressions[0]: must be an object"},
             {R"({"matchExpressions": [null]})", "matchExpressions[0]: must be an object"},
             {R"({"matchExpressions": {"key": "a"}})", "matchExpressions: must be an array"},
             {R"({"matchLabels": ["a"]})", "matchLabels: must be an object whose values are strings"},
             {R"({"matchLabels": {"a": 1}})", "matchLabels: must be an object whose values are strings (matchLabels"},
             {R"({"matchExpressions": [{"key": "a", "operator": "In", "values": ["x", true]}]})",
              "matchExpressions[0].values: must be an array of strings (values[1]"},
             {R"({"matchLabels": {"a b": "x"}})", "matchLabels[\"a b\"]: invalid label key \"a b\""},
             {R"({"matchLabels": {"a": "x y"}})", "matchLabels[\"a\"]: invalid label value \"x y\""},
             {R"(["matchLabels"])", "a label selector must be a JSON object"},
         }) {
        StatusOr<LabelSelectorSpec> spec = SpecFromJson(c.json);
        ASSERT_FALSE(spec.Ok()) << c.json;
        EXPECT_TRUE(IsBadRequest(spec.GetStatus())) << spec.GetStatus();
        EXPECT_NE(spec.GetStatus().Message().find(c.message), std::string::npos)
            << c.json << " -> " << spec.GetStatus().Message();
    }
}

TEST(LabelSelectorSpecTest, ToSelectorValidatesSpecsBuiltInCode) {
    LabelSelectorSpec spec;
    spec.match_expressions.push_back({"a", LabelSelectorOperator::kIn, {}});
    StatusOr<LabelSelector> selector = ToSelector(spec);
    EXPECT_TRUE(IsBadRequest(selector.GetStatus()));
    EXPECT_EQ(selector.GetStatus().Message(), "matchExpressions[0].values: must be non-empty when operator is In");

    LabelSelectorSpec labels_only{{{"app", "web"}, {"tier", "front"}}, {}};
    StatusOr<LabelSelector> exact = ToSelector(labels_only);
    ASSERT_TRUE(exact.Ok());
    EXPECT_EQ(*exact, *LabelSelector::FromSet(labels_only.match_labels));
    EXPECT_EQ(LabelSelectorOperatorName(LabelSelectorOperator::kDoesNotExist), "DoesNotExist");
}

}  // namespace
}  // namespace ctrl
