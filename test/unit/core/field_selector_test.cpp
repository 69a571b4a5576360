#include "ctrl/core/field_selector.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace ctrl {
namespace {

FieldSelector MustParse(std::string_view text) {
    StatusOr<FieldSelector> selector = FieldSelector::Parse(text);
    EXPECT_TRUE(selector.Ok()) << text << ": " << selector.GetStatus();
    return selector.ValueOr(FieldSelector());
}

TEST(FieldSelectorTest, ParsesEachOperatorAndMatches) {
    FieldSelector eq = MustParse("spec.nodeName=node-1");
    ASSERT_EQ(eq.Terms().size(), 1u);
    EXPECT_EQ(eq.Terms()[0], (FieldTerm{"spec.nodeName", FieldOperator::kEquals, "node-1"}));
    EXPECT_TRUE(eq.Matches({{"spec.nodeName", "node-1"}}));
    EXPECT_FALSE(eq.Matches({{"spec.nodeName", "node-2"}}));
    EXPECT_FALSE(eq.Matches({}));
    EXPECT_EQ(MustParse("spec.nodeName==node-1"), eq);

    FieldSelector ne = MustParse("status.phase!=Running");
    EXPECT_EQ(ne.Terms()[0].op, FieldOperator::kNotEquals);
    EXPECT_FALSE(ne.Matches({{"status.phase", "Running"}}));
    EXPECT_TRUE(ne.Matches({{"status.phase", "Pending"}}));
    EXPECT_TRUE(ne.Matches({}));
}

TEST(FieldSelectorTest, AbsentFieldsReadAsEmpty) {
    EXPECT_TRUE(MustParse("spec.nodeName=").Matches({}));
    EXPECT_FALSE(MustParse("spec.nodeName!=").Matches({}));
    EXPECT_TRUE(MustParse("spec.nodeName!=").Matches({{"spec.nodeName", "n"}}));
}

TEST(FieldSelectorTest, TermsAreAnded) {
    FieldSelector selector = MustParse("metadata.namespace=default,metadata.name!=skip,status.phase==Running");
    Fields fields{{"metadata.namespace", "default"}, {"metadata.name", "web"}, {"status.phase", "Running"}};
    EXPECT_TRUE(selector.Matches(fields));
    fields["metadata.name"] = "skip";
    EXPECT_FALSE(selector.Matches(fields));
    fields["metadata.name"] = "web";
    fields["metadata.namespace"] = "other";
    EXPECT_FALSE(selector.Matches(fields));
}

TEST(FieldSelectorTest, CanonicalStringSortsLikeApimachineryAndRoundTrips) {
    FieldSelector selector = MustParse("b=2,a.b=3,a=0,a!=1");
    EXPECT_EQ(selector.String(), "a!=1,a.b=3,a=0,b=2");
    EXPECT_EQ(MustParse(selector.String()), selector);
    EXPECT_EQ(MustParse("a==x").String(), "a=x");
}

TEST(FieldSelectorTest, UnescapesValuesAndEscapesThemAgain) {
    FieldSelector selector = MustParse(R"(a=x\,y\=z\\w,b!=q)");
    ASSERT_EQ(selector.Terms().size(), 2u);
    EXPECT_EQ(selector.Terms()[0].value, R"(x,y=z\w)");
    EXPECT_TRUE(selector.Matches({{"a", R"(x,y=z\w)"}, {"b", "r"}}));
    EXPECT_EQ(selector.String(), R"(a=x\,y\=z\\w,b!=q)");
    EXPECT_EQ(MustParse(selector.String()), selector);

    FieldSelector bang = MustParse("a=b!c,d!=!e");  // '!' needs no escape, as in apimachinery
    EXPECT_TRUE(bang.Matches({{"a", "b!c"}, {"d", "x"}}));
    EXPECT_EQ(bang.String(), "a=b!c,d!=!e");

    FieldSelector built = FieldSelector::OneTermEqual("metadata.name", R"(a,b=c\d)");
    EXPECT_EQ(built.String(), R"(metadata.name=a\,b\=c\\d)");
    EXPECT_EQ(MustParse(built.String()), built);
}

TEST(FieldSelectorTest, EscapeHelpers) {
    EXPECT_EQ(EscapeFieldValue(R"(plain!)"), "plain!");
    EXPECT_EQ(EscapeFieldValue(R"(\,=)"), R"(\\\,\=)");
    StatusOr<std::string> back = UnescapeFieldValue(R"(\\\,\=)");
    ASSERT_TRUE(back.Ok());
    EXPECT_EQ(*back, R"(\,=)");
    StatusOr<std::string> bad = UnescapeFieldValue(R"(ab\n)");
    EXPECT_TRUE(IsBadRequest(bad.GetStatus()));
    EXPECT_NE(bad.GetStatus().Message().find(R"(at offset 2: invalid escape sequence '\n')"), std::string::npos)
        << bad.GetStatus();
}

TEST(FieldSelectorTest, WhitespaceIsPartOfFieldsAndValues) {
    FieldSelector selector = MustParse("a = b");
    EXPECT_EQ(selector.Terms()[0], (FieldTerm{"a ", FieldOperator::kEquals, " b"}));
    EXPECT_FALSE(selector.Matches({{"a", "b"}}));
}

TEST(FieldSelectorTest, MalformedInputIsBadRequestNamingTheProblem) {
    struct Case {
        std::string text;
        std::string detail;
    };
    for (const Case& c : std::vector<Case>{
             {"a", "at position 0: term \"a\" has no operator; expected field=value, field==value or field!=value"},
             {"x=1,a>b", "at position 4: term \"a>b\" has no operator"},
             {"a!b", "term \"a!b\" has no operator"},
             {"=b", "at position 0: term \"=b\" has an empty field name"},
             {"!=b", "term \"!=b\" has an empty field name"},
             {"a=b,,", "at position 4: empty term"},
             {"a=b,", "at position 4: empty term"},
             {",a=b", "at position 0: empty term"},
             {"a=b,,c=d", "at position 4: empty term"},
             {"a=b=c", "at position 3: term \"a=b=c\": unescaped '=' in a value; write it as '\\='"},
             {"a===b", "at position 3: term \"a===b\": unescaped '='"},
             {"x=y,a=b\\", "at position 7: term \"a=b\\\": dangling '\\' at the end of a value"},
             {"a=b\\!", "at position 3: term \"a=b\\!\": invalid escape sequence '\\!'"},
             {"a=\\x", "invalid escape sequence '\\x' in a value; the escapes are '\\\\', '\\,' and '\\='"},
             {"a=\\\xc3\xa9", "invalid escape sequence '\\\xc3\xa9'"},
         }) {
        StatusOr<FieldSelector> selector = FieldSelector::Parse(c.text);
        ASSERT_FALSE(selector.Ok()) << c.text << " parsed as " << selector->String();
        EXPECT_TRUE(IsBadRequest(selector.GetStatus())) << selector.GetStatus();
        const std::string& message = selector.GetStatus().Message();
        EXPECT_NE(message.find("unable to parse field selector \"" + c.text + "\": "), std::string::npos) << message;
        EXPECT_NE(message.find(c.detail), std::string::npos) << c.text << " -> " << message;
    }
}

TEST(FieldSelectorTest, EverythingAndEmpty) {
    EXPECT_TRUE(FieldSelector().Empty());
    EXPECT_TRUE(FieldSelector::Everything().Matches({}));
    EXPECT_EQ(FieldSelector::Everything().String(), "");
    EXPECT_EQ(MustParse(""), FieldSelector::Everything());
    EXPECT_FALSE(MustParse("a=").Empty());
}

TEST(FieldSelectorTest, BuildersCombineInCanonicalOrder) {
    FieldSelector one = FieldSelector::OneTermEqual("spec.nodeName", "n1");
    EXPECT_EQ(one.String(), "spec.nodeName=n1");
    EXPECT_EQ(one.RequiresExactMatch("spec.nodeName"), "n1");
    EXPECT_EQ(one.RequiresExactMatch("metadata.name"), std::nullopt);

    FieldSelector from_set = FieldSelector::FromSet({{"metadata.name", "x"}, {"metadata.namespace", "ns"}});
    EXPECT_EQ(from_set.String(), "metadata.name=x,metadata.namespace=ns");

    FieldSelector both = FieldSelector::AndSelectors({one, MustParse("status.phase!=Failed"), from_set});
    EXPECT_EQ(both.String(), "metadata.name=x,metadata.namespace=ns,spec.nodeName=n1,status.phase!=Failed");
    EXPECT_TRUE(both.Matches(
        {{"metadata.name", "x"}, {"metadata.namespace", "ns"}, {"spec.nodeName", "n1"}, {"status.phase", "Running"}}));
    EXPECT_FALSE(both.Matches({{"metadata.name", "x"}, {"metadata.namespace", "ns"}, {"spec.nodeName", "n2"}}));
    EXPECT_EQ(both.RequiresExactMatch("status.phase"), std::nullopt);
    EXPECT_TRUE(FieldSelector::AndSelectors({}).Empty());
    EXPECT_TRUE(FieldSelector::AndSelectors(std::vector<FieldSelector>{FieldSelector(), FieldSelector()}).Empty());
}

}  // namespace
}  // namespace ctrl
