#include "ctrl/rest/request_builder.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace ctrl::rest {
namespace {

using ::testing::HasSubstr;

std::string TargetOf(const RequestBuilder& builder) {
    StatusOr<HttpRequest> request = builder.Build();
    EXPECT_TRUE(request.Ok()) << request.GetStatus();
    return request.Ok() ? request->target : std::string();
}

TEST(RequestBuilderTest, CoreGroupNamespacedResource) {
    EXPECT_EQ(TargetOf(RequestBuilder("GET").GroupVersion({"", "v1"}).Namespace("default").Resource("pods")),
              "/api/v1/namespaces/default/pods");
}

TEST(RequestBuilderTest, NamedGroupClusterScopedWithSubresource) {
    EXPECT_EQ(TargetOf(RequestBuilder("PUT")
                           .GroupVersion({"vpcresources.k8s.aws", "v1alpha1"})
                           .Resource("cninodes")
                           .Name("node-1")
                           .SubResource("status")),
              "/apis/vpcresources.k8s.aws/v1alpha1/cninodes/node-1/status");
}

TEST(RequestBuilderTest, NamespacedNamedSubresource) {
    EXPECT_EQ(TargetOf(RequestBuilder("POST")
                           .GroupVersion({"", "v1"})
                           .Namespace("kube-system")
                           .Resource("pods")
                           .Name("coredns-1")
                           .SubResource("eviction")),
              "/api/v1/namespaces/kube-system/pods/coredns-1/eviction");
}

TEST(RequestBuilderTest, ListParametersAreEscaped) {
    ListParams params;
    params.label_selector = "app in (web, api),tier!=db";
    params.field_selector = "spec.nodeName=node 1";
    params.limit = 500;
    params.continue_token = "eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MTIzfQ==";
    params.resource_version = "0";
    params.resource_version_match = "NotOlderThan";
    EXPECT_EQ(TargetOf(RequestBuilder("GET").GroupVersion({"", "v1"}).Resource("pods").List(params)),
              "/api/v1/pods?labelSelector=app+in+%28web%2C+api%29%2Ctier%21%3Ddb"
              "&fieldSelector=spec.nodeName%3Dnode+1&limit=500"
              "&continue=eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MTIzfQ%3D%3D"
              "&resourceVersion=0&resourceVersionMatch=NotOlderThan");
}

TEST(RequestBuilderTest, WatchParameters) {
    ListParams params;
    params.watch = true;
    params.allow_watch_bookmarks = true;
    params.send_initial_events = true;
    params.timeout_seconds = 300;
    params.resource_version = "";
    EXPECT_EQ(
        TargetOf(RequestBuilder("GET").GroupVersion({"", "v1"}).Namespace("a").Resource("configmaps").List(params)),
        "/api/v1/namespaces/a/configmaps?resourceVersion=&watch=true&allowWatchBookmarks=true"
        "&sendInitialEvents=true&timeoutSeconds=300");
}

TEST(RequestBuilderTest, WriteParameters) {
    WriteParams params;
    params.dry_run = true;
    params.field_manager = "ctrl/sgp controller";
    params.force = true;
    params.propagation_policy = "Foreground";
    params.grace_period_seconds = 0;
    EXPECT_EQ(TargetOf(RequestBuilder("PATCH")
                           .GroupVersion({"apps", "v1"})
                           .Namespace("n")
                           .Resource("deployments")
                           .Name("d")
                           .Write(params)),
              "/apis/apps/v1/namespaces/n/deployments/d?dryRun=All&fieldManager=ctrl%2Fsgp+controller&force=true"
              "&propagationPolicy=Foreground&gracePeriodSeconds=0");
}

TEST(RequestBuilderTest, AbsolutePathAndBody) {
    StatusOr<HttpRequest> request = RequestBuilder("POST").AbsPath("/api/v1/namespaces").Body(R"({"a":1})").Build();
    ASSERT_TRUE(request.Ok());
    EXPECT_EQ(request->method, "POST");
    EXPECT_EQ(request->target, "/api/v1/namespaces");
    EXPECT_EQ(request->body, R"({"a":1})");
    EXPECT_EQ(request->FindHeader("content-type"), "application/json");
}

TEST(RequestBuilderTest, BadPathSegmentsAreRejectedBeforeAnyRequest) {
    for (const char* name : {".", "..", "a/b", "50%"}) {
        StatusOr<HttpRequest> request =
            RequestBuilder("GET").GroupVersion({"", "v1"}).Resource("pods").Name(name).Build();
        ASSERT_FALSE(request.Ok()) << name;
        EXPECT_TRUE(IsBadRequest(request.GetStatus()));
        EXPECT_THAT(request.GetStatus().Message(), HasSubstr("name"));
    }
    EXPECT_FALSE(RequestBuilder("GET").Resource("pods").Build().Ok());  // no group version
    EXPECT_FALSE(RequestBuilder("GET").GroupVersion({"", "v1"}).SubResource("status").Resource("pods").Build().Ok());
    EXPECT_FALSE(RequestBuilder("GET").AbsPath("version").Build().Ok());
}

TEST(EscapeTest, QueryAndPathEscapingFollowGo) {
    EXPECT_EQ(EscapeQueryValue("a b&c=d/é"), "a+b%26c%3Dd%2F%C3%A9");
    EXPECT_EQ(EscapePathSegment("a b:c@d"), "a%20b:c@d");
    EXPECT_EQ(EscapePathSegment("x?y#z"), "x%3Fy%23z");
}

}  // namespace
}  // namespace ctrl::rest
