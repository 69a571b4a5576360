#include "ctrl/webhook/internal/cert_plan.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "ctrl/server/tls_identity.hpp"
#include "ctrl/webhook/internal/certificate_authority.hpp"

namespace ctrl::webhook::internal {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::system_clock;

// A CA of 90 s and certificates of 30 s (each renewed with a third of its life left); certificates
// start an hour before they are made (clock skew), so "due" is measured from that start.
CertWants Wants() {
    return CertWants{{"hooks.system.svc"}, {"127.0.0.1"}, "test-ca", 2h, 1h + 30min, 5s};
}

StatusOr<CertificateFacts> Facts(const std::string& pem) {
    return ReadCertificate(pem);
}

TEST(CertPlanTest, FromNothingACaAndAServingCertificateForTheWantedNames) {
    const Clock::time_point now = Clock::now();
    StatusOr<CertPlan> plan = PlanCertificates({}, Wants(), now);
    ASSERT_TRUE(plan.Ok()) << plan.GetStatus();
    EXPECT_TRUE(plan->changed);
    EXPECT_EQ(SplitPemCertificates(plan->next.ca_bundle).size(), 1u);
    EXPECT_TRUE(Facts(plan->next.ca_bundle)->is_ca);
    EXPECT_TRUE(SignedBy(plan->next.tls_crt, plan->next.ca_bundle));
    EXPECT_TRUE(server::TlsIdentity::FromPem(plan->next.tls_crt, plan->next.tls_key).Ok());
    const CertificateFacts serving = *Facts(plan->next.tls_crt);
    EXPECT_EQ(serving.dns_names, std::vector<std::string>{"hooks.system.svc"});
    EXPECT_EQ(serving.ips, std::vector<std::string>{"127.0.0.1"});
    EXPECT_FALSE(serving.is_ca);
    EXPECT_LT(plan->wake_at, serving.not_after) << "renewed before it expires";
    EXPECT_GT(plan->wake_at, now);

    StatusOr<CertPlan> again = PlanCertificates(plan->next, Wants(), now);
    ASSERT_TRUE(again.Ok());
    EXPECT_FALSE(again->changed) << "nothing is due: nothing changes";
}

TEST(CertPlanTest, TheServingCertificateIsRenewedByTheSameCaWhenDue) {
    const Clock::time_point now = Clock::now();
    const CertPlan first = *PlanCertificates({}, Wants(), now);
    StatusOr<CertPlan> later = PlanCertificates(first.next, Wants(), first.wake_at + 1s);
    ASSERT_TRUE(later.Ok());
    EXPECT_TRUE(later->changed);
    EXPECT_EQ(later->next.ca_bundle, first.next.ca_bundle);
    EXPECT_NE(Facts(later->next.tls_crt)->serial_hex, Facts(first.next.tls_crt)->serial_hex);
}

TEST(CertPlanTest, ANewCaJoinsBeforeTheOldLeavesAndItsCertificateWaitsForPropagation) {
    const Clock::time_point now = Clock::now();
    CertWants wants = Wants();
    const CertPlan first = *PlanCertificates({}, wants, now);
    // Past the CA's renewal point, while the served certificate is still valid and not due: it was
    // issued ten minutes before.
    const CertificateFacts ca = *Facts(first.next.ca_bundle);
    const Clock::time_point ca_due = ca.not_after - (ca.not_after - ca.not_before) / 3 + 1s;
    CertSecretData current = first.next;
    const PemPair reissued = *IssueServingCertificate(PemPair{current.ca_bundle, current.ca_key}, wants.dns_names,
                                                      wants.ips, 1h + 30min, ca_due - 10min);
    current.tls_crt = reissued.cert;
    current.tls_key = reissued.key;
    // The renewed certificate must still be valid at ca_due for this step.
    ASSERT_GT(Facts(current.tls_crt)->not_after, ca_due);

    StatusOr<CertPlan> rotating = PlanCertificates(current, wants, ca_due);
    ASSERT_TRUE(rotating.Ok());
    const std::vector<std::string> bundle = SplitPemCertificates(rotating->next.ca_bundle);
    ASSERT_EQ(bundle.size(), 2u) << "the new CA first, the old one kept";
    EXPECT_EQ(bundle[1], SplitPemCertificates(first.next.ca_bundle)[0]);
    EXPECT_EQ(rotating->next.tls_crt, current.tls_crt) << "the old CA's certificate is still served";
    EXPECT_EQ(rotating->wake_at, ca_due + wants.propagation_delay);

    StatusOr<CertPlan> propagated = PlanCertificates(rotating->next, wants, rotating->wake_at + 1ms);
    ASSERT_TRUE(propagated.Ok());
    EXPECT_TRUE(SignedBy(propagated->next.tls_crt, bundle[0])) << "now served: a certificate of the new CA";
    EXPECT_EQ(SplitPemCertificates(propagated->next.ca_bundle).size(), 2u);

    StatusOr<CertPlan> old_gone = PlanCertificates(propagated->next, wants, ca.not_after + 1s);
    ASSERT_TRUE(old_gone.Ok());
    const std::vector<std::string> left = SplitPemCertificates(old_gone->next.ca_bundle);
    EXPECT_EQ(std::count(left.begin(), left.end(), bundle[1]), 0) << "an expired CA leaves the bundle";
    EXPECT_EQ(std::count(left.begin(), left.end(), bundle[0]), 1);
}

TEST(CertPlanTest, AWantedNameTheCertificateLacksOrABrokenPairIsReissued) {
    const Clock::time_point now = Clock::now();
    const CertPlan first = *PlanCertificates({}, Wants(), now);
    CertWants more = Wants();
    more.dns_names.push_back("hooks.system.svc.cluster.local");
    StatusOr<CertPlan> named = PlanCertificates(first.next, more, now);
    ASSERT_TRUE(named.Ok());
    EXPECT_TRUE(named->changed);
    EXPECT_EQ(Facts(named->next.tls_crt)->dns_names.size(), 2u);

    CertSecretData broken = first.next;
    broken.tls_key = "garbage";
    StatusOr<CertPlan> fixed = PlanCertificates(broken, Wants(), now);
    ASSERT_TRUE(fixed.Ok());
    EXPECT_TRUE(server::TlsIdentity::FromPem(fixed->next.tls_crt, fixed->next.tls_key).Ok());
    EXPECT_EQ(fixed->next.ca_bundle, first.next.ca_bundle) << "the CA stays";
}

}  // namespace
}  // namespace ctrl::webhook::internal
