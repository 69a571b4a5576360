// One suite, both transports, against the real control plane: raw REST verbs, error
// classification, watches and TLS (issue 3, acceptance 1).

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "test/integration/rest/rest_test_util.hpp"

namespace ctrl::rest::test {
namespace {

using ::testing::HasSubstr;
using ::testing::Values;

RequestBuilder ConfigMaps(const std::string& ns) {
    return std::move(RequestBuilder("GET").GroupVersion({"", "v1"}).Namespace(ns).Resource("configmaps"));
}

std::string ConfigMapJson(const std::string& name, const std::string& value, const std::string& rv = "") {
    std::string json = R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":")" + name + "\"";
    if (!rv.empty())
        json += R"(,"resourceVersion":")" + rv + "\"";
    return json + R"(,"labels":{"suite":"conformance"}},"data":{"key":")" + value + "\"}}";
}

class ConformanceTest : public ::testing::TestWithParam<TransportKind> {
  protected:
    void SetUp() override {
        fixture_ = std::make_unique<ClientFixture>(AdminConfig(GetParam()));
        namespace_ = UniqueName("rest-conformance");
        StatusOr<HttpResponse> created = fixture_->Send(
            RequestBuilder("POST")
                .AbsPath("/api/v1/namespaces")
                .Body(R"({"apiVersion":"v1","kind":"Namespace","metadata":{"name":")" + namespace_ + "\"}}"));
        ASSERT_TRUE(created.Ok()) << created.GetStatus();
    }

    ClientFixture& F() { return *fixture_; }

    std::unique_ptr<ClientFixture> fixture_;
    std::string namespace_;
};

TEST_P(ConformanceTest, GetVersion) {
    StatusOr<Object> version = F().SendForObject(RequestBuilder("GET").AbsPath("/version"));
    ASSERT_TRUE(version.Ok()) << version.GetStatus();
    EXPECT_EQ(version->NestedString({"gitVersion"}).ValueOr(""), ctrl::testing::SharedControlPlane().Version());
}

TEST_P(ConformanceTest, CreateGetListUpdateDeleteAConfigMap) {
    StatusOr<Object> created = F().SendForObject(RequestBuilder("POST")
                                                     .GroupVersion({"", "v1"})
                                                     .Namespace(namespace_)
                                                     .Resource("configmaps")
                                                     .Body(ConfigMapJson("settings", "one")));
    ASSERT_TRUE(created.Ok()) << created.GetStatus();
    EXPECT_FALSE(created->Uid().empty());
    EXPECT_FALSE(created->ResourceVersion().empty());

    StatusOr<Object> got = F().SendForObject(ConfigMaps(namespace_).Name("settings"));
    ASSERT_TRUE(got.Ok()) << got.GetStatus();
    EXPECT_EQ(got->NestedString({"data", "key"}).ValueOr(""), "one");
    EXPECT_EQ(got->Uid(), created->Uid());

    StatusOr<Object> listed = F().SendForObject(ConfigMaps(namespace_).List({.label_selector = "suite=conformance"}));
    ASSERT_TRUE(listed.Ok()) << listed.GetStatus();
    StatusOr<std::vector<Object>> items = listed->NestedSlice({"items"});
    ASSERT_TRUE(items.Ok());
    ASSERT_EQ(items->size(), 1u);
    EXPECT_EQ((*items)[0].Name(), "settings");

    StatusOr<Object> updated =
        F().SendForObject(RequestBuilder("PUT")
                              .GroupVersion({"", "v1"})
                              .Namespace(namespace_)
                              .Resource("configmaps")
                              .Name("settings")
                              .Body(ConfigMapJson("settings", "two", std::string(got->ResourceVersion()))));
    ASSERT_TRUE(updated.Ok()) << updated.GetStatus();
    EXPECT_EQ(updated->NestedString({"data", "key"}).ValueOr(""), "two");
    EXPECT_NE(updated->ResourceVersion(), got->ResourceVersion());

    StatusOr<HttpResponse> deleted = F().Send(RequestBuilder("DELETE")
                                                  .GroupVersion({"", "v1"})
                                                  .Namespace(namespace_)
                                                  .Resource("configmaps")
                                                  .Name("settings"));
    ASSERT_TRUE(deleted.Ok()) << deleted.GetStatus();
    StatusOr<HttpResponse> gone = F().Send(ConfigMaps(namespace_).Name("settings"));
    EXPECT_TRUE(IsNotFound(gone.GetStatus())) << gone.GetStatus();
}

TEST_P(ConformanceTest, ErrorsAreClassified) {
    StatusOr<HttpResponse> missing = F().Send(ConfigMaps(namespace_).Name("missing"));
    EXPECT_TRUE(IsNotFound(missing.GetStatus())) << missing.GetStatus();
    EXPECT_EQ(missing.GetStatus().HttpCode(), 404);
    EXPECT_THAT(missing.GetStatus().Message(), HasSubstr("\"missing\" not found"));

    auto create = RequestBuilder("POST").GroupVersion({"", "v1"}).Namespace(namespace_).Resource("configmaps");
    ASSERT_TRUE(F().Send(RequestBuilder(create).Body(ConfigMapJson("twice", "a"))).Ok());
    StatusOr<HttpResponse> again = F().Send(RequestBuilder(create).Body(ConfigMapJson("twice", "a")));
    EXPECT_TRUE(IsAlreadyExists(again.GetStatus())) << again.GetStatus();

    StatusOr<Object> current = F().SendForObject(ConfigMaps(namespace_).Name("twice"));
    ASSERT_TRUE(current.Ok());
    const std::string stale_rv = std::string(current->ResourceVersion());
    auto put =
        RequestBuilder("PUT").GroupVersion({"", "v1"}).Namespace(namespace_).Resource("configmaps").Name("twice");
    ASSERT_TRUE(F().Send(RequestBuilder(put).Body(ConfigMapJson("twice", "b", stale_rv))).Ok());
    StatusOr<HttpResponse> conflict = F().Send(RequestBuilder(put).Body(ConfigMapJson("twice", "c", stale_rv)));
    EXPECT_TRUE(IsConflict(conflict.GetStatus())) << conflict.GetStatus();

    StatusOr<HttpResponse> invalid = F().Send(RequestBuilder(create).Body(ConfigMapJson("Bad_Name", "x")));
    ASSERT_TRUE(IsInvalid(invalid.GetStatus())) << invalid.GetStatus();
    ASSERT_FALSE(invalid.GetStatus().Causes().empty());
    EXPECT_EQ(invalid.GetStatus().Causes()[0].field, "metadata.name");
}

// Reads events until one arrives, failing on error or end of stream.
Task<StatusOr<WatchEvent>> NextEvent(WatchStream& stream, Context ctx) {
    StatusOr<std::optional<WatchEvent>> event = co_await stream.Next(ctx);
    if (!event.Ok())
        co_return event.GetStatus();
    if (!*event)
        co_return UnavailableError("the watch ended");
    co_return std::move(**event);
}

// The next event that is not a bookmark: once the initial events have ended, the server may send a
// bookmark at any time (one arrived between an update and a delete under load).
Task<StatusOr<WatchEvent>> NextChange(WatchStream& stream, Context ctx) {
    while (true) {
        CTRL_CO_ASSIGN_OR_RETURN(WatchEvent event, co_await NextEvent(stream, ctx));
        if (event.type != WatchEvent::Type::kBookmark)
            co_return event;
    }
}

// Sends one write and returns its outcome.
Task<Status> Write(Context ctx, RestClient& client, RequestBuilder builder) {
    StatusOr<HttpRequest> request = builder.Build();
    if (!request.Ok())
        co_return request.GetStatus();
    StatusOr<HttpResponse> response = co_await client.Do(ctx, std::move(request).Value());
    co_return response.GetStatus();
}

// Watches ns's configmaps from the start (one exists: "before"), then creates, updates and
// deletes "watched" and checks each event arrives in order.
Task<Status> WatchScenario(RestClient& client, HttpRequest watch_request, std::string ns, Context ctx) {
    auto create = RequestBuilder("POST").GroupVersion({"", "v1"}).Namespace(ns).Resource("configmaps");
    auto named = RequestBuilder("PUT").GroupVersion({"", "v1"}).Namespace(ns).Resource("configmaps").Name("watched");
    CTRL_CO_ASSIGN_OR_RETURN(std::unique_ptr<WatchStream> stream, co_await client.Watch(ctx, watch_request));
    CTRL_CO_ASSIGN_OR_RETURN(WatchEvent initial, co_await NextEvent(*stream, ctx));
    EXPECT_EQ(initial.type, WatchEvent::Type::kAdded);
    EXPECT_EQ(initial.object.Name(), "before");
    CTRL_CO_ASSIGN_OR_RETURN(WatchEvent bookmark, co_await NextEvent(*stream, ctx));
    EXPECT_EQ(bookmark.type, WatchEvent::Type::kBookmark);
    EXPECT_EQ(bookmark.object.Annotation("k8s.io/initial-events-end").value_or(""), "true");

    CTRL_CO_RETURN_IF_ERROR(co_await Write(ctx, client, RequestBuilder(create).Body(ConfigMapJson("watched", "1"))));
    CTRL_CO_ASSIGN_OR_RETURN(WatchEvent added, co_await NextChange(*stream, ctx));
    EXPECT_EQ(added.type, WatchEvent::Type::kAdded);
    EXPECT_EQ(added.object.Name(), "watched");

    const std::string rv(added.object.ResourceVersion());
    CTRL_CO_RETURN_IF_ERROR(co_await Write(ctx, client, RequestBuilder(named).Body(ConfigMapJson("watched", "2", rv))));
    CTRL_CO_ASSIGN_OR_RETURN(WatchEvent modified, co_await NextChange(*stream, ctx));
    EXPECT_EQ(modified.type, WatchEvent::Type::kModified);
    EXPECT_EQ(modified.object.NestedString({"data", "key"}).ValueOr(""), "2");

    RequestBuilder remove("DELETE");
    remove.GroupVersion({"", "v1"}).Namespace(ns).Resource("configmaps").Name("watched");
    CTRL_CO_RETURN_IF_ERROR(co_await Write(ctx, client, remove));
    CTRL_CO_ASSIGN_OR_RETURN(WatchEvent deleted, co_await NextChange(*stream, ctx));
    EXPECT_EQ(deleted.type, WatchEvent::Type::kDeleted);
    EXPECT_EQ(deleted.object.Name(), "watched");
    stream->Close();
    co_return OkStatus();
}

TEST_P(ConformanceTest, WatchSeesInitialEventsBookmarkAndChangesInOrder) {
    auto create = RequestBuilder("POST").GroupVersion({"", "v1"}).Namespace(namespace_).Resource("configmaps");
    ASSERT_TRUE(F().Send(RequestBuilder(create).Body(ConfigMapJson("before", "0"))).Ok());

    ListParams params{.resource_version = "",
                      .resource_version_match = "NotOlderThan",
                      .watch = true,
                      .allow_watch_bookmarks = true,
                      .send_initial_events = true,
                      .timeout_seconds = 60};
    StatusOr<HttpRequest> request = ConfigMaps(namespace_).List(params).Build();
    ASSERT_TRUE(request.Ok());
    const Context ctx = Context::WithTimeout(Context::Background(), std::chrono::seconds(30));

    Status status = F().Run(WatchScenario(F().Client(), *request, namespace_, ctx));
    EXPECT_TRUE(status.Ok()) << status;
}

TEST_P(ConformanceTest, UserWithoutRightsIsForbidden) {
    StatusOr<std::string> kubeconfig = ctrl::testing::SharedControlPlane().AddUser(UniqueName("nobody"));
    ASSERT_TRUE(kubeconfig.Ok()) << kubeconfig.GetStatus();
    ClientFixture nobody(ConfigFromKubeconfig(*kubeconfig, GetParam()));
    StatusOr<HttpResponse> listed = nobody.Send(ConfigMaps(namespace_));
    EXPECT_TRUE(IsForbidden(listed.GetStatus())) << listed.GetStatus();
    EXPECT_EQ(listed.GetStatus().HttpCode(), 403);
}

TEST_P(ConformanceTest, BadTokenIsUnauthorized) {
    Config config = AdminConfig(GetParam());
    config.tls.client_cert_pem.clear();
    config.tls.client_key_pem.clear();
    config.bearer_token = "not-a-real-token";
    ClientFixture stranger(config);
    StatusOr<HttpResponse> listed = stranger.Send(ConfigMaps(namespace_));
    EXPECT_TRUE(IsUnauthorized(listed.GetStatus())) << listed.GetStatus();
    EXPECT_EQ(listed.GetStatus().HttpCode(), 401);
}

std::string OtherCaPem() {
    const std::string dir = ctrl::testing::SharedControlPlane().WorkDir();
    const std::string cmd =
        "openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 1 -subj "
        "/CN=not-the-cluster-ca -keyout " +
        dir + "/other-ca.key -out " + dir + "/other-ca.crt 2>/dev/null";
    EXPECT_EQ(std::system(cmd.c_str()), 0);
    return ReadFile(dir + "/other-ca.crt");
}

TEST_P(ConformanceTest, WrongCaIsAClearTlsError) {
    Config config = AdminConfig(GetParam());
    config.tls.ca_pem = OtherCaPem();
    ClientFixture wrong(config);
    StatusOr<HttpResponse> version = wrong.Send(RequestBuilder("GET").AbsPath("/version"));
    ASSERT_FALSE(version.Ok());
    EXPECT_TRUE(IsUnavailable(version.GetStatus())) << version.GetStatus();
    EXPECT_THAT(version.GetStatus().Message(), HasSubstr("certificate verify failed"));
    EXPECT_THAT(version.GetStatus().Message(), HasSubstr(config.host));
}

TEST_P(ConformanceTest, InsecureSkipTlsVerifyTrustsAnyServer) {
    Config config = AdminConfig(GetParam());
    config.tls.ca_pem = OtherCaPem();
    config.tls.insecure_skip_verify = true;
    ClientFixture insecure(config);
    StatusOr<Object> version = insecure.SendForObject(RequestBuilder("GET").AbsPath("/version"));
    ASSERT_TRUE(version.Ok()) << version.GetStatus();
    EXPECT_FALSE(version->NestedString({"gitVersion"}).ValueOr("").empty());
}

INSTANTIATE_TEST_SUITE_P(Transports, ConformanceTest, Values(TransportKind::kBeast, TransportKind::kCppRest),
                         TransportName);

}  // namespace
}  // namespace ctrl::rest::test
