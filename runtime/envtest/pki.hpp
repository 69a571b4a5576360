#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "ctrl/core/status_or.hpp"

namespace ctrl::envtest {

// A PEM certificate (or public key) and its private key, as files.
struct KeyPairFiles {
    std::string cert;  // certificate, or public key for CreateKeyPair
    std::string key;   // private key
};

// A throw-away certificate authority in a directory, driven through the openssl CLI: ECDSA P-256
// keys, certificates valid for 30 days. Knows how to issue the certificates a local
// kube-apiserver needs. Each Issue* call writes <dir>/<name>.crt and <dir>/<name>.key; calls with
// distinct names may run concurrently.
class Pki final {
  public:
    // Creates the CA (<dir>/ca.crt, <dir>/ca.key); `dir` must exist.
    static StatusOr<Pki> Create(const std::string& dir);
    // The CA Create made in dir before (to issue more certificates from it). NotFound naming the
    // file missing.
    static StatusOr<Pki> Open(const std::string& dir);

    const std::string& Dir() const { return dir_; }
    const std::string& CaCert() const { return ca_.cert; }
    const std::string& CaKey() const { return ca_.key; }

    // A serving certificate for IP:127.0.0.1 and DNS:localhost (extendedKeyUsage serverAuth).
    StatusOr<KeyPairFiles> IssueServing(const std::string& name, std::string_view common_name) const;
    // A client certificate with CN=user and one O= per group (extendedKeyUsage clientAuth): how
    // kube-apiserver reads a user name and groups from a certificate.
    StatusOr<KeyPairFiles> IssueClient(const std::string& name, std::string_view user,
                                       const std::vector<std::string>& groups) const;
    // A bare key pair (e.g. for signing service-account tokens); `cert` is the public key.
    StatusOr<KeyPairFiles> CreateKeyPair(const std::string& name) const;

  private:
    StatusOr<KeyPairFiles> Issue(const std::string& name, const std::string& subject,
                                 const std::string& extensions) const;

    std::string dir_;
    std::string config_;
    KeyPairFiles ca_;
};

}  // namespace ctrl::envtest
