// Each real-world CRD's generated kind used as an operator would: its sample parsed, nested arrays,
// maps and optional fields read, values written through the ...Ref writers, and the object written
// back byte for byte once the writes are undone, unknown fields included.
#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "rw/alertmanagerconfig/alertmanager_config_v1beta1.hpp"
#include "rw/application/application.hpp"
#include "rw/certificate/certificate.hpp"
#include "rw/externalsecret/external_secret.hpp"
#include "rw/gateway/gateway_v1.hpp"
#include "rw/httproute/http_route_v1.hpp"
#include "rw/kustomization/kustomization.hpp"
#include "rw/prometheus/prometheus.hpp"
#include "rw/scaledobject/scaled_object.hpp"
#include "rw/schedule/schedule.hpp"
#include "rw/servicemonitor/service_monitor.hpp"
#include "test/unit/gen/realworld/realworld_cases.hpp"

namespace ctrl::realworld {
namespace {

using Strings = std::vector<std::string>;
using StringMap = std::map<std::string, std::string>;

template <typename Kind>
Kind ParseSample(const std::string& name) {
    auto parsed = Kind::Parse(Sample(name));
    EXPECT_TRUE(parsed.Ok()) << parsed.GetStatus();
    EXPECT_TRUE(parsed->Validate().Ok()) << parsed->Validate();
    EXPECT_EQ(parsed->ToJson(), Sample(name));
    return std::move(*parsed);
}

TEST(RealWorldKindsTest, HTTPRoute) {
    using namespace rw::httproute::v1;
    HTTPRoute route = ParseSample<HTTPRoute>("httproute");
    EXPECT_EQ(route.Spec().Hostnames(), (Strings{"shop.example.com", "www.shop.example.com"}));
    EXPECT_EQ(route.Spec().ParentRefs()[0].SectionName(), "https");
    const auto rules = route.Spec().Rules();
    ASSERT_EQ(rules.size(), 2u);
    EXPECT_EQ(rules[0].Name(), "api");
    EXPECT_EQ(rules[1].Name(), std::nullopt);
    EXPECT_EQ(rules[0].Matches()[0].Headers()[0].Name(), "x-canary");
    EXPECT_EQ(rules[0].Matches()[0].Path().Value(), "/api");
    EXPECT_EQ(rules[0].Filters()[0].RequestHeaderModifier().Set()[0].Value(), "api");
    EXPECT_EQ(rules[0].Filters()[0].RequestHeaderModifier().Remove(), Strings{"x-debug"});
    EXPECT_EQ(rules[0].BackendRefs()[1].Weight(), 10);
    EXPECT_EQ(rules[0].BackendRefs()[0].Port(), 8080);
    EXPECT_EQ(rules[0].Timeouts().Request(), "10s");
    EXPECT_EQ(rules[0].Timeouts().BackendRequest(), std::nullopt);
    EXPECT_EQ(rules[1].Filters()[0].RequestRedirect().StatusCode(),
              HTTPRouteSpecRulesFiltersRequestRedirectStatusCode::k301);  // an integer enum's constant
    EXPECT_TRUE(rules[1].BackendRefs().empty());
    EXPECT_EQ(*route.NestedString({"rolloutNote"}), "kept as written");  // an unknown field

    route.MutableSpec().MutableRules(0).MutableBackendRefs(1).SetWeight(20);
    route.MutableSpec().MutableRules(1).MutableFilters(0).MutableRequestRedirect().SetStatusCode(308);
    EXPECT_NE(route.ToJson().find(R"("weight":20)"), std::string::npos);
    EXPECT_TRUE(route.Validate().Ok()) << route.Validate();
    route.MutableSpec().MutableRules(1).MutableFilters(0).MutableRequestRedirect().SetStatusCode(999);
    EXPECT_EQ(CauseFields(route.Validate()), Strings{"spec.rules[1].filters[0].requestRedirect.statusCode"});
    route.MutableSpec().MutableRules(0).MutableBackendRefs(1).SetWeight(10);
    route.MutableSpec().MutableRules(1).MutableFilters(0).MutableRequestRedirect().SetStatusCode(301);
    EXPECT_EQ(route.ToJson(), Sample("httproute"));
}

TEST(RealWorldKindsTest, Gateway) {
    using namespace rw::gateway::v1;
    Gateway gateway = ParseSample<Gateway>("gateway");
    const auto listeners = gateway.Spec().Listeners();
    ASSERT_EQ(listeners.size(), 2u);
    EXPECT_EQ(listeners[0].Port(), 80);
    EXPECT_EQ(listeners[0].Hostname(), std::nullopt);
    EXPECT_EQ(listeners[1].Tls().CertificateRefs()[0].Name(), "wildcard-tls");
    EXPECT_EQ(listeners[1].AllowedRoutes().Namespaces().Selector().MatchLabels(),
              (StringMap{{"gateway-access", "true"}}));
    EXPECT_EQ(listeners[1].AllowedRoutes().Kinds()[0].Kind(), "HTTPRoute");
    EXPECT_EQ(gateway.Spec().Infrastructure().Labels(), (StringMap{{"team", "edge"}}));

    gateway.MutableSpec().MutableInfrastructure().SetLabels({{"team", "edge"}, {"tier", "public"}});
    gateway.MutableSpec().MutableListeners(0).SetPort(8080);
    EXPECT_EQ(gateway.Spec().Listeners()[0].Port(), 8080);
    EXPECT_TRUE(gateway.Validate().Ok()) << gateway.Validate();
    gateway.MutableSpec().MutableInfrastructure().SetLabels({{"team", "edge"}});
    gateway.MutableSpec().MutableListeners(0).SetPort(80);
    EXPECT_EQ(gateway.ToJson(), Sample("gateway"));
}

TEST(RealWorldKindsTest, Certificate) {
    using namespace rw::certificate::v1;
    Certificate cert = ParseSample<Certificate>("certificate");
    EXPECT_EQ(cert.Spec().DnsNames(), (Strings{"shop.example.com", "www.shop.example.com"}));
    EXPECT_EQ(cert.Spec().IssuerRef().Kind(), "ClusterIssuer");
    EXPECT_EQ(cert.Spec().PrivateKey().Size(), 256);
    EXPECT_EQ(cert.Spec().PrivateKey().Algorithm(), CertificateSpecPrivateKeyAlgorithm::kECDSA);
    EXPECT_EQ(cert.Spec().Usages()[0], CertificateSpecUsages::kServerAuth);
    EXPECT_EQ(cert.Spec().SecretTemplate().Labels(), (StringMap{{"app", "web"}}));
    EXPECT_EQ(cert.Spec().Keystores().Pkcs12().PasswordSecretRef().Key(), "password");
    EXPECT_EQ(cert.Spec().IsCA(), std::nullopt);
    EXPECT_FALSE(cert.Spec().Keystores().Jks().Present());

    cert.MutableSpec().MutablePrivateKey().SetAlgorithm(CertificateSpecPrivateKeyAlgorithm::kRSA);
    cert.MutableSpec().MutablePrivateKey().SetSize(4096);
    EXPECT_NE(cert.ToJson().find(R"("algorithm":"RSA","size":4096)"), std::string::npos);
    cert.MutableSpec().MutablePrivateKey().SetAlgorithm(CertificateSpecPrivateKeyAlgorithm::kECDSA);
    cert.MutableSpec().MutablePrivateKey().SetSize(256);
    EXPECT_EQ(cert.ToJson(), Sample("certificate"));
}

TEST(RealWorldKindsTest, PrometheusWithPodSpecFieldsAndQuantities) {
    using namespace rw::prometheus::v1;
    Prometheus prometheus = ParseSample<Prometheus>("prometheus");
    EXPECT_EQ(prometheus.Spec().Replicas(), 2);
    EXPECT_EQ(prometheus.Spec().Shards(), 1);  // the schema's default
    EXPECT_EQ(prometheus.Spec().NodeSelector(), (StringMap{{"kubernetes.io/os", "linux"}}));
    EXPECT_EQ(prometheus.Spec().Resources().Requests().at("memory").StrValue(), "2Gi");
    const auto containers = prometheus.Spec().Containers();
    ASSERT_EQ(containers.size(), 2u);
    EXPECT_EQ(containers[0].Resources().Limits().at("cpu").StrValue(), "100m");
    EXPECT_EQ(containers[0].Resources().Requests().at("cpu").IntValue(), 1);  // a Quantity written as a number
    EXPECT_EQ(containers[0].Env()[1].ValueFrom().FieldRef().FieldPath(), "metadata.name");
    EXPECT_EQ(containers[0].Image(), std::nullopt);
    EXPECT_EQ(containers[1].ReadinessProbe().HttpGet().Port().StrValue(), "web-proxy");
    EXPECT_EQ(containers[1].Ports()[0].ContainerPort(), 8443);
    EXPECT_EQ(prometheus.Spec().Tolerations()[0].Effect(), "NoSchedule");
    EXPECT_EQ(prometheus.Spec().Storage().VolumeClaimTemplate().Spec().Resources().Requests().at("storage").StrValue(),
              "50Gi");

    prometheus.MutableSpec().MutableContainers(0).MutableResources().SetLimits(
        {{"cpu", "2 cores"}, {"memory", "50Mi"}});
    EXPECT_EQ(CauseFields(prometheus.Validate()), Strings{"spec.containers[0].resources.limits.cpu"});
    prometheus.MutableSpec().MutableContainers(0).MutableResources().SetLimits({{"cpu", "100m"}, {"memory", "50Mi"}});
    EXPECT_EQ(prometheus.ToJson(), Sample("prometheus"));
}

TEST(RealWorldKindsTest, AlertmanagerConfigOfTheSecondServedVersion) {
    using namespace rw::alertmanagerconfig::v1beta1;
    AlertmanagerConfig config = ParseSample<AlertmanagerConfig>("alertmanagerconfig");
    EXPECT_EQ(config.Spec().Route().GroupBy(), (Strings{"alertname", "namespace"}));
    EXPECT_EQ(config.Spec().Route().Matchers()[0].MatchType(), "=");
    const auto receivers = config.Spec().Receivers();
    ASSERT_EQ(receivers.size(), 2u);
    EXPECT_EQ(receivers[0].WebhookConfigs()[0].MaxAlerts(), 10);
    EXPECT_EQ(receivers[1].EmailConfigs()[0].Headers()[0].Value(), "shop");
    const auto interval = config.Spec().TimeIntervals()[0].TimeIntervals()[0];
    EXPECT_EQ(interval.DaysOfMonth()[0].End(), -1);
    EXPECT_EQ(interval.Times()[0].EndTime(), "24:00");
    EXPECT_EQ(interval.Months(), Strings{"january:march"});

    config.MutableSpec().MutableRoute().SetGroupWait("1m");
    config.MutableSpec().MutableTimeIntervals(0).MutableTimeIntervals(0).MutableDaysOfMonth(0).SetStart(2);
    EXPECT_TRUE(config.Validate().Ok()) << config.Validate();
    config.MutableSpec().MutableRoute().SetGroupWait("30s");
    config.MutableSpec().MutableTimeIntervals(0).MutableTimeIntervals(0).MutableDaysOfMonth(0).SetStart(1);
    EXPECT_EQ(config.ToJson(), Sample("alertmanagerconfig"));
}

TEST(RealWorldKindsTest, ServiceMonitor) {
    using namespace rw::servicemonitor::v1;
    ServiceMonitor monitor = ParseSample<ServiceMonitor>("servicemonitor");
    EXPECT_EQ(monitor.Spec().Selector().MatchExpressions()[0].Values(), (Strings{"frontend", "edge"}));
    EXPECT_EQ(monitor.Spec().NamespaceSelector().MatchNames(), (Strings{"shop", "shop-canary"}));
    const auto endpoints = monitor.Spec().Endpoints();
    ASSERT_EQ(endpoints.size(), 2u);
    EXPECT_EQ(endpoints[0].TlsConfig().Ca().Secret().Key(), "ca.crt");
    EXPECT_EQ(endpoints[0].Relabelings()[1].Action(), "labeldrop");
    EXPECT_EQ(endpoints[0].Params().at("module").ToJson(), R"(["http_2xx"])");  // a map of arrays: JSON values
    EXPECT_EQ(endpoints[1].TargetPort()->IntValue(), 9091);
    EXPECT_EQ(endpoints[1].Port(), std::nullopt);

    monitor.MutableSpec().MutableEndpoints(0).MutableRelabelings(0).SetTargetLabel("host");
    monitor.MutableSpec().MutableEndpoints(1).SetInterval("2m");
    EXPECT_TRUE(monitor.Validate().Ok()) << monitor.Validate();
    monitor.MutableSpec().MutableEndpoints(0).MutableRelabelings(0).SetTargetLabel("node");
    monitor.MutableSpec().MutableEndpoints(1).SetInterval("1m");
    EXPECT_EQ(monitor.ToJson(), Sample("servicemonitor"));
}

TEST(RealWorldKindsTest, ScaledObject) {
    using namespace rw::scaledobject::v1alpha1;
    ScaledObject scaled = ParseSample<ScaledObject>("scaledobject");
    EXPECT_EQ(scaled.Spec().MaxReplicaCount(), 20);
    EXPECT_EQ(scaled.Spec().IdleReplicaCount(), std::nullopt);
    EXPECT_EQ(scaled.Spec().Fallback().Replicas(), 4);
    const auto triggers = scaled.Spec().Triggers();
    ASSERT_EQ(triggers.size(), 2u);
    EXPECT_EQ(triggers[0].Metadata(), (StringMap{{"mode", "QueueLength"}, {"queueName", "orders"}, {"value", "20"}}));
    EXPECT_EQ(triggers[0].AuthenticationRef().Name(), "rabbit-auth");
    EXPECT_EQ(triggers[1].MetricType(), "Utilization");
    EXPECT_EQ(scaled.Spec().Advanced().HorizontalPodAutoscalerConfig().Behavior().ScaleDown().Policies()[0].Value(),
              50);

    scaled.MutableSpec().MutableTriggers(1).SetMetadata({{"value", "80"}});
    scaled.MutableSpec().SetMaxReplicaCount(30);
    EXPECT_TRUE(scaled.Validate().Ok()) << scaled.Validate();
    scaled.MutableSpec().MutableTriggers(1).SetMetadata({{"value", "70"}});
    scaled.MutableSpec().SetMaxReplicaCount(20);
    EXPECT_EQ(scaled.ToJson(), Sample("scaledobject"));
}

TEST(RealWorldKindsTest, Kustomization) {
    using namespace rw::kustomization::v1;
    Kustomization kustomization = ParseSample<Kustomization>("kustomization");
    EXPECT_TRUE(kustomization.Spec().Prune());
    EXPECT_EQ(kustomization.Spec().SourceRef().Kind(), KustomizationSpecSourceRefKind::kGitRepository);
    EXPECT_EQ(kustomization.Spec().PostBuild().Substitute(),
              (StringMap{{"cluster_env", "prod"}, {"region", "eu-west-1"}}));
    EXPECT_EQ(kustomization.Spec().PostBuild().SubstituteFrom()[0].Optional(), true);
    EXPECT_EQ(kustomization.Spec().DependsOn()[0].Name(), "infra-controllers");
    EXPECT_EQ(kustomization.Spec().Patches()[0].Target().Name(), "web");
    EXPECT_EQ(kustomization.Spec().Images()[0].NewTag(), "1.4.2");
    EXPECT_EQ(kustomization.Spec().Suspend(), std::nullopt);

    kustomization.MutableSpec().SetSuspend(true);
    kustomization.MutableSpec().MutableImages(0).SetNewTag("1.4.3");
    EXPECT_TRUE(kustomization.Validate().Ok()) << kustomization.Validate();
    kustomization.MutableSpec().ClearSuspend();
    kustomization.MutableSpec().MutableImages(0).SetNewTag("1.4.2");
    EXPECT_EQ(kustomization.ToJson(), Sample("kustomization"));
}

TEST(RealWorldKindsTest, ExternalSecret) {
    using namespace rw::externalsecret::v1;
    ExternalSecret secret = ParseSample<ExternalSecret>("externalsecret");
    EXPECT_EQ(secret.Spec().SecretStoreRef().Kind(), "ClusterSecretStore");
    EXPECT_EQ(secret.Spec().Target().CreationPolicy(), ExternalSecretSpecTargetCreationPolicy::kOwner);
    EXPECT_EQ(secret.Spec().Target().Template().Data().at("url"),
              "postgres://{{ .user }}:{{ .password }}@db:5432/shop");
    const auto data = secret.Spec().Data();
    ASSERT_EQ(data.size(), 2u);
    EXPECT_EQ(data[1].RemoteRef().Version(), "3");
    EXPECT_EQ(data[0].RemoteRef().Version(), std::nullopt);
    EXPECT_EQ(secret.Spec().DataFrom()[0].Extract().Key(), "shop/common");

    secret.MutableSpec().MutableData(1).MutableRemoteRef().SetVersion("4");
    EXPECT_TRUE(secret.Validate().Ok()) << secret.Validate();
    secret.MutableSpec().MutableData(1).MutableRemoteRef().SetVersion("3");
    EXPECT_EQ(secret.ToJson(), Sample("externalsecret"));
}

TEST(RealWorldKindsTest, Schedule) {
    using namespace rw::schedule::v1;
    Schedule schedule = ParseSample<Schedule>("schedule");
    EXPECT_EQ(schedule.Spec().Schedule(), "0 2 * * *");
    EXPECT_EQ(schedule.Spec().Template().IncludedNamespaces(), (Strings{"shop", "shop-canary"}));
    EXPECT_EQ(schedule.Spec().Template().Metadata().Labels(), (StringMap{{"schedule", "nightly"}}));
    const auto hook = schedule.Spec().Template().Hooks().Resources()[0].Pre()[0].Exec();
    EXPECT_EQ(hook.Command()[2], "pg_dump > /backup/db.sql");
    EXPECT_EQ(hook.OnError(), "Fail");
    EXPECT_EQ(schedule.Spec().SkipImmediately(), std::nullopt);

    schedule.MutableSpec().MutableTemplate().SetTtl("168h0m0s");
    EXPECT_TRUE(schedule.Validate().Ok()) << schedule.Validate();
    schedule.MutableSpec().MutableTemplate().SetTtl("720h0m0s");
    EXPECT_EQ(schedule.ToJson(), Sample("schedule"));
}

TEST(RealWorldKindsTest, Application) {
    using namespace rw::application::v1alpha1;
    Application app = ParseSample<Application>("application");
    EXPECT_EQ(app.Spec().Project(), "default");
    EXPECT_EQ(app.Spec().Source().Helm().Parameters()[0].Value(), "1.4.2");
    EXPECT_EQ(app.Spec().SyncPolicy().Automated().SelfHeal(), true);
    EXPECT_EQ(app.Spec().SyncPolicy().Retry().Backoff().Factor(), 2);
    EXPECT_EQ(app.Spec().IgnoreDifferences()[0].JsonPointers(), Strings{"/spec/replicas"});
    EXPECT_EQ(app.Operation().Sync().Revision(), "main");
    EXPECT_FALSE(app.Status().Present());

    app.MutableSpec().MutableSyncPolicy().MutableRetry().SetLimit(3);
    app.MutableSpec().MutableSource().SetTargetRevision("v1.4.2");
    EXPECT_TRUE(app.Validate().Ok()) << app.Validate();
    app.MutableSpec().MutableSyncPolicy().MutableRetry().SetLimit(5);
    app.MutableSpec().MutableSource().SetTargetRevision("main");
    EXPECT_EQ(app.ToJson(), Sample("application"));
}

}  // namespace
}  // namespace ctrl::realworld
