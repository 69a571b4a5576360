#pragma once

#include <memory>
#include <string>

#include <boost/asio/ssl/context.hpp>

#include "ctrl/core/status_or.hpp"
#include "ctrl/server/certificate_source.hpp"

namespace ctrl::server::internal {

// A TLS server context (TLS 1.2 or later) serving the certificate chain and key of two PEM
// files, or, when both paths are empty, a self-signed certificate generated now (ECDSA P-256,
// valid one year, SANs localhost, 127.0.0.1, ::1 and this host's name), as controller-runtime
// does when no certificate is given. BadRequest naming the file when one cannot be used.
StatusOr<std::shared_ptr<boost::asio::ssl::context>> NewServerTlsContext(const std::string& cert_file,
                                                                         const std::string& key_file);

// A TLS server context (TLS 1.2 or later) whose every handshake presents the pair `source` holds
// at that moment. The context keeps source alive.
StatusOr<std::shared_ptr<boost::asio::ssl::context>> NewServerTlsContext(
    std::shared_ptr<const CertificateSource> source);

// A self-signed certificate and its key, both PEM (what NewServerTlsContext serves by default).
struct SelfSignedCertificate {
    std::string cert_pem;
    std::string key_pem;
};
StatusOr<SelfSignedCertificate> GenerateSelfSignedCertificate();

}  // namespace ctrl::server::internal
