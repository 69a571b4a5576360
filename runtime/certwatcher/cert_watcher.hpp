#pragma once

#include <memory>
#include <mutex>
#include <string>

#include "ctrl/core/context.hpp"
#include "ctrl/core/status_or.hpp"
#include "ctrl/core/task.hpp"
#include "ctrl/log/log.hpp"
#include "ctrl/metrics/registry.hpp"
#include "ctrl/server/certificate_source.hpp"
#include "ctrl/server/tls_identity.hpp"

namespace ctrl::certwatcher {

// A certificate and key kept in two PEM files, reloaded when the files change
// (controller-runtime's certwatcher): what a webhook or metrics server presents when cert-manager,
// a mounted Secret or an operator's own rotation writes the files. A TLS server that takes it as
// its CertificateSource serves the new pair from the next handshake on; connections already open
// keep theirs. Run watches the files' directories with inotify (a Secret volume swaps a symlink,
// which a watch on the file itself would miss), so a change is seen at once, never by polling. A
// pair that does not load (a half-written file, a key of another certificate) is logged and
// counted, and the last good pair stays. Thread-safe.
class CertWatcher final : public server::CertificateSource {
  public:
    // Loads both files now: BadRequest naming them when they do not hold a matching pair.
    // Metrics (certwatcher_read_certificate_total, certwatcher_read_certificate_errors_total) go
    // to registry (null: none).
    static StatusOr<std::shared_ptr<CertWatcher>> New(std::string cert_file, std::string key_file,
                                                      metrics::Registry* registry = nullptr);

    std::shared_ptr<const server::TlsIdentity> Current() const override;
    // Reads both files now: the pair they hold becomes current (OK), or the current pair stays
    // (the error, naming the files).
    Status ReadCertificate();
    // Watches until ctx ends, reading the files after every change in their directories. OK at
    // the end; Unavailable when the directories cannot be watched. Call once.
    Task<Status> Run(Context ctx);
    bool NeedLeaderElection() const { return false; }
    std::string Name() const { return "certificate watcher"; }

    const std::string& CertFile() const { return cert_file_; }
    const std::string& KeyFile() const { return key_file_; }

  private:
    struct Metrics;
    CertWatcher(std::string cert_file, std::string key_file, metrics::Registry* registry);

    const std::string cert_file_;
    const std::string key_file_;
    const log::Logger logger_;
    std::shared_ptr<Metrics> metrics_;
    mutable std::mutex mu_;
    std::shared_ptr<const server::TlsIdentity> current_;  // guarded by mu_
};

}  // namespace ctrl::certwatcher
