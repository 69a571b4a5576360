#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "ctrl/core/status_or.hpp"

namespace ctrl::webhook::internal {

// What a self-managed certificate Secret holds (PEM text; empty when absent).
struct CertSecretData {
    std::string ca_bundle;  // ca.crt: the current CA first, then older CAs still valid
    std::string ca_key;     // ca.key: the current CA's key
    std::string tls_crt;
    std::string tls_key;
    // When the current CA joined the bundle (an annotation of the Secret); epoch when unknown.
    std::chrono::system_clock::time_point ca_since{};
};

// What the rotator wants of the certificates.
struct CertWants {
    std::vector<std::string> dns_names;
    std::vector<std::string> ips;
    std::string ca_name;
    std::chrono::seconds ca_validity;
    std::chrono::seconds cert_validity;
    std::chrono::milliseconds propagation_delay;
};

// The next state of the Secret and when to look again.
struct CertPlan {
    CertSecretData next;
    bool changed = false;                           // next differs from the current data
    std::chrono::system_clock::time_point wake_at;  // the next renewal, expiry or propagation end
    std::string why;                                // "new CA", "serving certificate renewed", ...
};

// Decides, at now: a CA is made when there is no usable one, and renewed (a new CA first in the
// bundle, the old one kept) once less than a third of its validity is left; CAs leave the bundle
// when they expire; the serving certificate is (re)issued by the current CA when it is missing,
// does not match its key, lacks a wanted name, is not the current CA's, or has less than a third of
// its validity left, but a certificate of a CA younger than propagation_delay waits while the one
// served is still valid. Internal when OpenSSL fails.
StatusOr<CertPlan> PlanCertificates(const CertSecretData& current, const CertWants& wants,
                                    std::chrono::system_clock::time_point now);

}  // namespace ctrl::webhook::internal
