#pragma once

#include <string>

#include "ctrl/core/status_or.hpp"
#include "ctrl/log/log_flags.hpp"
#include "ctrl/manager/manager_options.hpp"

namespace ctrl::manager {

// The command-line flags of an operator's main, with controller-runtime's (kubebuilder's
// scaffolded main.go) names and defaults:
//   --kubeconfig PATH                   the kubeconfig (default: $KUBECONFIG, ~/.kube/config, in-cluster)
//   --metrics-bind-address ADDR         default ":8080"; "0" disables
//   --health-probe-bind-address ADDR    default ":8081"; "0" disables
//   --leader-elect[=BOOL]               default false
//   --leader-election-id ID             the Lease's name
//   --leader-election-namespace NS      default: the pod's namespace
//   --metrics-secure[=BOOL]             HTTPS + TokenReview/SubjectAccessReview on /metrics; default false
//   --enable-warmup[=BOOL]              warm standby: controllers start their sources before election
//                                       (Options::controller.enable_warmup); default false
//   --help, -h
// and the logging flags of log::ParseLogFlags (-v, --zap-log-level, --log-format).
struct Flags {
    std::string kubeconfig{};
    std::string metrics_bind_address = ":8080";
    std::string health_probe_bind_address = ":8081";
    bool leader_elect = false;
    std::string leader_election_id{};
    std::string leader_election_namespace{};
    bool metrics_secure = false;
    bool enable_warmup = false;
    log::Options log{};
    bool help = false;
};

// Takes the flags above out of argv[1..argc), starting from defaults (a program sets its own
// leader election id there), and leaves every other argument in order (argc is updated), for the
// program's own flags. Values come as `--flag=value` or `--flag value` (one dash works too);
// booleans also bare. BadRequest naming the flag for a bad or missing value.
StatusOr<Flags> ParseFlags(int& argc, char** argv, Flags defaults = {});

// The help text of the flags, each with its default, for --help.
std::string FlagsUsage(const Flags& defaults = {});

// Sets options from flags (bind addresses, leader election, secure metrics) and configures
// logging (log::Configure).
void ApplyFlags(const Flags& flags, Options& options);

}  // namespace ctrl::manager
