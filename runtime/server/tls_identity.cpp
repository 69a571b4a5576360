#include "ctrl/server/tls_identity.hpp"

#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

#include "ctrl/server/internal/openssl_util.hpp"
#include "ctrl/server/internal/tls_native.hpp"

namespace ctrl::server {

TlsIdentity::TlsIdentity() : native_(std::make_unique<Native>()) {}
TlsIdentity::~TlsIdentity() = default;

StatusOr<std::shared_ptr<const TlsIdentity>> TlsIdentity::FromPem(std::string_view cert_pem, std::string_view key_pem,
                                                                  std::string_view source) {
    std::shared_ptr<TlsIdentity> identity(new TlsIdentity());
    Native& native = *identity->native_;
    ERR_clear_error();
    internal::OwnedBio certs(BIO_new_mem_buf(cert_pem.data(), static_cast<int>(cert_pem.size())));
    while (X509* cert = certs ? PEM_read_bio_X509(certs.get(), nullptr, nullptr, nullptr) : nullptr)
        native.chain.emplace_back(cert);
    ERR_clear_error();  // the read past the last block
    if (native.chain.empty())
        return BadRequestError(std::string(source) + ": no certificate in the PEM data");
    internal::OwnedBio key(BIO_new_mem_buf(key_pem.data(), static_cast<int>(key_pem.size())));
    native.key.reset(key ? PEM_read_bio_PrivateKey(key.get(), nullptr, nullptr, nullptr) : nullptr);
    if (!native.key)
        return BadRequestError(std::string(source) +
                               ": the private key does not parse: " + internal::OpenSslReason("no PEM data"));
    if (X509_check_private_key(native.chain.front().get(), native.key.get()) != 1) {
        ERR_clear_error();
        return BadRequestError(std::string(source) + ": the private key is not the certificate's");
    }
    X509* leaf = native.chain.front().get();
    identity->serial_hex_ = internal::SerialHex(leaf);
    identity->not_before_ = internal::ToTimePoint(X509_get0_notBefore(leaf));
    identity->not_after_ = internal::ToTimePoint(X509_get0_notAfter(leaf));
    identity->cert_pem_ = std::string(cert_pem);
    identity->key_pem_ = std::string(key_pem);
    return std::shared_ptr<const TlsIdentity>(std::move(identity));
}

}  // namespace ctrl::server
