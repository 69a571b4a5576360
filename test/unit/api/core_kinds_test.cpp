// Namespace, ServiceAccount, ConfigMap, Secret and Event: reading realistic objects, writing,
// and keeping every field.

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "ctrl/api/config_map.hpp"
#include "ctrl/api/event.hpp"
#include "ctrl/api/namespace.hpp"
#include "ctrl/api/secret.hpp"
#include "ctrl/api/service_account.hpp"
#include "test/unit/api/api_test_util.hpp"

namespace ctrl::api {
namespace {

using testing::At;
using testing::ExpectRoundTrip;
using testing::MustParse;
using testing::ReadTestdata;

TEST(NamespaceTest, ReadsATerminatingNamespace) {
    const std::string json = ReadTestdata("namespace.json");
    api::Namespace ns = MustParse<api::Namespace>(json);
    EXPECT_EQ(ns.Name(), "shop");
    EXPECT_EQ(ns.Phase(), "Terminating");
    EXPECT_EQ(ns.SpecFinalizers(), std::vector<std::string>{"kubernetes"});
    ASSERT_EQ(ns.Conditions().size(), 2u);
    EXPECT_EQ(ns.Conditions()[1].reason, "SomeResourcesRemain");
    EXPECT_TRUE(ns.DeletionTimestamp().has_value());
    EXPECT_EQ(static_cast<const Object&>(ns).Namespace(), "");  // cluster-scoped
    ExpectRoundTrip(ns, json);

    NamespaceView view(ns);
    EXPECT_EQ(view.Phase(), "Terminating");
    EXPECT_EQ(view.Label("team"), "payments");
}

TEST(ServiceAccountTest, ReadsAServiceAccount) {
    const std::string json = ReadTestdata("serviceaccount.json");
    ServiceAccount sa = MustParse<ServiceAccount>(json);
    EXPECT_EQ(sa.AutomountServiceAccountToken(), false);
    EXPECT_EQ(sa.SecretNames(), std::vector<std::string>{"web-token-abcde"});
    EXPECT_EQ(sa.ImagePullSecretNames(), (std::vector<std::string>{"registry-creds", "mirror-creds"}));
    EXPECT_EQ(sa.Labels(),
              (std::map<std::string, std::string>{{"role", "frontend"}, {"sgp.example.com/enabled", "true"}}));
    ExpectRoundTrip(sa, json);

    EXPECT_EQ(ServiceAccount().AutomountServiceAccountToken(), std::nullopt);
    ServiceAccount fresh;
    fresh.SetAutomountServiceAccountToken(true);
    EXPECT_EQ(fresh.ToJson(), R"({"apiVersion":"v1","kind":"ServiceAccount","automountServiceAccountToken":true})");
}

TEST(ConfigMapTest, ReadsTextAndBinaryData) {
    const std::string json = ReadTestdata("configmap.json");
    ConfigMap cm = MustParse<ConfigMap>(json);
    EXPECT_EQ(cm.DataValue("LOG_LEVEL"), "info");
    EXPECT_EQ(cm.DataValue("missing"), std::nullopt);
    EXPECT_EQ(cm.Data().size(), 2u);
    EXPECT_NE(cm.Data().at("nginx.conf").find("listen 8080;\n"), std::string::npos);
    auto logo = cm.BinaryDataValue("logo.png");
    ASSERT_TRUE(logo.Ok()) << logo.GetStatus();
    EXPECT_EQ(*logo, std::string("\x89PNG\r\n\x1a\n", 8));
    EXPECT_TRUE(IsNotFound(cm.BinaryDataValue("nope").GetStatus()));
    EXPECT_FALSE(cm.Immutable());
    ExpectRoundTrip(cm, json);
}

TEST(ConfigMapTest, WritesData) {
    ConfigMap cm;
    cm.SetDataValue("a", "1");
    cm.SetData({{"b", "2"}, {"c", "3"}});
    cm.SetDataValue("b", "two");
    EXPECT_TRUE(cm.RemoveDataValue("c"));
    EXPECT_FALSE(cm.RemoveDataValue("c"));
    cm.SetBinaryDataValue("bin", std::string("\0\xff", 2));
    EXPECT_EQ(cm.ToJson(), R"({"apiVersion":"v1","kind":"ConfigMap","data":{"b":"two"},"binaryData":{"bin":"AP8="}})");
    cm.SetData({});
    EXPECT_FALSE(cm.HasNestedField({"data"}));
}

TEST(SecretTest, DecodesData) {
    const std::string json = ReadTestdata("secret.json");
    Secret secret = MustParse<Secret>(json);
    EXPECT_EQ(secret.Type(), "Opaque");
    EXPECT_EQ(secret.DataKeys(), (std::vector<std::string>{"blob", "password", "username"}));
    EXPECT_EQ(*secret.DataValue("username"), "app_user");
    EXPECT_EQ(*secret.DataValue("password"), "s3cr3t!w0rd");
    EXPECT_EQ(*secret.DataValue("blob"), std::string("\x00\xff\x10", 3));
    EXPECT_TRUE(IsNotFound(secret.DataValue("token").GetStatus()));
    auto all = secret.Data();
    ASSERT_TRUE(all.Ok()) << all.GetStatus();
    EXPECT_EQ(all->size(), 3u);
    ExpectRoundTrip(secret, json);
}

TEST(SecretTest, BadBase64NamesTheKeyNotTheValue) {
    Secret secret = MustParse<Secret>(R"({"apiVersion":"v1","kind":"Secret","data":{"token":"not*base64"}})");
    auto value = secret.DataValue("token");
    ASSERT_FALSE(value.Ok());
    EXPECT_TRUE(IsBadRequest(value.GetStatus()));
    EXPECT_NE(value.GetStatus().Message().find("data[\"token\"]"), std::string::npos) << value.GetStatus();
    EXPECT_EQ(value.GetStatus().Message().find("not*base64"), std::string::npos) << value.GetStatus();
    EXPECT_TRUE(IsBadRequest(secret.Data().GetStatus()));
}

TEST(SecretTest, WritesEncodedData) {
    Secret secret;
    secret.SetType("kubernetes.io/basic-auth");
    secret.SetDataValue("username", "admin");
    secret.SetStringDataValue("password", "plain");
    EXPECT_EQ(secret.ToJson(), R"({"apiVersion":"v1","kind":"Secret","type":"kubernetes.io/basic-auth",)"
                               R"("data":{"username":"YWRtaW4="},"stringData":{"password":"plain"}})");
    EXPECT_EQ(*secret.DataValue("username"), "admin");
    EXPECT_TRUE(secret.RemoveDataValue("username"));
    EXPECT_TRUE(secret.DataKeys().empty());
}

TEST(EventTest, ReadsAKubeletEvent) {
    const std::string json = ReadTestdata("event.json");
    Event event = MustParse<Event>(json);
    const ObjectReference ref = event.InvolvedObject();
    EXPECT_EQ(ref.kind, "Pod");
    EXPECT_EQ(ref.namespace_name, "jobs");
    EXPECT_EQ(ref.name, "worker-0");
    EXPECT_EQ(ref.uid, "a1b2c3d4-0000-4000-8000-000000000001");
    EXPECT_EQ(ref.api_version, "v1");
    EXPECT_EQ(ref.resource_version, "99001");
    EXPECT_EQ(ref.field_path, "spec.containers{worker}");
    EXPECT_EQ(event.Reason(), "BackOff");
    EXPECT_EQ(event.Type(), kEventTypeWarning);
    EXPECT_EQ(event.Count(), 231);
    EXPECT_EQ(event.FirstTimestamp(), At("2024-05-01T11:00:00Z"));
    EXPECT_EQ(event.LastTimestamp(), At("2024-05-01T11:55:10Z"));
    EXPECT_EQ(event.EventTime(), std::nullopt);  // null in the JSON
    EXPECT_EQ(event.Source(), (EventSource{"kubelet", "node-b"}));
    EXPECT_EQ(event.ReportingController(), "kubelet");
    EXPECT_EQ(event.ReportingInstance(), "node-b");
    EXPECT_EQ(event.Action(), "");
    EXPECT_NE(event.Message().find("Back-off restarting"), std::string::npos);
    ExpectRoundTrip(event, json);
}

TEST(EventTest, WritesAnEventAboutAnObject) {
    auto pod = Object::Parse(R"({"apiVersion":"v1","kind":"Pod",)"
                             R"("metadata":{"name":"p","namespace":"ns","uid":"u-1","resourceVersion":"7"}})");
    ASSERT_TRUE(pod.Ok());
    Event event;
    event.SetInvolvedObject(ObjectReferenceTo(*pod));
    event.SetReason("Matched");
    event.SetMessage("pod p gets sg-1");
    event.SetType(kEventTypeNormal);
    event.SetCount(1);
    event.SetFirstTimestamp(At("2024-05-01T12:00:00.750Z"));
    event.SetLastTimestamp(At("2024-05-01T12:00:00Z"));
    event.SetEventTime(At("2024-05-01T12:00:00.123456789Z"));
    event.SetSource({"sgp-watcher", ""});
    event.SetReportingController("ctrl.example.com/sgp-watcher");
    event.SetReportingInstance("sgp-watcher-0");
    event.SetAction("Reconcile");
    EXPECT_EQ(event.ToJson(),
              R"({"apiVersion":"v1","kind":"Event","involvedObject":{"apiVersion":"v1","kind":"Pod","namespace":"ns",)"
              R"("name":"p","uid":"u-1","resourceVersion":"7"},"reason":"Matched","message":"pod p gets sg-1",)"
              R"("type":"Normal","count":1,"firstTimestamp":"2024-05-01T12:00:00Z",)"
              R"("lastTimestamp":"2024-05-01T12:00:00Z","eventTime":"2024-05-01T12:00:00.123456Z",)"
              R"("source":{"component":"sgp-watcher"},"reportingComponent":"ctrl.example.com/sgp-watcher",)"
              R"("reportingInstance":"sgp-watcher-0","action":"Reconcile"})");
    EXPECT_EQ(EventView(event).InvolvedObject().name, "p");
}

}  // namespace
}  // namespace ctrl::api
