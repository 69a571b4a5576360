#pragma once

#include <memory>

#include "ctrl/server/tls_identity.hpp"

namespace ctrl::server {

// Where a TLS server takes the certificate it presents, at each handshake: a watcher of PEM
// files (certwatcher::CertWatcher), a rotating self-managed authority, or a fixed pair. Current
// is called on the connection's strand of whichever io thread handshakes: it must be
// thread-safe and quick (hand out a pointer, never read files).
class CertificateSource {
  public:
    virtual ~CertificateSource() = default;
    // The pair to present now; never null once the source was made.
    virtual std::shared_ptr<const TlsIdentity> Current() const = 0;
};

// A source that always presents the same pair.
class FixedCertificate final : public CertificateSource {
  public:
    explicit FixedCertificate(std::shared_ptr<const TlsIdentity> identity) : identity_(std::move(identity)) {}
    std::shared_ptr<const TlsIdentity> Current() const override { return identity_; }

  private:
    const std::shared_ptr<const TlsIdentity> identity_;
};

}  // namespace ctrl::server
