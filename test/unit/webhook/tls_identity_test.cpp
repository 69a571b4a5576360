#include "ctrl/server/tls_identity.hpp"

#include <gtest/gtest.h>

#include <chrono>

#include "ctrl/server/internal/server_tls.hpp"

namespace ctrl::server {
namespace {

TEST(TlsIdentityTest, ReadsTheLeafsSerialAndValidity) {
    StatusOr<internal::SelfSignedCertificate> pair = internal::GenerateSelfSignedCertificate();
    ASSERT_TRUE(pair.Ok()) << pair.GetStatus();
    StatusOr<std::shared_ptr<const TlsIdentity>> identity = TlsIdentity::FromPem(pair->cert_pem, pair->key_pem);
    ASSERT_TRUE(identity.Ok()) << identity.GetStatus();
    EXPECT_FALSE((*identity)->SerialHex().empty());
    const auto now = std::chrono::system_clock::now();
    EXPECT_LT((*identity)->NotBefore(), now);
    EXPECT_GT((*identity)->NotAfter(), now + std::chrono::hours(24 * 300));
}

TEST(TlsIdentityTest, AKeyOfAnotherCertificateOrNoPemIsABadRequestNamingTheSource) {
    StatusOr<internal::SelfSignedCertificate> one = internal::GenerateSelfSignedCertificate();
    StatusOr<internal::SelfSignedCertificate> two = internal::GenerateSelfSignedCertificate();
    ASSERT_TRUE(one.Ok() && two.Ok());
    StatusOr<std::shared_ptr<const TlsIdentity>> mismatched =
        TlsIdentity::FromPem(one->cert_pem, two->key_pem, "tls.crt and tls.key in /certs");
    ASSERT_FALSE(mismatched.Ok());
    EXPECT_TRUE(IsBadRequest(mismatched.GetStatus()));
    EXPECT_EQ(mismatched.GetStatus().Message(),
              "tls.crt and tls.key in /certs: the private key is not the certificate's");
    EXPECT_FALSE(TlsIdentity::FromPem("", one->key_pem).Ok());
    EXPECT_FALSE(
        TlsIdentity::FromPem(one->cert_pem, "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n").Ok());
}

}  // namespace
}  // namespace ctrl::server
