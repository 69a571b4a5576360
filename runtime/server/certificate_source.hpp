#pragma once

#include <memory>

#include "ctrl/core/context.hpp"
#include "ctrl/core/status.hpp"
#include "ctrl/core/task.hpp"
#include "ctrl/server/tls_identity.hpp"

namespace ctrl::server {

// Where a TLS server takes the certificate it presents, at each handshake: a watcher of PEM
// files (certwatcher::CertWatcher), a rotating self-managed authority, or a fixed pair. Current
// is called on the connection's strand of whichever io thread handshakes: it must be
// thread-safe and quick (hand out a pointer, never read files).
class CertificateSource {
  public:
    virtual ~CertificateSource() = default;
    // The pair to present now; null only before WaitForCertificate has ended.
    virtual std::shared_ptr<const TlsIdentity> Current() const = 0;
    // Ends once Current is not null (at once for a source made with its pair); ctx's error first.
    // A server waits for it before it listens.
    virtual Task<Status> WaitForCertificate(Context ctx) const;
};

inline Task<Status> CertificateSource::WaitForCertificate(Context /*ctx*/) const {
    co_return OkStatus();
}

// A source that always presents the same pair.
class FixedCertificate final : public CertificateSource {
  public:
    explicit FixedCertificate(std::shared_ptr<const TlsIdentity> identity) : identity_(std::move(identity)) {}
    std::shared_ptr<const TlsIdentity> Current() const override { return identity_; }

  private:
    const std::shared_ptr<const TlsIdentity> identity_;
};

}  // namespace ctrl::server
