#pragma once

#include <memory>
#include <string>

#include <boost/asio/ssl/context.hpp>
#include <boost/system/error_code.hpp>

#include "ctrl/core/status_or.hpp"
#include "ctrl/rest/internal/beast_server_url.hpp"
#include "ctrl/rest/transport.hpp"

namespace ctrl::rest::internal {

// Builds the OpenSSL client context that a Beast transport's connections share: the trusted CAs
// (tls.ca_pem, else the system's default paths), the client certificate and key, TLS 1.2 or newer,
// and peer verification unless tls.insecure_skip_verify. Bad PEM data gives BadRequest naming the
// field. The context is immutable afterwards and safe to share between threads.
StatusOr<std::shared_ptr<boost::asio::ssl::context>> NewTlsContext(const TlsOptions& tls);

// Prepares one TLS session before its handshake: SNI (never for an IP literal) and, unless
// verification is off, the DNS name or IP address the server's certificate must carry
// (tls.server_name, else the URL's host). Internal when OpenSSL refuses the settings.
Status PrepareTlsSession(SSL* ssl, const ServerUrl& url, const TlsOptions& tls);

// Why a TLS operation failed, for messages:
// "certificate verify failed (self-signed certificate in certificate chain)".
std::string DescribeTlsError(const boost::system::error_code& ec, const SSL* ssl);

}  // namespace ctrl::rest::internal
