#pragma once

#include "ctrl/core/status_or.hpp"
#include "ctrl/rest/config.hpp"
#include "ctrl/rest/internal/kubeconfig_yaml.hpp"

namespace ctrl::rest::internal {

// Turns a selected kubeconfig context, its cluster and its user into a Config, as client-go's
// DirectClientConfig does after ConfirmUsable: relative paths are resolved against the directory
// of the file that defined the entry, named files are read into PEM strings (the token file is
// only checked and read once: Config.bearer_token_file makes the authenticator re-read it), base64
// data is decoded, and conflicts are rejected. Errors are BadRequest naming the file, the entry and
// the field: `kubeconfig /x/config: user "bob": client-certificate /x/bob.crt: No such file or directory`.
StatusOr<Config> ResolveContext(const Named<KubeconfigContext>& context, const Named<KubeconfigCluster>& cluster,
                                const Named<KubeconfigUser>& user);

}  // namespace ctrl::rest::internal
