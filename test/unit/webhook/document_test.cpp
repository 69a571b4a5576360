// The JSON work under conversion: an object's content, the three-way merge that restores what a
// version could not carry, and CopyField.
#include "ctrl/webhook/conversion/internal/document.hpp"

#include <gtest/gtest.h>

#include "ctrl/webhook/conversion/copy_field.hpp"

namespace ctrl::webhook::conversion {
namespace {

Object Parse(std::string_view json) {
    StatusOr<Object> object = Object::Parse(json);
    EXPECT_TRUE(object.Ok()) << object.GetStatus() << " in " << json;
    return object.Ok() ? std::move(object).Value() : Object();
}

TEST(DocumentTest, ContentIsEverythingButTheIdentity) {
    const Object object = Parse(R"({"apiVersion":"a/v1","kind":"K","metadata":{"name":"n"},"spec":{"x":1},"data":[]})");
    EXPECT_EQ(internal::ContentOf(object), Parse(R"({"spec":{"x":1},"data":[]})"));
    Object target = Parse(R"({"apiVersion":"a/v2","kind":"K","metadata":{"name":"m"},"spec":{"y":2},"old":1})");
    internal::SetContent(target, Parse(R"({"spec":{"x":1},"status":{},"kind":"ignored"})"));
    EXPECT_EQ(target, Parse(R"({"apiVersion":"a/v2","kind":"K","metadata":{"name":"m"},"spec":{"x":1},"status":{}})"));
}

struct MergeCase {
    std::string_view base, theirs, mine, merged;
};

TEST(DocumentTest, TheThreeWayMergeKeepsWhatWasNotChangedAndTakesWhatWas) {
    const MergeCase cases[] = {
        // Nothing changed through the other version: mine whole.
        {R"({"a":1})", R"({"a":1})", R"({"a":1,"only":true})", R"({"a":1,"only":true})"},
        // A change wins; a member only mine has is restored.
        {R"({"a":1})", R"({"a":2})", R"({"a":1,"only":true})", R"({"a":2,"only":true})"},
        // Removed through the other version: stays removed.
        {R"({"s":{"a":1,"b":2}})", R"({"s":{"b":2}})", R"({"s":{"a":1,"b":2,"c":3}})", R"({"s":{"b":2,"c":3}})"},
        // Added through the other version.
        {R"({})", R"({"n":1})", R"({"o":1})", R"({"n":1,"o":1})"},
        // A changed list is taken whole; an unchanged one is mine's.
        {R"({"l":[1],"m":[1]})", R"({"l":[1,2],"m":[1]})", R"({"l":[{"x":1}],"m":[{"y":1}]})",
         R"({"l":[1,2],"m":[{"y":1}]})"},
        // A value that became an object, or stopped being one: theirs.
        {R"({"v":1})", R"({"v":{"a":1}})", R"({"v":1})", R"({"v":{"a":1}})"},
    };
    for (const MergeCase& c : cases)
        EXPECT_EQ(internal::MergeThreeWay(Parse(c.base), Parse(c.theirs), Parse(c.mine)), Parse(c.merged))
            << c.base << " / " << c.theirs << " / " << c.mine;
}

TEST(DocumentTest, CopyFieldCopiesAnyValueAndRemovesWhatTheSourceLacks) {
    const Object from = Parse(R"({"spec":{"name":"x","list":[1,{"a":null}],"n":null}})");
    Object to = Parse(R"({"spec":{"old":1,"gone":true}})");
    ASSERT_TRUE(CopyField(from, {"spec", "name"}, to, {"spec", "source", "name"}).Ok());
    ASSERT_TRUE(CopyField(from, to, {"spec", "list"}).Ok());
    ASSERT_TRUE(CopyField(from, to, {"spec", "n"}).Ok());
    ASSERT_TRUE(CopyField(from, to, {"spec", "gone"}).Ok());
    EXPECT_EQ(to, Parse(R"({"spec":{"old":1,"source":{"name":"x"},"list":[1,{"a":null}],"n":null}})"));
    Object scalar = Parse(R"({"spec":1})");
    EXPECT_TRUE(IsBadRequest(CopyField(from, scalar, {"spec", "name"})));
    EXPECT_EQ(scalar, Parse(R"({"spec":1})"));
    EXPECT_TRUE(IsBadRequest(CopyField(Parse("{}"), scalar, {})));
}

}  // namespace
}  // namespace ctrl::webhook::conversion
