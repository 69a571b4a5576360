#include "ctrl/rest/internal/beast_tls_context.hpp"

#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

#include <exception>

#include <boost/asio/buffer.hpp>
#include <boost/asio/ip/address.hpp>
#include <boost/asio/ssl/error.hpp>

namespace ctrl::rest::internal {
namespace {

namespace ssl = boost::asio::ssl;

// The reason of an OpenSSL error code, without the library name asio sometimes adds.
std::string Reason(const boost::system::error_code& ec) {
    if (ec.category() == boost::asio::error::get_ssl_category()) {
        if (const char* reason = ERR_reason_error_string(static_cast<unsigned long>(ec.value())))
            return reason;
    }
    return ec.message();
}

Status BadPem(std::string_view field, std::string_view what, const boost::system::error_code& ec) {
    ERR_clear_error();
    return BadRequestError("TLS " + std::string(field) + ": " + std::string(what) + ": " + Reason(ec));
}

// Loads the client key, telling a key that does not parse from one that does not match.
Status UsePrivateKey(SSL_CTX* ctx, const std::string& pem) {
    ERR_clear_error();
    BIO* bio = BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size()));
    EVP_PKEY* key = bio ? PEM_read_bio_PrivateKey(bio, nullptr, nullptr, nullptr) : nullptr;
    BIO_free(bio);
    if (key == nullptr) {
        const char* reason = ERR_reason_error_string(ERR_peek_last_error());
        ERR_clear_error();
        return BadRequestError(std::string("TLS client_key_pem (client key data): not a PEM private key: ") +
                               (reason ? reason : "unknown error"));
    }
    const bool used = SSL_CTX_use_PrivateKey(ctx, key) == 1 && SSL_CTX_check_private_key(ctx) == 1;
    EVP_PKEY_free(key);
    ERR_clear_error();
    if (!used)
        return BadRequestError("TLS client_key_pem does not match the certificate in client_cert_pem");
    return OkStatus();
}

// Fills the extension cache (key identifiers, purposes) of every certificate the context verifies
// with, while the context is still private to this thread. OpenSSL fills it lazily on first use, and
// handshakes on two threads then race on it: one thread writes a CA's subject key identifier while
// another compares it (ThreadSanitizer, two manager threads' first connections).
void FillCertificateCaches(SSL_CTX* ctx) {
    STACK_OF(X509_OBJECT)* objects = X509_STORE_get0_objects(SSL_CTX_get_cert_store(ctx));
    for (int i = 0; objects != nullptr && i < sk_X509_OBJECT_num(objects); ++i) {
        if (X509* cert = X509_OBJECT_get0_X509(sk_X509_OBJECT_value(objects, i)))
            (void)X509_check_purpose(cert, -1, 0);
    }
    if (X509* own = SSL_CTX_get0_certificate(ctx))
        (void)X509_check_purpose(own, -1, 0);
    ERR_clear_error();
}

}  // namespace

StatusOr<std::shared_ptr<ssl::context>> NewTlsContext(const TlsOptions& tls) {
    std::shared_ptr<ssl::context> ctx;
    try {
        ctx = std::make_shared<ssl::context>(ssl::context::tls_client);
    } catch (const std::exception& e) {
        ERR_clear_error();
        return InternalError(std::string("creating an OpenSSL context: ") + e.what());
    }
    SSL_CTX* native = ctx->native_handle();
    if (SSL_CTX_set_min_proto_version(native, TLS1_2_VERSION) != 1) {
        ERR_clear_error();
        return InternalError("OpenSSL refused TLS 1.2 as the minimum protocol version");
    }
    boost::system::error_code ec;
    if (!tls.ca_pem.empty()) {
        ctx->add_certificate_authority(boost::asio::buffer(tls.ca_pem), ec);
        if (ec)
            return BadPem("ca_pem (certificate authority data)", "not a PEM certificate bundle", ec);
    } else {
        ctx->set_default_verify_paths(ec);
        if (ec)
            return BadPem("ca_pem", "loading the system's trusted CAs", ec);
    }
    if (tls.client_cert_pem.empty() != tls.client_key_pem.empty()) {
        return BadRequestError(tls.client_cert_pem.empty() ? "TLS client_key_pem is set without client_cert_pem"
                                                           : "TLS client_cert_pem is set without client_key_pem");
    }
    if (!tls.client_cert_pem.empty()) {
        ctx->use_certificate_chain(boost::asio::buffer(tls.client_cert_pem), ec);
        if (ec)
            return BadPem("client_cert_pem (client certificate data)", "not a PEM certificate chain", ec);
        CTRL_RETURN_IF_ERROR(UsePrivateKey(native, tls.client_key_pem));
    }
    ctx->set_verify_mode(tls.insecure_skip_verify ? ssl::verify_none : ssl::verify_peer, ec);
    if (ec)
        return InternalError("setting the TLS verify mode: " + Reason(ec));
    FillCertificateCaches(native);
    return ctx;
}

Status PrepareTlsSession(SSL* ssl, const ServerUrl& url, const TlsOptions& tls) {
    const std::string& name = tls.server_name.empty() ? url.host : tls.server_name;
    boost::system::error_code ec;
    boost::asio::ip::make_address(name, ec);
    const bool is_ip = !ec;
    // RFC 6066: an IP literal is never sent as a server name.
    if (!is_ip && SSL_set_tlsext_host_name(ssl, name.c_str()) != 1) {
        ERR_clear_error();
        return InternalError("OpenSSL refused the TLS server name \"" + name + "\"");
    }
    if (tls.insecure_skip_verify)
        return OkStatus();
    // OpenSSL checks the name itself during the handshake, so a mismatch fails it with
    // X509_V_ERR_HOSTNAME_MISMATCH / X509_V_ERR_IP_ADDRESS_MISMATCH and a readable reason.
    X509_VERIFY_PARAM* param = SSL_get0_param(ssl);
    int ok = 0;
    if (is_ip) {
        ok = X509_VERIFY_PARAM_set1_ip_asc(param, name.c_str());
    } else {
        X509_VERIFY_PARAM_set_hostflags(param, X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS);
        ok = X509_VERIFY_PARAM_set1_host(param, name.c_str(), name.size());
    }
    if (ok != 1) {
        ERR_clear_error();
        return InternalError("OpenSSL refused \"" + name + "\" as the name to verify");
    }
    return OkStatus();
}

std::string DescribeTlsError(const boost::system::error_code& ec, const SSL* ssl) {
    std::string out = Reason(ec);
    if (ssl != nullptr) {
        const long verify = SSL_get_verify_result(ssl);
        if (verify != X509_V_OK)
            out += std::string(" (") + X509_verify_cert_error_string(verify) + ")";
    }
    ERR_clear_error();
    return out;
}

}  // namespace ctrl::rest::internal
