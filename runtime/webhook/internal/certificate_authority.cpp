#include "ctrl/webhook/internal/certificate_authority.hpp"

#include <openssl/asn1.h>
#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <algorithm>
#include <memory>

#include "ctrl/server/internal/openssl_util.hpp"

namespace ctrl::webhook::internal {
namespace {

using server::internal::AddExtension;
using server::internal::OpenSslFree;
using server::internal::OwnedCert;
using server::internal::OwnedKey;
using server::internal::ParseCertificatePem;
using server::internal::ParsePrivateKeyPem;
using server::internal::ToTimePoint;

std::string OpenSslError(std::string_view what) {
    return std::string(what) + ": " + server::internal::OpenSslReason("OpenSSL error 0");
}

// A certificate for key, named common_name, valid from an hour ago for validity (capped at
// not_after_cap when given), with a random positive serial.
OwnedCert NewCertificate(EVP_PKEY* key, std::string_view common_name, std::chrono::seconds validity,
                         std::chrono::system_clock::time_point now, const ASN1_TIME* not_after_cap) {
    time_t base = std::chrono::system_clock::to_time_t(now);
    // Valid from a little before now, for clocks behind ours: an hour, or a tenth of a short validity.
    const long backdate = std::min<long>(3600, static_cast<long>(validity.count() / 10));
    OwnedCert cert(X509_new());
    unsigned char serial_bytes[16];
    if (!cert || RAND_bytes(serial_bytes, sizeof(serial_bytes)) != 1)
        return nullptr;
    serial_bytes[0] &= 0x7f;
    std::unique_ptr<BIGNUM, OpenSslFree<BIGNUM, BN_free>> serial(
        BN_bin2bn(serial_bytes, sizeof(serial_bytes), nullptr));
    X509_NAME* name = X509_get_subject_name(cert.get());
    const std::string cn(common_name);
    const bool ok = serial && X509_set_version(cert.get(), 2) == 1 &&
                    BN_to_ASN1_INTEGER(serial.get(), X509_get_serialNumber(cert.get())) &&
                    X509_time_adj(X509_getm_notBefore(cert.get()), -backdate, &base) &&
                    X509_time_adj(X509_getm_notAfter(cert.get()), static_cast<long>(validity.count()), &base) &&
                    X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC,
                                               reinterpret_cast<const unsigned char*>(cn.c_str()), -1, -1, 0) == 1 &&
                    X509_set_pubkey(cert.get(), key) == 1;
    if (!ok)
        return nullptr;
    if (not_after_cap != nullptr && ASN1_TIME_compare(X509_get0_notAfter(cert.get()), not_after_cap) > 0)
        X509_set1_notAfter(cert.get(), not_after_cap);
    return cert;
}

}  // namespace

StatusOr<PemPair> NewCertificateAuthority(std::string_view common_name, std::chrono::seconds validity,
                                          std::chrono::system_clock::time_point now) {
    OwnedKey key(EVP_EC_gen("P-256"));
    if (!key)
        return InternalError(OpenSslError("generating the CA key"));
    OwnedCert cert = NewCertificate(key.get(), common_name, validity, now, nullptr);
    const bool ok = cert && X509_set_issuer_name(cert.get(), X509_get_subject_name(cert.get())) == 1 &&
                    AddExtension(cert.get(), cert.get(), NID_basic_constraints, "critical,CA:TRUE") &&
                    AddExtension(cert.get(), cert.get(), NID_key_usage, "critical,digitalSignature,keyCertSign") &&
                    AddExtension(cert.get(), cert.get(), NID_subject_key_identifier, "hash") &&
                    X509_sign(cert.get(), key.get(), EVP_sha256()) > 0;
    if (!ok)
        return InternalError(OpenSslError("making the CA certificate"));
    return PemPair{server::internal::CertificatePem(cert.get()), server::internal::PrivateKeyPem(key.get())};
}

StatusOr<PemPair> IssueServingCertificate(const PemPair& ca, const std::vector<std::string>& dns_names,
                                          const std::vector<std::string>& ips, std::chrono::seconds validity,
                                          std::chrono::system_clock::time_point now) {
    OwnedCert ca_cert = ParseCertificatePem(ca.cert);
    OwnedKey ca_key = ParsePrivateKeyPem(ca.key);
    if (!ca_cert || !ca_key)
        return BadRequestError("the CA's certificate or key does not parse");
    if (dns_names.empty() && ips.empty())
        return BadRequestError("a serving certificate needs at least one DNS name or IP address");
    OwnedKey key(EVP_EC_gen("P-256"));
    if (!key)
        return InternalError(OpenSslError("generating the serving key"));
    std::string sans;
    for (const std::string& dns : dns_names)
        sans += (sans.empty() ? "DNS:" : ",DNS:") + dns;
    for (const std::string& ip : ips)
        sans += (sans.empty() ? "IP:" : ",IP:") + ip;
    const std::string common_name = dns_names.empty() ? ips.front() : dns_names.front();
    OwnedCert cert = NewCertificate(key.get(), common_name, validity, now, X509_get0_notAfter(ca_cert.get()));
    const bool ok = cert && X509_set_issuer_name(cert.get(), X509_get_subject_name(ca_cert.get())) == 1 &&
                    AddExtension(cert.get(), ca_cert.get(), NID_basic_constraints, "critical,CA:FALSE") &&
                    AddExtension(cert.get(), ca_cert.get(), NID_key_usage, "critical,digitalSignature") &&
                    AddExtension(cert.get(), ca_cert.get(), NID_ext_key_usage, "serverAuth") &&
                    AddExtension(cert.get(), ca_cert.get(), NID_authority_key_identifier, "keyid:always") &&
                    AddExtension(cert.get(), ca_cert.get(), NID_subject_alt_name, sans) &&
                    X509_sign(cert.get(), ca_key.get(), EVP_sha256()) > 0;
    if (!ok)
        return InternalError(OpenSslError("issuing the serving certificate"));
    return PemPair{server::internal::CertificatePem(cert.get()), server::internal::PrivateKeyPem(key.get())};
}

StatusOr<CertificateFacts> ReadCertificate(std::string_view pem) {
    OwnedCert cert = ParseCertificatePem(pem);
    if (!cert)
        return BadRequestError("no PEM certificate");
    CertificateFacts facts;
    facts.not_before = ToTimePoint(X509_get0_notBefore(cert.get()));
    facts.not_after = ToTimePoint(X509_get0_notAfter(cert.get()));
    facts.serial_hex = server::internal::SerialHex(cert.get());
    facts.is_ca = X509_check_ca(cert.get()) > 0;
    auto* names = static_cast<GENERAL_NAMES*>(X509_get_ext_d2i(cert.get(), NID_subject_alt_name, nullptr, nullptr));
    for (int i = 0; names != nullptr && i < sk_GENERAL_NAME_num(names); ++i) {
        const GENERAL_NAME* name = sk_GENERAL_NAME_value(names, i);
        if (name->type == GEN_DNS) {
            const ASN1_STRING* dns = name->d.dNSName;
            facts.dns_names.emplace_back(reinterpret_cast<const char*>(ASN1_STRING_get0_data(dns)),
                                         static_cast<std::size_t>(ASN1_STRING_length(dns)));
        } else if (name->type == GEN_IPADD) {
            const ASN1_OCTET_STRING* ip = name->d.iPAddress;
            if (ASN1_STRING_length(ip) == 4) {
                const unsigned char* b = ASN1_STRING_get0_data(ip);
                facts.ips.push_back(std::to_string(b[0]) + "." + std::to_string(b[1]) + "." + std::to_string(b[2]) +
                                    "." + std::to_string(b[3]));
            }
        }
    }
    GENERAL_NAMES_free(names);
    return facts;
}

std::vector<std::string> SplitPemCertificates(std::string_view pem) {
    constexpr std::string_view kEnd = "-----END CERTIFICATE-----";
    std::vector<std::string> out;
    for (std::size_t begin = pem.find("-----BEGIN CERTIFICATE-----"); begin != std::string_view::npos;
         begin = pem.find("-----BEGIN CERTIFICATE-----", begin)) {
        const std::size_t end = pem.find(kEnd, begin);
        if (end == std::string_view::npos)
            break;
        out.emplace_back(pem.substr(begin, end + kEnd.size() - begin));
        out.back() += "\n";
        begin = end + kEnd.size();
    }
    return out;
}

bool SignedBy(std::string_view leaf_pem, std::string_view ca_cert_pem) {
    OwnedCert leaf = ParseCertificatePem(leaf_pem);
    OwnedCert ca = ParseCertificatePem(ca_cert_pem);
    if (!leaf || !ca)
        return false;
    EVP_PKEY* ca_key = X509_get0_pubkey(ca.get());
    const bool signed_by = ca_key != nullptr && X509_verify(leaf.get(), ca_key) == 1;
    ERR_clear_error();
    return signed_by;
}

}  // namespace ctrl::webhook::internal
