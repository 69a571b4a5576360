#pragma once

#include <map>
#include <optional>
#include <string>

#include "ctrl/core/status_or.hpp"
#include "ctrl/rest/config.hpp"

namespace ctrl::rest {

// Which kubeconfig files to read and which context to use: client-go's ClientConfigLoadingRules
// plus the --context override.
struct KubeconfigOptions {
    // An explicit file (--kubeconfig): only this file is read, and it must exist. Default "": the
    // files listed in $KUBECONFIG, or ~/.kube/config when $KUBECONFIG is empty.
    std::string explicit_path{};
    // The context to use instead of the kubeconfig's current-context. Default "": current-context.
    std::string context{};
    // The environment KUBECONFIG and HOME are read from. Default nullopt: the process's.
    std::optional<std::map<std::string, std::string>> environment{};
};

// Loads a Config from kubeconfig files by client-go's loading rules (what kubectl does):
//  - the files: the explicit path; else $KUBECONFIG, a ':'-separated list (duplicates and missing
//    files skipped); else ~/.kube/config ($HOME, or the passwd entry when HOME is unset);
//  - merging: the first file that sets a cluster, user or context name wins that whole entry (later
//    files never add fields to it), and the first file that sets current-context wins;
//  - relative paths (certificate-authority, client-certificate, client-key, tokenFile, an exec
//    command containing '/') are resolved against the directory of the file that defined the entry;
//  - the context is options.context or current-context; its namespace becomes default_namespace.
// Certificate and key files are read now into Config.tls; the token file is read once to check it
// and named in Config.bearer_token_file so the authenticator re-reads it.
// Errors: NotFound when no kubeconfig file exists (an explicit path that does not exist, or none of
// the candidates); BadRequest for malformed or incomplete kubeconfigs, naming the file and the field,
// e.g. `kubeconfig /x/config: context "dev": user "bob" not found` or
// `kubeconfig /x/config: invalid YAML: ... (line 3, column 5)`.
// Not supported (BadRequest): auth-provider (use an exec plugin), impersonation, proxy-url.
StatusOr<Config> LoadKubeconfig(const KubeconfigOptions& options = {});

}  // namespace ctrl::rest
