#include "ctrl/server/tls_identity.hpp"

#include <openssl/asn1.h>
#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

#include "ctrl/server/internal/tls_native.hpp"

namespace ctrl::server {
namespace {

std::string LastOpenSslError() {
    const unsigned long code = ERR_get_error();
    ERR_clear_error();
    if (code == 0)
        return "no PEM data";
    const char* reason = ERR_reason_error_string(code);
    return reason ? reason : "error " + std::to_string(code);
}

std::unique_ptr<BIO, decltype(&BIO_free)> MemoryBio(std::string_view text) {
    return {BIO_new_mem_buf(text.data(), static_cast<int>(text.size())), &BIO_free};
}

std::chrono::system_clock::time_point ToTimePoint(const ASN1_TIME* time) {
    struct tm parts {};
    if (time == nullptr || ASN1_TIME_to_tm(time, &parts) != 1)
        return {};
    return std::chrono::system_clock::from_time_t(timegm(&parts));
}

std::string SerialHexOf(X509* cert) {
    BIGNUM* number = ASN1_INTEGER_to_BN(X509_get_serialNumber(cert), nullptr);
    if (number == nullptr)
        return "";
    char* hex = BN_bn2hex(number);
    std::string out = hex ? hex : "";
    OPENSSL_free(hex);
    BN_free(number);
    return out;
}

}  // namespace

TlsIdentity::TlsIdentity() : native_(std::make_unique<Native>()) {}
TlsIdentity::~TlsIdentity() = default;

StatusOr<std::shared_ptr<const TlsIdentity>> TlsIdentity::FromPem(std::string_view cert_pem, std::string_view key_pem,
                                                                  std::string_view source) {
    std::shared_ptr<TlsIdentity> identity(new TlsIdentity());
    Native& native = *identity->native_;
    ERR_clear_error();
    auto certs = MemoryBio(cert_pem);
    while (X509* cert = PEM_read_bio_X509(certs.get(), nullptr, nullptr, nullptr))
        native.chain.emplace_back(cert);
    ERR_clear_error();  // the read past the last block
    if (native.chain.empty())
        return BadRequestError(std::string(source) + ": no certificate in the PEM data");
    auto key = MemoryBio(key_pem);
    native.key.reset(PEM_read_bio_PrivateKey(key.get(), nullptr, nullptr, nullptr));
    if (!native.key)
        return BadRequestError(std::string(source) + ": the private key does not parse: " + LastOpenSslError());
    if (X509_check_private_key(native.chain.front().get(), native.key.get()) != 1) {
        ERR_clear_error();
        return BadRequestError(std::string(source) + ": the private key is not the certificate's");
    }
    X509* leaf = native.chain.front().get();
    identity->serial_hex_ = SerialHexOf(leaf);
    identity->not_before_ = ToTimePoint(X509_get0_notBefore(leaf));
    identity->not_after_ = ToTimePoint(X509_get0_notAfter(leaf));
    identity->cert_pem_ = std::string(cert_pem);
    identity->key_pem_ = std::string(key_pem);
    return std::shared_ptr<const TlsIdentity>(std::move(identity));
}

}  // namespace ctrl::server
