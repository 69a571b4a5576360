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

namespace ctrl::webhook::internal {
namespace {

template <typename T, void (*Free)(T*)>
struct Deleter {
    void operator()(T* p) const { Free(p); }
};
using Key = std::unique_ptr<EVP_PKEY, Deleter<EVP_PKEY, EVP_PKEY_free>>;
using Cert = std::unique_ptr<X509, Deleter<X509, X509_free>>;
using Bio = std::unique_ptr<BIO, Deleter<BIO, BIO_free_all>>;

std::string OpenSslError(std::string_view what) {
    const unsigned long code = ERR_get_error();
    ERR_clear_error();
    const char* reason = code ? ERR_reason_error_string(code) : nullptr;
    return std::string(what) + ": " + (reason ? reason : "OpenSSL error " + std::to_string(code));
}

std::string ToPem(X509* cert) {
    Bio bio(BIO_new(BIO_s_mem()));
    if (!bio || PEM_write_bio_X509(bio.get(), cert) != 1)
        return "";
    char* data = nullptr;
    const long size = BIO_get_mem_data(bio.get(), &data);
    return std::string(data, static_cast<std::size_t>(size));
}

std::string ToPem(EVP_PKEY* key) {
    Bio bio(BIO_new(BIO_s_mem()));
    if (!bio || PEM_write_bio_PrivateKey(bio.get(), key, nullptr, nullptr, 0, nullptr, nullptr) != 1)
        return "";
    char* data = nullptr;
    const long size = BIO_get_mem_data(bio.get(), &data);
    return std::string(data, static_cast<std::size_t>(size));
}

Cert ParseCert(std::string_view pem) {
    Bio bio(BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())));
    Cert cert(bio ? PEM_read_bio_X509(bio.get(), nullptr, nullptr, nullptr) : nullptr);
    ERR_clear_error();
    return cert;
}

Key ParseKey(std::string_view pem) {
    Bio bio(BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())));
    Key key(bio ? PEM_read_bio_PrivateKey(bio.get(), nullptr, nullptr, nullptr) : nullptr);
    ERR_clear_error();
    return key;
}

bool AddExtension(X509* cert, X509* issuer, int nid, const std::string& value) {
    X509V3_CTX ctx;
    X509V3_set_ctx_nodb(&ctx);
    X509V3_set_ctx(&ctx, issuer, cert, nullptr, nullptr, 0);
    X509_EXTENSION* ext = X509V3_EXT_conf_nid(nullptr, &ctx, nid, value.c_str());
    if (!ext)
        return false;
    const bool added = X509_add_ext(cert, ext, -1) == 1;
    X509_EXTENSION_free(ext);
    return added;
}

// A certificate for key, named common_name, valid from an hour ago for validity (capped at
// not_after_cap when given), with a random positive serial.
Cert NewCertificate(EVP_PKEY* key, std::string_view common_name, std::chrono::seconds validity,
                    std::chrono::system_clock::time_point now, const ASN1_TIME* not_after_cap) {
    time_t base = std::chrono::system_clock::to_time_t(now);
    // Valid from a little before now, for clocks behind ours: an hour, or a tenth of a short validity.
    const long backdate = std::min<long>(3600, static_cast<long>(validity.count() / 10));
    Cert cert(X509_new());
    unsigned char serial_bytes[16];
    if (!cert || RAND_bytes(serial_bytes, sizeof(serial_bytes)) != 1)
        return nullptr;
    serial_bytes[0] &= 0x7f;
    std::unique_ptr<BIGNUM, Deleter<BIGNUM, BN_free>> serial(BN_bin2bn(serial_bytes, sizeof(serial_bytes), nullptr));
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

std::chrono::system_clock::time_point ToTimePoint(const ASN1_TIME* time) {
    struct tm parts {};
    if (time == nullptr || ASN1_TIME_to_tm(time, &parts) != 1)
        return {};
    return std::chrono::system_clock::from_time_t(timegm(&parts));
}

}  // namespace

StatusOr<PemPair> NewCertificateAuthority(std::string_view common_name, std::chrono::seconds validity,
                                          std::chrono::system_clock::time_point now) {
    Key key(EVP_EC_gen("P-256"));
    if (!key)
        return InternalError(OpenSslError("generating the CA key"));
    Cert cert = NewCertificate(key.get(), common_name, validity, now, nullptr);
    const bool ok = cert && X509_set_issuer_name(cert.get(), X509_get_subject_name(cert.get())) == 1 &&
                    AddExtension(cert.get(), cert.get(), NID_basic_constraints, "critical,CA:TRUE") &&
                    AddExtension(cert.get(), cert.get(), NID_key_usage, "critical,digitalSignature,keyCertSign") &&
                    AddExtension(cert.get(), cert.get(), NID_subject_key_identifier, "hash") &&
                    X509_sign(cert.get(), key.get(), EVP_sha256()) > 0;
    if (!ok)
        return InternalError(OpenSslError("making the CA certificate"));
    return PemPair{ToPem(cert.get()), ToPem(key.get())};
}

StatusOr<PemPair> IssueServingCertificate(const PemPair& ca, const std::vector<std::string>& dns_names,
                                          const std::vector<std::string>& ips, std::chrono::seconds validity,
                                          std::chrono::system_clock::time_point now) {
    Cert ca_cert = ParseCert(ca.cert);
    Key ca_key = ParseKey(ca.key);
    if (!ca_cert || !ca_key)
        return BadRequestError("the CA's certificate or key does not parse");
    if (dns_names.empty() && ips.empty())
        return BadRequestError("a serving certificate needs at least one DNS name or IP address");
    Key key(EVP_EC_gen("P-256"));
    if (!key)
        return InternalError(OpenSslError("generating the serving key"));
    std::string sans;
    for (const std::string& dns : dns_names)
        sans += (sans.empty() ? "DNS:" : ",DNS:") + dns;
    for (const std::string& ip : ips)
        sans += (sans.empty() ? "IP:" : ",IP:") + ip;
    const std::string common_name = dns_names.empty() ? ips.front() : dns_names.front();
    Cert cert = NewCertificate(key.get(), common_name, validity, now, X509_get0_notAfter(ca_cert.get()));
    const bool ok = cert && X509_set_issuer_name(cert.get(), X509_get_subject_name(ca_cert.get())) == 1 &&
                    AddExtension(cert.get(), ca_cert.get(), NID_basic_constraints, "critical,CA:FALSE") &&
                    AddExtension(cert.get(), ca_cert.get(), NID_key_usage, "critical,digitalSignature") &&
                    AddExtension(cert.get(), ca_cert.get(), NID_ext_key_usage, "serverAuth") &&
                    AddExtension(cert.get(), ca_cert.get(), NID_authority_key_identifier, "keyid:always") &&
                    AddExtension(cert.get(), ca_cert.get(), NID_subject_alt_name, sans) &&
                    X509_sign(cert.get(), ca_key.get(), EVP_sha256()) > 0;
    if (!ok)
        return InternalError(OpenSslError("issuing the serving certificate"));
    return PemPair{ToPem(cert.get()), ToPem(key.get())};
}

StatusOr<CertificateFacts> ReadCertificate(std::string_view pem) {
    Cert cert = ParseCert(pem);
    if (!cert)
        return BadRequestError("no PEM certificate");
    CertificateFacts facts;
    facts.not_before = ToTimePoint(X509_get0_notBefore(cert.get()));
    facts.not_after = ToTimePoint(X509_get0_notAfter(cert.get()));
    std::unique_ptr<BIGNUM, Deleter<BIGNUM, BN_free>> serial(
        ASN1_INTEGER_to_BN(X509_get_serialNumber(cert.get()), nullptr));
    if (serial) {
        char* hex = BN_bn2hex(serial.get());
        facts.serial_hex = hex ? hex : "";
        OPENSSL_free(hex);
    }
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
    Cert leaf = ParseCert(leaf_pem);
    Cert ca = ParseCert(ca_cert_pem);
    if (!leaf || !ca)
        return false;
    EVP_PKEY* ca_key = X509_get0_pubkey(ca.get());
    const bool signed_by = ca_key != nullptr && X509_verify(leaf.get(), ca_key) == 1;
    ERR_clear_error();
    return signed_by;
}

}  // namespace ctrl::webhook::internal
