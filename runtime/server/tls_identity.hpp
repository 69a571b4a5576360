#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <string_view>

#include "ctrl/core/status_or.hpp"

namespace ctrl::server {

// A certificate chain and its private key, parsed once, as a TLS server presents them (leaf
// first, then intermediates). Knows the leaf's serial number and validity. Immutable and
// thread-safe; OpenSSL stays inside (Native).
class TlsIdentity final {
  public:
    // From PEM text: one or more CERTIFICATE blocks (leaf first) and a PRIVATE KEY (PKCS#8, RSA or
    // EC). BadRequest naming `source` ("tls.crt and tls.key in /certs") when either does not
    // parse, the chain is empty, or the key is not the leaf's.
    static StatusOr<std::shared_ptr<const TlsIdentity>> FromPem(std::string_view cert_pem, std::string_view key_pem,
                                                                std::string_view source = "PEM");
    ~TlsIdentity();
    TlsIdentity(const TlsIdentity&) = delete;
    TlsIdentity& operator=(const TlsIdentity&) = delete;

    // The leaf's serial number in upper-case hex ("3F0A...").
    const std::string& SerialHex() const { return serial_hex_; }
    // The leaf's notBefore and notAfter.
    std::chrono::system_clock::time_point NotBefore() const { return not_before_; }
    std::chrono::system_clock::time_point NotAfter() const { return not_after_; }
    // The PEM text it was made from.
    const std::string& CertificatePem() const { return cert_pem_; }
    const std::string& KeyPem() const { return key_pem_; }

    // For the server's TLS layer: the parsed chain and key.
    struct Native;
    const Native& GetNative() const { return *native_; }

  private:
    TlsIdentity();
    std::unique_ptr<Native> native_;
    std::string serial_hex_;
    std::chrono::system_clock::time_point not_before_;
    std::chrono::system_clock::time_point not_after_;
    std::string cert_pem_;
    std::string key_pem_;
};

}  // namespace ctrl::server
