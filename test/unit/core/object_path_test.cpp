#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <limits>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "ctrl/core/object.hpp"
#include "test/unit/core/testdata.hpp"

namespace ctrl {
namespace {

using ::testing::ElementsAre;
using ::testing::Pair;
using ::testing::StartsWith;

Object MustParse(std::string_view json) {
    return test::MustParse<Object>(json);
}

Object Pod() {
    return MustParse(test::ReadTestdata("pod.json"));
}

constexpr std::string_view kFuture = "x-example.com/futureField";

TEST(FieldPathTest, String) {
    EXPECT_EQ(FieldPath({"spec", "nodeName"}).String(), "spec.nodeName");
    EXPECT_EQ(FieldPath({"metadata", "labels", "app.kubernetes.io/name"}).String(),
              "metadata.labels[app.kubernetes.io/name]");
    EXPECT_EQ(FieldPath({"a.b", "c"}).String(), "[a.b].c");
    EXPECT_EQ(FieldPath({"a", ""}).String(), "a[]");
    EXPECT_EQ(FieldPath({}).String(), "");
    const std::vector<std::string_view> parts = {"status", "phase"};
    EXPECT_EQ(FieldPath(parts).String(), "status.phase");
}

TEST(ObjectPathTest, ReadsScalars) {
    const Object pod = Pod();
    EXPECT_EQ(pod.NestedString({"spec", "nodeName"}).ValueOr(""), "worker-2");
    EXPECT_EQ(pod.NestedString({"status", "phase"}).ValueOr(""), "Running");
    EXPECT_EQ(pod.NestedInt({"spec", "terminationGracePeriodSeconds"}).ValueOr(0), 30);
    EXPECT_EQ(pod.NestedInt({"spec", kFuture, "big"}).ValueOr(0), INT64_MAX);
    EXPECT_EQ(pod.NestedFloat({"spec", kFuture, "ratio"}).ValueOr(0), 2.5e-8);
    EXPECT_EQ(pod.NestedFloat({"spec", "terminationGracePeriodSeconds"}).ValueOr(0), 30.0);
    EXPECT_EQ(pod.NestedBool({"spec", "enableServiceLinks"}).ValueOr(false), true);
    EXPECT_EQ(pod.NestedString({"metadata", "labels", "app.kubernetes.io/name"}).ValueOr(""), "web");
}

TEST(ObjectPathTest, MissingAndNullAreNotFound) {
    const Object pod = Pod();
    const Status missing = pod.NestedString({"spec", "hostname"}).GetStatus();
    EXPECT_TRUE(IsNotFound(missing)) << missing;
    EXPECT_EQ(missing.Message(), "spec.hostname not found");
    EXPECT_TRUE(IsNotFound(pod.NestedString({"nope", "deeper", "still"}).GetStatus()));
    EXPECT_TRUE(IsNotFound(pod.NestedMap({"spec", "overhead"}).GetStatus()));
    EXPECT_TRUE(IsNotFound(pod.NestedString({"spec", "overhead", "cpu"}).GetStatus()));
    EXPECT_FALSE(pod.HasNestedField({"spec", "overhead"}));
    EXPECT_FALSE(pod.HasNestedField({"spec", "hostname"}));
    EXPECT_TRUE(pod.HasNestedField({"spec", "securityContext"}));
    EXPECT_TRUE(pod.HasNestedField({}));
}

TEST(ObjectPathTest, WrongTypesAreBadRequestNamingThePath) {
    const Object pod = Pod();
    struct Case {
        Status status;
        std::string message;
    };
    const std::vector<Case> cases = {
        {pod.NestedInt({"spec", "nodeName"}).GetStatus(), "spec.nodeName is a string, not an integer"},
        {pod.NestedString({"spec", "priority"}).GetStatus(), "spec.priority is an integer, not a string"},
        {pod.NestedInt({"spec", kFuture, "weight"}).GetStatus(),
         "spec[x-example.com/futureField].weight is a "
         "float, not an integer"},
        {pod.NestedInt({"spec", kFuture, "bigger"}).GetStatus(),
         "spec[x-example.com/futureField].bigger is an integer beyond the int64 range"},
        {pod.NestedFloat({"spec", "nodeName"}).GetStatus(), "spec.nodeName is a string, not a number"},
        {pod.NestedBool({"spec", "volumes"}).GetStatus(), "spec.volumes is an array, not a boolean"},
        {pod.NestedString({"spec", "nodeName", "x"}).GetStatus(), "spec.nodeName is a string, not an object"},
        {pod.NestedStringSlice({"spec", "securityContext"}).GetStatus(),
         "spec.securityContext is an object, not an array"},
        {pod.NestedMap({"spec", "enableServiceLinks"}).GetStatus(),
         "spec.enableServiceLinks is a boolean, not an "
         "object"},
        {pod.NestedStringMap({"spec", kFuture}).GetStatus(),
         "spec[x-example.com/futureField][weight] is a float, not a string"},
        {pod.NestedStringSlice({"spec", kFuture, "flags"}).GetStatus(),
         "spec[x-example.com/futureField].flags[0] is a boolean, not a string"},
        {MustParse("[1]").NestedString({"a"}).GetStatus(), "the value is an array, not an object"},
    };
    for (const Case& c : cases) {
        EXPECT_TRUE(IsBadRequest(c.status)) << c.status;
        EXPECT_EQ(c.status.Message(), c.message);
    }
    const Object floats = MustParse(R"({"a":1.5,"b":2.0,"c":-3})");
    EXPECT_TRUE(IsBadRequest(floats.NestedInt({"a"}).GetStatus()));
    EXPECT_TRUE(IsBadRequest(floats.NestedInt({"b"}).GetStatus()));
    EXPECT_EQ(floats.NestedInt({"c"}).ValueOr(0), -3);
    EXPECT_EQ(floats.NestedFloat({"a"}).ValueOr(0), 1.5);
}

TEST(ObjectPathTest, ReadsCollections) {
    const Object pod = Pod();
    using Strings = std::vector<std::string>;
    using StringMap = std::map<std::string, std::string>;
    EXPECT_THAT(pod.NestedStringSlice({"metadata", "finalizers"}).ValueOr(Strings{}),
                ElementsAre("example.com/cleanup", "example.com/audit"));
    EXPECT_EQ(pod.NestedStringMap({"spec", "containers"}).GetStatus().Message(),
              "spec.containers is an array, not an object");
    const Object limits = MustParse(R"({"a":{"limits":{"cpu":"1","memory":"2Gi"}}})");
    EXPECT_THAT(limits.NestedStringMap({"a", "limits"}).ValueOr(StringMap{}),
                ElementsAre(Pair("cpu", "1"), Pair("memory", "2Gi")));
    EXPECT_TRUE(MustParse(R"({"a":[]})").NestedStringSlice({"a"}).ValueOr(Strings{"x"}).empty());

    StatusOr<std::vector<Object>> conditions = pod.NestedSlice({"status", "conditions"});
    ASSERT_TRUE(conditions.Ok()) << conditions.GetStatus();
    ASSERT_EQ(conditions->size(), 3U);
    EXPECT_EQ((*conditions)[1].NestedString({"type"}).ValueOr(""), "Ready");
    EXPECT_EQ((*conditions)[0].ToJson(), R"({"type":"Initialized","status":"True","lastProbeTime":null,)"
                                         R"("lastTransitionTime":"2026-03-14T09:26:53Z"})");
    ASSERT_TRUE((*conditions)[1].SetNestedString({"status"}, "False").Ok());
    EXPECT_EQ(pod.NestedSlice({"status", "conditions"}).Value()[1].NestedString({"status"}).ValueOr(""), "True");

    StatusOr<std::vector<Object>> flags = pod.NestedSlice({"spec", kFuture, "flags"});
    ASSERT_TRUE(flags.Ok());
    ASSERT_EQ(flags->size(), 3U);
    EXPECT_EQ((*flags)[0].ToJson(), "true");
    EXPECT_EQ((*flags)[2].ToJson(), "null");
    EXPECT_FALSE((*flags)[0].IsJsonObject());

    StatusOr<Object> resources = pod.NestedMap({"spec", "securityContext"});
    ASSERT_TRUE(resources.Ok());
    EXPECT_EQ(resources->ToJson(), "{}");
    StatusOr<Object> probe = MustParse(R"({"p":{"httpGet":{"port":8080}}})").NestedMap({"p"});
    ASSERT_TRUE(probe.Ok());
    EXPECT_EQ(probe->NestedInt({"httpGet", "port"}).ValueOr(0), 8080);

    StatusOr<Object> whole = pod.NestedMap({});
    ASSERT_TRUE(whole.Ok());
    EXPECT_TRUE(*whole == pod);
}

TEST(ObjectPathTest, WritesCreateIntermediateObjects) {
    Object obj;
    ASSERT_TRUE(obj.SetNestedString({"spec", "template", "metadata", "name"}, "x").Ok());
    ASSERT_TRUE(obj.SetNestedInt({"spec", "replicas"}, -5).Ok());
    ASSERT_TRUE(obj.SetNestedFloat({"spec", "ratio"}, 0.1).Ok());
    ASSERT_TRUE(obj.SetNestedBool({"spec", "paused"}, false).Ok());
    ASSERT_TRUE(obj.SetNestedStringSlice({"spec", "args"}, {"a", "b"}).Ok());
    ASSERT_TRUE(obj.SetNestedStringMap({"spec", "selector"}, {{"b", "2"}, {"a", "1"}}).Ok());
    ASSERT_TRUE(obj.SetNestedField({"status"}, MustParse(R"({"conditions":[{"type":"Ready"}]})")).Ok());
    EXPECT_EQ(obj.ToJson(),
              R"({"spec":{"template":{"metadata":{"name":"x"}},"replicas":-5,"ratio":0.1,"paused":false,)"
              R"("args":["a","b"],"selector":{"a":"1","b":"2"}},"status":{"conditions":[{"type":"Ready"}]}})");

    // Overwriting keeps the member's place, whatever the old type was.
    ASSERT_TRUE(obj.SetNestedString({"spec", "replicas"}, "three").Ok());
    ASSERT_TRUE(obj.SetNestedStringSlice({"spec", "template"}, {}).Ok());
    EXPECT_THAT(obj.ToJson(), StartsWith(R"({"spec":{"template":[],"replicas":"three","ratio")"));
    EXPECT_EQ(obj.NestedInt({"spec", "replicas"}).GetStatus().Message(), "spec.replicas is a string, not an integer");

    // A null on the way reads as missing and is replaced by an object.
    Object with_null = MustParse(R"({"spec":null})");
    ASSERT_TRUE(with_null.SetNestedInt({"spec", "replicas"}, 2).Ok());
    EXPECT_EQ(with_null.ToJson(), R"({"spec":{"replicas":2}})");
    Object null_root = MustParse("null");
    ASSERT_TRUE(null_root.SetNestedBool({"a"}, true).Ok());
    EXPECT_EQ(null_root.ToJson(), R"({"a":true})");
}

TEST(ObjectPathTest, FailedWritesLeaveTheObjectUnchanged) {
    Object pod = Pod();
    const std::string before = pod.ToJson();
    const Status through_string = pod.SetNestedString({"spec", "nodeName", "x", "y"}, "v");
    EXPECT_TRUE(IsBadRequest(through_string));
    EXPECT_EQ(through_string.Message(), "cannot set spec.nodeName.x.y: spec.nodeName is a string, not an object");
    EXPECT_TRUE(IsBadRequest(pod.SetNestedInt({"spec", "volumes", "x"}, 1)));
    EXPECT_TRUE(IsBadRequest(pod.SetNestedField({"status", "phase", "x"}, Object())));
    EXPECT_TRUE(IsBadRequest(pod.SetNestedString({}, "v")));
    const Status nan = pod.SetNestedFloat({"spec", "ratio"}, std::numeric_limits<double>::quiet_NaN());
    EXPECT_TRUE(IsBadRequest(nan)) << nan;
    EXPECT_TRUE(IsBadRequest(pod.SetNestedFloat({"spec", "ratio"}, std::numeric_limits<double>::infinity())));
    EXPECT_EQ(pod.ToJson(), before);

    Object array = MustParse("[1,2]");
    const Status on_array = array.SetNestedString({"a"}, "v");
    EXPECT_EQ(on_array.Message(), "cannot set a: the value is an array, not an object");
    EXPECT_EQ(array.ToJson(), "[1,2]");
}

TEST(ObjectPathTest, SetNestedFieldCopiesTheValue) {
    Object obj = MustParse(R"({"a":{"b":1}})");
    Object value = MustParse(R"({"c":[1,{"d":"e"}]})");
    ASSERT_TRUE(obj.SetNestedField({"a", "x"}, value).Ok());
    ASSERT_TRUE(value.SetNestedString({"c"}, "changed").Ok());
    EXPECT_EQ(obj.ToJson(), R"({"a":{"b":1,"x":{"c":[1,{"d":"e"}]}}})");

    // Into itself: the copy is of the object before the write.
    ASSERT_TRUE(obj.SetNestedField({"self"}, obj).Ok());
    EXPECT_EQ(obj.ToJson(), R"({"a":{"b":1,"x":{"c":[1,{"d":"e"}]}},"self":{"a":{"b":1,"x":{"c":[1,{"d":"e"}]}}}})");
}

TEST(ObjectPathTest, RemoveNestedField) {
    Object obj = MustParse(R"({"a":{"b":1,"c":2,"d":3,"f":4},"e":"s","n":null})");
    EXPECT_TRUE(obj.RemoveNestedField({"a", "c"}));
    EXPECT_FALSE(obj.RemoveNestedField({"a", "c"}));
    EXPECT_FALSE(obj.RemoveNestedField({"x", "y"}));
    EXPECT_FALSE(obj.RemoveNestedField({"e", "y"}));
    EXPECT_FALSE(obj.RemoveNestedField({}));
    EXPECT_TRUE(obj.RemoveNestedField({"n"}));
    EXPECT_EQ(obj.ToJson(), R"({"a":{"b":1,"d":3,"f":4},"e":"s"})");
    EXPECT_TRUE(obj.RemoveNestedField({"a"}));
    EXPECT_EQ(obj.ToJson(), R"({"e":"s"})");
    EXPECT_FALSE(MustParse("[1]").RemoveNestedField({"a"}));
}

}  // namespace
}  // namespace ctrl
