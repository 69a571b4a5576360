#include "ctrl/server/internal/server_tls.hpp"

#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <unistd.h>

#include <exception>

#include "ctrl/server/internal/openssl_util.hpp"
#include "ctrl/server/internal/tls_native.hpp"

namespace ctrl::server::internal {
namespace {

namespace ssl = boost::asio::ssl;

std::string HostName() {
    char name[256] = {};
    if (gethostname(name, sizeof(name) - 1) != 0)
        return "";
    return name;
}

}  // namespace

StatusOr<SelfSignedCertificate> GenerateSelfSignedCertificate() {
    OwnedKey key(EVP_EC_gen("P-256"));
    OwnedCert cert(X509_new());
    if (!key || !cert)
        return InternalError("generating a self-signed certificate: " + OpenSslReason("unknown error"));
    unsigned char serial_bytes[16];
    if (RAND_bytes(serial_bytes, sizeof(serial_bytes)) != 1)
        return InternalError("generating a self-signed certificate: " + OpenSslReason("unknown error"));
    serial_bytes[0] &= 0x7f;  // a positive serial
    std::unique_ptr<BIGNUM, OpenSslFree<BIGNUM, BN_free>> serial(
        BN_bin2bn(serial_bytes, sizeof(serial_bytes), nullptr));
    const std::string host = HostName();
    std::string sans = "DNS:localhost,IP:127.0.0.1,IP:::1";
    if (!host.empty() && host != "localhost")
        sans += ",DNS:" + host;
    X509* self = cert.get();
    X509_NAME* name = X509_get_subject_name(self);
    const std::string common_name = "ctrl-metrics@" + std::to_string(time(nullptr));
    const bool ok =
        X509_set_version(self, 2) == 1 && serial && BN_to_ASN1_INTEGER(serial.get(), X509_get_serialNumber(self)) &&
        X509_gmtime_adj(X509_getm_notBefore(self), -3600) && X509_gmtime_adj(X509_getm_notAfter(self), 365L * 86400) &&
        X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC,
                                   reinterpret_cast<const unsigned char*>(common_name.c_str()), -1, -1, 0) == 1 &&
        X509_set_issuer_name(self, name) == 1 && X509_set_pubkey(self, key.get()) == 1 &&
        AddExtension(self, self, NID_basic_constraints, "critical,CA:TRUE") &&
        AddExtension(self, self, NID_key_usage, "critical,digitalSignature,keyCertSign") &&
        AddExtension(self, self, NID_ext_key_usage, "serverAuth") &&
        AddExtension(self, self, NID_subject_alt_name, sans) && X509_sign(self, key.get(), EVP_sha256()) > 0;
    if (!ok)
        return InternalError("generating a self-signed certificate: " + OpenSslReason("unknown error"));
    SelfSignedCertificate out{CertificatePem(self), PrivateKeyPem(key.get())};
    if (out.cert_pem.empty() || out.key_pem.empty())
        return InternalError("encoding a self-signed certificate: " + OpenSslReason("unknown error"));
    return out;
}

namespace {

StatusOr<std::shared_ptr<ssl::context>> NewTls12Context() {
    try {
        auto ctx = std::make_shared<ssl::context>(ssl::context::tls_server);
        ctx->set_options(ssl::context::default_workarounds | ssl::context::no_sslv2 | ssl::context::no_sslv3 |
                         ssl::context::no_tlsv1 | ssl::context::no_tlsv1_1 | ssl::context::single_dh_use);
        return ctx;
    } catch (const std::exception& e) {
        return InternalError(std::string("TLS: cannot create a server context: ") + e.what());
    }
}

// OpenSSL's certificate callback: presents the source's current pair on this connection.
int UseCurrentCertificate(SSL* ssl, void* arg) {
    const auto* source = static_cast<const CertificateSource*>(arg);
    const std::shared_ptr<const TlsIdentity> identity = source->Current();
    if (!identity)
        return 0;
    const TlsIdentity::Native& native = identity->GetNative();
    STACK_OF(X509)* chain = sk_X509_new_null();
    if (chain == nullptr)
        return 0;
    for (std::size_t i = 1; i < native.chain.size(); ++i)
        sk_X509_push(chain, native.chain[i].get());
    // override=1: replaces what the previous handshake of a reused SSL set; copies (up-refs) all.
    const int used = SSL_use_cert_and_key(ssl, native.chain.front().get(), native.key.get(), chain, 1);
    sk_X509_free(chain);
    return used == 1 ? 1 : 0;
}

}  // namespace

StatusOr<std::shared_ptr<ssl::context>> NewServerTlsContext(std::shared_ptr<const CertificateSource> source) {
    if (!source || !source->Current())
        return BadRequestError("TLS: the certificate source holds no certificate");
    CTRL_ASSIGN_OR_RETURN(std::shared_ptr<ssl::context> made, NewTls12Context());
    // The context owns the source: the callback's argument lives as long as the context.
    struct Owning {
        std::shared_ptr<ssl::context> ctx;
        std::shared_ptr<const CertificateSource> source;
    };
    auto owning = std::make_shared<Owning>(Owning{std::move(made), std::move(source)});
    SSL_CTX_set_cert_cb(owning->ctx->native_handle(), UseCurrentCertificate,
                        const_cast<CertificateSource*>(owning->source.get()));
    return std::shared_ptr<ssl::context>(owning, owning->ctx.get());
}

StatusOr<std::shared_ptr<ssl::context>> NewServerTlsContext(const std::string& cert_file, const std::string& key_file) {
    if (cert_file.empty() != key_file.empty())
        return BadRequestError("TLS: give both a certificate file and a key file, or neither (self-signed)");
    CTRL_ASSIGN_OR_RETURN(std::shared_ptr<ssl::context> ctx, NewTls12Context());
    if (cert_file.empty()) {
        CTRL_ASSIGN_OR_RETURN(SelfSignedCertificate self_signed, GenerateSelfSignedCertificate());
        boost::system::error_code ec;
        ctx->use_certificate_chain(boost::asio::buffer(self_signed.cert_pem), ec);
        if (!ec)
            ctx->use_private_key(boost::asio::buffer(self_signed.key_pem), ssl::context::pem, ec);
        if (ec)
            return InternalError("TLS: cannot use the self-signed certificate: " + ec.message());
        return ctx;
    }
    boost::system::error_code ec;
    ctx->use_certificate_chain_file(cert_file, ec);
    if (ec)
        return BadRequestError("TLS certificate file " + cert_file + ": " + ec.message());
    ctx->use_private_key_file(key_file, ssl::context::pem, ec);
    if (ec)
        return BadRequestError("TLS key file " + key_file + ": " + ec.message());
    if (SSL_CTX_check_private_key(ctx->native_handle()) != 1)
        return BadRequestError("TLS key file " + key_file + " does not match the certificate in " + cert_file);
    return ctx;
}

}  // namespace ctrl::server::internal
