#pragma once

// What the layers that make and read certificates with OpenSSL share (this layer's TLS, the
// webhook layer's self-managed authority): owning pointers, PEM text, X.509 extensions, a
// certificate's serial and times, and OpenSSL's last error. Only for their .cpp files: OpenSSL is
// private to the layers that link it.

#include <openssl/asn1.h>
#include <openssl/bio.h>
#include <openssl/evp.h>
#include <openssl/x509.h>

#include <chrono>
#include <memory>
#include <string>
#include <string_view>

namespace ctrl::server::internal {

template <typename T, void (*Free)(T*)>
struct OpenSslFree {
    void operator()(T* p) const { Free(p); }
};
using OwnedKey = std::unique_ptr<EVP_PKEY, OpenSslFree<EVP_PKEY, EVP_PKEY_free>>;
using OwnedCert = std::unique_ptr<X509, OpenSslFree<X509, X509_free>>;
using OwnedBio = std::unique_ptr<BIO, OpenSslFree<BIO, BIO_free_all>>;

// The reason of OpenSSL's oldest queued error, the queue then cleared; if_none when it was empty.
std::string OpenSslReason(std::string_view if_none);

// PEM text of a certificate or a private key (PKCS#8); "" when OpenSSL fails.
std::string CertificatePem(X509* cert);
std::string PrivateKeyPem(EVP_PKEY* key);
// The first certificate or private key of PEM text; null when there is none.
OwnedCert ParseCertificatePem(std::string_view pem);
OwnedKey ParsePrivateKeyPem(std::string_view pem);

// Adds an X.509v3 extension in OpenSSL's config syntax ("critical,CA:TRUE"), issued by issuer.
bool AddExtension(X509* cert, X509* issuer, int nid, const std::string& value);

// A certificate's serial number in upper-case hex, and an ASN.1 time as a time point (epoch when
// it cannot be read).
std::string SerialHex(X509* cert);
std::chrono::system_clock::time_point ToTimePoint(const ASN1_TIME* time);

}  // namespace ctrl::server::internal
