// Two real-world-shaped CRDs with deep schemas (testdata/real: a ServiceMonitor-like ScrapeMonitor
// and a cert-manager-like Cert): their generated kinds compile, read deep fields, validate the
// samples and round-trip them unchanged, also after writes next to unknown fields.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "real/cert.hpp"
#include "real/monitoring_v1.hpp"
#include "real/pki_v1.hpp"
#include "real/scrape_monitor.hpp"
#include "test/support/read_file.hpp"
#include "test/support/repo_path.hpp"

namespace {

std::string Sample(const std::string& name) {
    return ctrl::testing::ReadSample(std::filesystem::path(::ctrl::testing::RepoPath(CTRL_GEN_TESTDATA_DIR)) /
                                     "samples" / name);
}

TEST(RealCrdsTest, ScrapeMonitorReadsDeepFieldsAndRoundTrips) {
    const std::string json = Sample("scrape_monitor.json");
    auto parsed = real::monitoring::v1::ScrapeMonitor::Parse(json);
    ASSERT_TRUE(parsed.Ok()) << parsed.GetStatus();
    const real::monitoring::v1::ScrapeMonitor& monitor = *parsed;
    EXPECT_TRUE(monitor.Validate().Ok()) << monitor.Validate();
    const auto endpoints = monitor.Spec().Endpoints();
    ASSERT_EQ(endpoints.size(), 2u);
    EXPECT_EQ(endpoints[0].TargetPort()->IntValue(), 9090);
    EXPECT_EQ(endpoints[1].TargetPort()->StrValue(), "admin-port");
    EXPECT_EQ(endpoints[0].Path(), "/metrics");  // the schema's default
    EXPECT_EQ(endpoints[1].Path(), "/admin/metrics");
    EXPECT_EQ(endpoints[0].Params().at("target").ToJson(), R"(["a","b"])");
    EXPECT_EQ(endpoints[0].BasicAuth().Password().Key(), "pass");
    EXPECT_EQ(endpoints[0].TlsConfig().Ca().Secret().Name(), std::optional<std::string>("web-ca"));
    ASSERT_EQ(endpoints[0].Relabelings().size(), 2u);
    EXPECT_EQ(endpoints[0].Relabelings()[1].Action(), "labeldrop");
    EXPECT_EQ(endpoints[1].Relabelings().size(), 0u);
    EXPECT_EQ(endpoints[0].Extra()->ToJson(), R"({"plugin":{"weights":[0.25,0.75],"on":true}})");
    EXPECT_EQ(monitor.Spec().Selector().MatchExpressions()[0].Values(), (std::vector<std::string>{"frontend", "edge"}));
    EXPECT_FALSE(monitor.Spec().NamespaceSelector().Any());
    EXPECT_EQ(monitor.ToJson(), json);

    real::monitoring::v1::ScrapeMonitor copy = monitor.DeepCopy();
    copy.MutableSpec().MutableEndpoints(0).MutableRelabelings(0).SetTargetLabel("host");
    copy.MutableSpec().MutableEndpoints(0).MutableRelabelings(0).SetTargetLabel("node");
    EXPECT_EQ(copy.ToJson(), json);  // a write and its undo leave every other byte as it was

    auto invalid = real::monitoring::v1::ScrapeMonitor::Parse(
        R"({"spec":{"selector":{},"endpoints":[{"interval":"soon","relabelings":[{"action":"mangle",)"
        R"("sourceLabels":["0bad"]}]}]}})");
    ASSERT_TRUE(invalid.Ok());
    const ctrl::Status invalid_status = invalid->Validate();
    std::vector<std::string> fields;
    for (const ctrl::StatusCause& cause : invalid_status.Causes())
        fields.push_back(cause.field);
    EXPECT_EQ(fields, (std::vector<std::string>{"spec.endpoints[0].interval",
                                                "spec.endpoints[0].relabelings[0].sourceLabels[0]",
                                                "spec.endpoints[0].relabelings[0].action"}));
}

TEST(RealCrdsTest, CertReadsDeepFieldsAndRoundTrips) {
    const std::string json = Sample("cert.json");
    auto parsed = real::pki::v1::Cert::Parse(json);
    ASSERT_TRUE(parsed.Ok()) << parsed.GetStatus();
    real::pki::v1::Cert& cert = *parsed;
    EXPECT_TRUE(cert.Validate().Ok()) << cert.Validate();
    EXPECT_EQ(cert.Spec().IssuerRef().Kind(), "ClusterIssuer");
    EXPECT_EQ(cert.Spec().SecretTemplate().Labels(), (std::map<std::string, std::string>{{"app", "web"}}));
    EXPECT_EQ(cert.Spec().Keystores().Jks().PasswordSecretRef().Name(), "jks-pass");
    EXPECT_TRUE(cert.Spec().IsCA() == std::nullopt);
    EXPECT_EQ(cert.Spec().Usages(), (std::vector<std::string>{"server auth", "digital signature"}));
    EXPECT_EQ(cert.Status().Conditions()[0].Status(), "True");
    // The enums' values as named constants.
    EXPECT_EQ(cert.Status().Conditions()[0].Status(), real::pki::v1::CertStatusConditionsStatus::kTrue);
    EXPECT_EQ(cert.Spec().Usages()[1], real::pki::v1::CertSpecUsages::kDigitalSignature);
    EXPECT_STREQ(real::pki::v1::CertSpecPrivateKeyAlgorithm::kRSA, "RSA");
    EXPECT_EQ(cert.Spec().OtherNames()->ToJson(),
              R"([{"oid":"1.3.6.1.4.1.311.20.2.3","utf8Value":"upn@example.com"}])");
    EXPECT_EQ(cert.ToJson(), json);

    const real::pki::v1::Cert empty;  // a view reads through its object: the object must outlive it
    auto issuer = empty.Spec().IssuerRef();
    EXPECT_EQ(issuer.Kind(), "Issuer");  // default on an absent object

    cert.MutableSpec().MutablePrivateKey().SetSize(100);
    cert.MutableSpec().MutableSubject().SetCountries({"DEU"});
    cert.MutableStatus().MutableConditions(0).SetStatus("Maybe");
    const ctrl::Status cert_status = cert.Validate();
    std::vector<std::string> fields;
    for (const ctrl::StatusCause& cause : cert_status.Causes())
        fields.push_back(cause.field);
    EXPECT_EQ(fields, (std::vector<std::string>{"spec.privateKey.size", "spec.subject.countries[0]",
                                                "status.conditions[0].status"}));
    // The unknown privateKey.encoding and the condition's lastTransitionTime are still there.
    EXPECT_EQ(*cert.NestedString({"spec", "privateKey", "encoding"}), "PKCS8");
    EXPECT_NE(cert.ToJson().find(R"("lastTransitionTime":"2026-12-01T10:01:00Z")"), std::string::npos);

    ctrl::scheme::Scheme scheme;
    ASSERT_TRUE(real::pki::v1::AddToScheme(scheme).Ok());
    ASSERT_TRUE(real::monitoring::v1::AddToScheme(scheme).Ok());
    EXPECT_TRUE(scheme.Recognizes({"pki.gen.example.com", "v1", "CertList"}));
}

}  // namespace
