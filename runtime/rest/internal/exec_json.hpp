#pragma once

#include <string>
#include <string_view>

#include "ctrl/core/status_or.hpp"
#include "ctrl/rest/config.hpp"
#include "ctrl/rest/exec_credential.hpp"

namespace ctrl::rest::internal {

// The KUBERNETES_EXEC_INFO value for a run: an ExecCredential of config.exec's apiVersion with
// spec.interactive and, when provide_cluster_info, spec.cluster (server, tls-server-name,
// insecure-skip-tls-verify, certificate-authority-data, config).
std::string BuildExecInfo(const Config& config, bool interactive);

// Parses a plugin's stdout: an ExecCredential of api_version with a status holding a token and/or
// a certificate pair and an optional RFC 3339 expirationTimestamp (ctrl/core/rfc3339.hpp).
// BadRequest saying what is wrong (the caller turns it into the run's error).
StatusOr<ExecCredential> ParseExecCredential(std::string_view output, std::string_view api_version);

}  // namespace ctrl::rest::internal
