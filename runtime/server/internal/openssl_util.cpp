#include "ctrl/server/internal/openssl_util.hpp"

#include <openssl/bn.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/x509v3.h>

#include <ctime>

namespace ctrl::server::internal {
namespace {

std::string BioText(BIO* bio) {
    char* data = nullptr;
    const long size = BIO_get_mem_data(bio, &data);
    return std::string(data, static_cast<std::size_t>(size));
}

}  // namespace

std::string OpenSslReason(std::string_view if_none) {
    const unsigned long code = ERR_get_error();
    ERR_clear_error();
    if (code == 0)
        return std::string(if_none);
    const char* reason = ERR_reason_error_string(code);
    return reason ? reason : "error " + std::to_string(code);
}

std::string CertificatePem(X509* cert) {
    OwnedBio bio(BIO_new(BIO_s_mem()));
    if (!bio || PEM_write_bio_X509(bio.get(), cert) != 1)
        return "";
    return BioText(bio.get());
}

std::string PrivateKeyPem(EVP_PKEY* key) {
    OwnedBio bio(BIO_new(BIO_s_mem()));
    if (!bio || PEM_write_bio_PrivateKey(bio.get(), key, nullptr, nullptr, 0, nullptr, nullptr) != 1)
        return "";
    return BioText(bio.get());
}

OwnedCert ParseCertificatePem(std::string_view pem) {
    OwnedBio bio(BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())));
    OwnedCert cert(bio ? PEM_read_bio_X509(bio.get(), nullptr, nullptr, nullptr) : nullptr);
    ERR_clear_error();
    return cert;
}

OwnedKey ParsePrivateKeyPem(std::string_view pem) {
    OwnedBio bio(BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())));
    OwnedKey key(bio ? PEM_read_bio_PrivateKey(bio.get(), nullptr, nullptr, nullptr) : nullptr);
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

std::string SerialHex(X509* cert) {
    BIGNUM* number = ASN1_INTEGER_to_BN(X509_get_serialNumber(cert), nullptr);
    if (number == nullptr)
        return "";
    char* hex = BN_bn2hex(number);
    std::string out = hex ? hex : "";
    OPENSSL_free(hex);
    BN_free(number);
    return out;
}

std::chrono::system_clock::time_point ToTimePoint(const ASN1_TIME* time) {
    struct tm parts {};
    if (time == nullptr || ASN1_TIME_to_tm(time, &parts) != 1)
        return {};
    return std::chrono::system_clock::from_time_t(timegm(&parts));
}

}  // namespace ctrl::server::internal
