#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <string>

#include "ctrl/client/client.hpp"
#include "ctrl/core/context.hpp"
#include "ctrl/core/notification.hpp"
#include "ctrl/core/status.hpp"
#include "ctrl/core/status_or.hpp"
#include "ctrl/core/task.hpp"
#include "ctrl/leaderelection/leader_election_metrics.hpp"
#include "ctrl/leaderelection/lease_lock.hpp"
#include "ctrl/log/log.hpp"
#include "ctrl/metrics/registry.hpp"

namespace ctrl::leaderelection {

// What the elector tells its owner (client-go's LeaderCallbacks). Each runs on the elector's
// executor and must not block; start a coroutine for longer work.
struct LeaderCallbacks {
    // This process became leader; ctx is cancelled when it stops leading.
    std::function<void(Context ctx)> on_started_leading;
    // This process stopped leading (lost the Lease, or Run's ctx ended). Called only after
    // on_started_leading, unlike client-go, which also calls it when Run ends without ever leading.
    std::function<void()> on_stopped_leading;
    // Another holder was observed (also this process's own identity once it leads; "" after a release).
    std::function<void(const std::string& identity)> on_new_leader;
};

// The options of LeaderElector (client-go's LeaderElectionConfig with a LeaseLock), with
// controller-runtime's defaults. Requires lease_duration > renew_deadline > 1.2 * retry_period > 0.
struct LeaderElectionOptions {
    // The Lease's name: the election id. Required.
    std::string name;
    // The Lease's namespace. Required.
    std::string namespace_name;
    // Who this process is in holderIdentity. Default: DefaultIdentity() (hostname + "_" + a random UUID).
    std::string identity;
    // How long a holder's claim lasts after its last renewal, as the others measure it on their own
    // clocks from when they saw the renewal; written as whole seconds. Default 15 s.
    std::chrono::milliseconds lease_duration{15000};
    // How long the leader keeps retrying a failed renewal before it gives up leading. Default 10 s.
    std::chrono::milliseconds renew_deadline{10000};
    // The pause between attempts to acquire (with jitter) and to renew. Default 2 s.
    std::chrono::milliseconds retry_period{2000};
    // When Run's ctx ends while leading, clear holderIdentity (leaseDurationSeconds 1) so another
    // candidate takes over at once instead of after the lease expires. Default false.
    bool release_on_cancel = false;
    LeaderCallbacks callbacks{};
    // Where leader_election_master_status and leader_election_slowpath_total go. Default:
    // metrics::DefaultRegistry(). Two electors of one name in one process need two registries.
    metrics::Registry* registry = nullptr;
    // The local clock that times lease expiry (tests inject their own). Default: steady_clock::now.
    std::function<std::chrono::steady_clock::time_point()> now{};
    // The wall clock written into acquireTime and renewTime. Default: system_clock::now.
    std::function<std::chrono::system_clock::time_point()> wall_now{};
};

// hostname + "_" + a random UUID: unique per process even for two processes on one host.
std::string DefaultIdentity();

// Campaigns for and holds a Lease with client-go's leader election semantics: tries to acquire
// every retry_period (+ up to 120% jitter), respecting a holder whose lease has not expired on
// the local clock; once leader renews every retry_period and gives up when renewing has failed
// for renew_deadline. leaseTransitions counts changes of holder; every write is conditional on the
// resourceVersion read. Thread-safe accessors; Run is called once.
class LeaderElector final {
  public:
    // BadRequest for missing or inconsistent options. client must outlive the elector.
    static StatusOr<std::unique_ptr<LeaderElector>> New(client::Client& client, LeaderElectionOptions options);
    LeaderElector(const LeaderElector&) = delete;
    LeaderElector& operator=(const LeaderElector&) = delete;

    // Campaigns until elected, then leads until the Lease is lost or ctx ends. Returns OK when ctx
    // ended (after releasing the Lease if release_on_cancel), Unavailable "leader election lost"
    // when renewing failed: controller-runtime's manager exits then.
    Task<Status> Run(Context ctx);

    // Whether this process holds the Lease now, as last observed.
    bool IsLeader() const;
    // The holder last observed ("" when none is known).
    std::string GetLeader() const;
    const std::string& Identity() const { return options_.identity; }
    // Notified once this process first becomes leader, after on_started_leading returned: what
    // leader-only runnables wait for.
    const Notification& Elected() const { return elected_; }

    // One attempt to acquire or renew (client-go's tryAcquireOrRenew): whether this process holds
    // the Lease afterwards. Run calls it; tests call it to step the decision logic.
    Task<bool> TryAcquireOrRenew(Context ctx);
    // Gives the Lease up if this process holds it (client-go's release): whether it is released.
    // On a Conflict it reads the Lease again and releases that version if it still names this
    // process (a renewal cut short by a cancel may have landed); another holder's is left alone.
    Task<bool> Release(Context ctx);

  private:
    LeaderElector(client::Client& client, LeaderElectionOptions options);

    Task<bool> Acquire(Context ctx);
    // Renews until ctx ends (OK) or renewing fails for renew_deadline (an error).
    Task<Status> RenewUntilLost(Context ctx);
    Task<bool> RenewWithinDeadline(Context ctx);
    std::chrono::milliseconds JitteredRetryPeriod();
    // The wait after a failed acquire attempt: the jittered retry period, or until the lease
    // another holder was observed with expires, whichever comes first.
    std::chrono::milliseconds AcquireRetryDelay();
    // Calls on_new_leader when the observed holder changed since it was last reported.
    void MaybeReportTransition();
    void SetObservedRecord(const LeaderElectionRecord& record);
    // When the observed lease ends on this process's clock: observed_time_ + its duration.
    std::chrono::steady_clock::time_point LeaseExpiryLocked() const;
    bool IsLeaseValidLocked(std::chrono::steady_clock::time_point now) const;
    bool IsLeaderLocked() const;

    LeaderElectionOptions options_;
    LeaseLock lock_;
    LeaderElectionMetrics metrics_;
    log::Logger log_;
    Notification elected_;
    std::mt19937_64 random_;

    mutable std::mutex mu_;
    LeaderElectionRecord observed_record_;                 // guarded by mu_
    std::chrono::steady_clock::time_point observed_time_;  // guarded by mu_: when it last changed
    std::optional<LeaderElectionRecord> observed_raw_;     // the record of the last Get
    std::string reported_leader_;
};

}  // namespace ctrl::leaderelection
