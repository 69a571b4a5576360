#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <boost/asio/ssl/context.hpp>

#include "ctrl/core/status_or.hpp"
#include "ctrl/rest/transport.hpp"

namespace ctrl::rest::internal::cpprest {

// TLS for the cpprestsdk transport. cpprestsdk builds a fresh boost::asio::ssl::context for every
// connection and hands it to a callback (http_client_config::set_ssl_context_callback); Configure
// is that callback. It makes the connection trust only tls.ca_pem (when given; else the system's
// store), present the client certificate, send SNI and verify the certificate chain and the
// server's name (tls.server_name, else the URL's host) with OpenSSL's own checks instead of
// cpprestsdk's, whose name check only knows the URL's host. Why the last verification failed is
// kept, for the error message: cpprestsdk itself only reports "Error in SSL handshake".
//
// The PEM data is parsed once, by Create; Configure only attaches it and never fails or throws.
// An instance must outlive every connection configured with it (the http_client's config holds
// the callback, and the client outlives its connections).
class CppRestTls final {
  public:
    // BadRequest naming the field when the PEM data does not parse or the key does not match.
    // `url_host` is the server URL's host (an IP literal or a DNS name, without brackets).
    static StatusOr<std::shared_ptr<CppRestTls>> Create(const TlsOptions& tls, const std::string& url_host);
    ~CppRestTls();
    CppRestTls(const CppRestTls&) = delete;
    CppRestTls& operator=(const CppRestTls&) = delete;

    // For http_client_config::set_ssl_context_callback.
    void Configure(boost::asio::ssl::context& context) const;

    // How many verifications have failed so far; LastFailure describes the latest.
    uint64_t Failures() const;
    // "unable to get local issuer certificate (server certificate \"CN=x\" issued by \"CN=y\"): ..."
    std::string LastFailure() const;

    // Records a failed verification (called from OpenSSL's callbacks).
    void RecordFailure(std::string what) const;

    const std::string& VerifyName() const { return verify_name_; }
    bool VerifyNameIsIp() const { return verify_name_is_ip_; }
    const std::string& SniName() const { return sni_name_; }

  private:
    struct Material;
    CppRestTls() = default;

    std::unique_ptr<Material> material_;
    bool verify_ = true;
    std::string verify_name_;  // the name the server's certificate must carry
    bool verify_name_is_ip_ = false;
    std::string sni_name_;  // empty: no SNI (an IP literal)

    mutable std::mutex mu_;
    mutable uint64_t failures_ = 0;
    mutable std::string last_failure_;
};

}  // namespace ctrl::rest::internal::cpprest
