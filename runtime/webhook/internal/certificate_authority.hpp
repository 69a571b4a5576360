#pragma once

#include <chrono>
#include <string>
#include <string_view>
#include <vector>

#include "ctrl/core/status_or.hpp"

namespace ctrl::webhook::internal {

// A PEM certificate and its PEM private key.
struct PemPair {
    std::string cert;
    std::string key;
};

// What a certificate says that the rotator decides by (parsed from PEM).
struct CertificateFacts {
    std::chrono::system_clock::time_point not_before;
    std::chrono::system_clock::time_point not_after;
    std::string serial_hex;
    std::vector<std::string> dns_names;  // subjectAltName DNS entries
    std::vector<std::string> ips;        // subjectAltName IP entries, as text
    bool is_ca = false;
};

// A new self-signed CA (ECDSA P-256, CN common_name, keyCertSign), valid from a little before now
// (clock skew: an hour, or a tenth of a shorter validity) to now + validity. Internal when OpenSSL
// fails.
StatusOr<PemPair> NewCertificateAuthority(std::string_view common_name, std::chrono::seconds validity,
                                          std::chrono::system_clock::time_point now);

// A serving certificate (ECDSA P-256, serverAuth) signed by ca, for dns_names and ips, valid from a
// little before now (as above) to now + validity (never past the CA's own end). BadRequest when ca
// does not parse.
StatusOr<PemPair> IssueServingCertificate(const PemPair& ca, const std::vector<std::string>& dns_names,
                                          const std::vector<std::string>& ips, std::chrono::seconds validity,
                                          std::chrono::system_clock::time_point now);

// The facts of the first certificate in pem. BadRequest when there is none.
StatusOr<CertificateFacts> ReadCertificate(std::string_view pem);
// Every certificate of a PEM bundle, in order.
std::vector<std::string> SplitPemCertificates(std::string_view pem);
// Whether leaf_pem was signed by ca_cert_pem's key.
bool SignedBy(std::string_view leaf_pem, std::string_view ca_cert_pem);

}  // namespace ctrl::webhook::internal
