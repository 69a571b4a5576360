#include "ctrl/leaderelection/leader_elector.hpp"

#include <algorithm>
#include <utility>

#include <boost/uuid/random_generator.hpp>
#include <boost/uuid/uuid_io.hpp>

#include "ctrl/core/internal/hostname.hpp"
#include "ctrl/core/sleep.hpp"

namespace ctrl::leaderelection {

namespace {

using std::chrono::duration_cast;
using std::chrono::milliseconds;
using std::chrono::seconds;

// client-go's JitterFactor: an acquire attempt waits retry_period * (1 + up to 1.2).
constexpr double kJitterFactor = 1.2;
// The shortest wait between acquire attempts when the observed lease is about to expire.
constexpr milliseconds kMinAcquireDelay{10};

}  // namespace

std::string DefaultIdentity() {
    boost::uuids::random_generator generate;
    const std::string host = ::ctrl::internal::Hostname();
    return (host.empty() ? std::string("localhost") : host) + "_" + boost::uuids::to_string(generate());
}

StatusOr<std::unique_ptr<LeaderElector>> LeaderElector::New(client::Client& client, LeaderElectionOptions options) {
    if (options.name.empty())
        return BadRequestError("leader election: the lease name (election id) is required");
    if (options.namespace_name.empty())
        return BadRequestError("leader election: the lease namespace is required");
    if (options.retry_period <= milliseconds(0))
        return BadRequestError("leader election: retryPeriod must be greater than zero");
    if (options.lease_duration < seconds(1))
        return BadRequestError("leader election: leaseDuration must be at least 1s (it is written in whole seconds)");
    if (options.lease_duration <= options.renew_deadline)
        return BadRequestError("leader election: leaseDuration must be greater than renewDeadline");
    if (options.renew_deadline.count() <= kJitterFactor * static_cast<double>(options.retry_period.count()))
        return BadRequestError("leader election: renewDeadline must be greater than retryPeriod*JitterFactor (1.2)");
    if (options.identity.empty())
        options.identity = DefaultIdentity();
    if (!options.now)
        options.now = [] { return std::chrono::steady_clock::now(); };
    if (!options.wall_now)
        options.wall_now = [] { return std::chrono::system_clock::now(); };
    return std::unique_ptr<LeaderElector>(new LeaderElector(client, std::move(options)));
}

LeaderElector::LeaderElector(client::Client& client, LeaderElectionOptions options)
    : options_(std::move(options)),
      lock_(client, ObjectKey(options_.namespace_name, options_.name)),
      metrics_(
          NewLeaderElectionMetrics(options_.registry ? *options_.registry : metrics::DefaultRegistry(), options_.name)),
      log_(log::Logger()
               .WithName("leaderelection")
               .WithValues("lease", lock_.Describe(), "identity", options_.identity)),
      random_(std::random_device{}()) {}

bool LeaderElector::IsLeader() const {
    std::lock_guard lock(mu_);
    return IsLeaderLocked();
}

std::string LeaderElector::GetLeader() const {
    std::lock_guard lock(mu_);
    return observed_record_.holder_identity;
}

bool LeaderElector::IsLeaderLocked() const {
    return observed_record_.holder_identity == options_.identity;
}

std::chrono::steady_clock::time_point LeaderElector::LeaseExpiryLocked() const {
    return observed_time_ + seconds(observed_record_.lease_duration_seconds);
}

bool LeaderElector::IsLeaseValidLocked(std::chrono::steady_clock::time_point now) const {
    return LeaseExpiryLocked() > now;
}

void LeaderElector::SetObservedRecord(const LeaderElectionRecord& record) {
    std::lock_guard lock(mu_);
    observed_record_ = record;
    observed_time_ = options_.now();
}

void LeaderElector::MaybeReportTransition() {
    std::string holder;
    {
        std::lock_guard lock(mu_);
        if (observed_record_.holder_identity == reported_leader_)
            return;
        reported_leader_ = observed_record_.holder_identity;
        holder = reported_leader_;
    }
    log_.Info("new leader observed", "leader", holder);
    if (options_.callbacks.on_new_leader)
        options_.callbacks.on_new_leader(holder);
}

milliseconds LeaderElector::JitteredRetryPeriod() {
    std::uniform_real_distribution<double> fraction(0.0, 1.0);
    const double extra = fraction(random_) * kJitterFactor * static_cast<double>(options_.retry_period.count());
    return options_.retry_period + milliseconds(static_cast<int64_t>(extra));
}

milliseconds LeaderElector::AcquireRetryDelay() {
    const milliseconds jittered = JitteredRetryPeriod();
    std::lock_guard lock(mu_);
    if (observed_record_.holder_identity.empty() || IsLeaderLocked())
        return jittered;
    // Another holder's lease, as observed: try again as it expires rather than a retry later
    // (client-go waits for the next jittered tick), never sooner than kMinAcquireDelay.
    const auto expires = LeaseExpiryLocked();
    const auto now = options_.now();
    if (expires <= now)
        return jittered;
    const milliseconds until = duration_cast<milliseconds>(expires - now) + milliseconds(1);
    return std::min(jittered, std::max(until, kMinAcquireDelay));
}

Task<bool> LeaderElector::TryAcquireOrRenew(Context ctx) {
    const auto now = options_.now();
    LeaderElectionRecord record;
    record.holder_identity = options_.identity;
    record.lease_duration_seconds = duration_cast<seconds>(options_.lease_duration).count();
    record.acquire_time = std::chrono::time_point_cast<std::chrono::microseconds>(options_.wall_now());
    record.renew_time = record.acquire_time;

    // 1. The fast path: a leader whose lease is still valid writes over the Lease it last wrote.
    std::optional<LeaderElectionRecord> held;
    {
        std::lock_guard lock(mu_);
        if (IsLeaderLocked() && IsLeaseValidLocked(now))
            held = observed_record_;
    }
    if (held) {
        record.acquire_time = held->acquire_time;
        record.leader_transitions = held->leader_transitions;
        const Status updated = co_await lock_.Update(ctx, record);
        if (updated.Ok()) {
            SetObservedRecord(record);
            co_return true;
        }
        log_.Error(updated, "failed to update the lease optimistically, falling back to the slow path");
        metrics_.slowpath.Inc();
    }

    // 2. Read the Lease, or create it.
    StatusOr<LeaderElectionRecord> current = co_await lock_.Get(ctx);
    if (!current.Ok()) {
        if (!IsNotFound(current.GetStatus())) {
            log_.Error(current.GetStatus(), "error retrieving the lease");
            co_return false;
        }
        const Status created = co_await lock_.Create(ctx, record);
        if (!created.Ok()) {
            log_.Error(created, "error initially creating the lease");
            co_return false;
        }
        SetObservedRecord(record);
        co_return true;
    }

    // 3. A holder whose lease has not expired on our clock keeps it.
    bool held_by_other = false;
    {
        std::lock_guard lock(mu_);
        if (!observed_raw_ || *observed_raw_ != *current) {
            observed_record_ = *current;
            observed_time_ = options_.now();
            observed_raw_ = *current;
        }
        held_by_other = !current->holder_identity.empty() && IsLeaseValidLocked(now) && !IsLeaderLocked();
        // 4. Keep the acquire time while leading; count a change of holder.
        if (IsLeaderLocked()) {
            record.acquire_time = current->acquire_time;
            record.leader_transitions = current->leader_transitions;
        } else {
            record.leader_transitions = current->leader_transitions + 1;
        }
    }
    if (held_by_other) {
        log_.V(4).Info("the lease is held by another holder and has not yet expired", "holder",
                       current->holder_identity);
        co_return false;
    }
    const Status updated = co_await lock_.Update(ctx, record);
    if (!updated.Ok()) {
        log_.Error(updated, "failed to update the lease");
        co_return false;
    }
    SetObservedRecord(record);
    co_return true;
}

Task<bool> LeaderElector::Release(Context ctx) {
    LeaderElectionRecord record;
    {
        std::lock_guard lock(mu_);
        if (!IsLeaderLocked())
            co_return true;
        record.leader_transitions = observed_record_.leader_transitions;
    }
    record.lease_duration_seconds = 1;
    record.acquire_time = std::chrono::time_point_cast<std::chrono::microseconds>(options_.wall_now());
    record.renew_time = record.acquire_time;
    Status updated = co_await lock_.Update(ctx, record);
    if (IsConflict(updated)) {
        // The Lease changed since we last saw it: often our own renewal, cut short by the cancel
        // after the server had applied it. Still ours: release the version that is there.
        StatusOr<LeaderElectionRecord> current = co_await lock_.Get(ctx);
        if (!current.Ok()) {
            updated = current.GetStatus();
        } else if (current->holder_identity != options_.identity) {
            SetObservedRecord(*current);
            log_.Info("not releasing the lease: another holder has it", "holder", current->holder_identity);
            co_return true;
        } else {
            record.leader_transitions = current->leader_transitions;
            updated = co_await lock_.Update(ctx, record);
        }
    }
    if (!updated.Ok()) {
        log_.Error(updated, "failed to release the lease");
        co_return false;
    }
    SetObservedRecord(record);
    log_.Info("released the lease");
    co_return true;
}

Task<bool> LeaderElector::Acquire(Context ctx) {
    log_.Info("attempting to acquire the leader lease");
    while (ctx.Err().Ok()) {
        Context attempt = Context::WithTimeout(ctx, options_.renew_deadline);
        const bool acquired = co_await TryAcquireOrRenew(attempt);
        attempt.Cancel();
        MaybeReportTransition();
        if (acquired) {
            log_.Info("successfully acquired the lease");
            co_return true;
        }
        log_.V(4).Info("failed to acquire the lease");
        const Status slept = co_await SleepFor(ctx, AcquireRetryDelay());
        if (!slept.Ok())
            break;
    }
    co_return false;
}

Task<bool> LeaderElector::RenewWithinDeadline(Context ctx) {
    Context within = Context::WithTimeout(ctx, options_.renew_deadline);
    bool renewed = false;
    while (!renewed) {
        renewed = co_await TryAcquireOrRenew(within);
        if (renewed)
            break;
        const Status slept = co_await SleepFor(within, options_.retry_period);
        if (!slept.Ok())
            break;
    }
    within.Cancel();
    MaybeReportTransition();
    co_return renewed;
}

Task<Status> LeaderElector::RenewUntilLost(Context ctx) {
    while (true) {
        const bool renewed = co_await RenewWithinDeadline(ctx);
        if (!ctx.Err().Ok())
            co_return OkStatus();
        if (!renewed)
            co_return UnavailableError("leader election lost: the lease " + lock_.Describe() +
                                       " could not be renewed within the renew deadline");
        log_.V(5).Info("successfully renewed the lease");
        const Status slept = co_await SleepFor(ctx, options_.retry_period);
        if (!slept.Ok())
            co_return OkStatus();
    }
}

Task<Status> LeaderElector::Run(Context ctx) {
    const bool acquired = co_await Acquire(ctx);
    if (!acquired)
        co_return OkStatus();
    metrics_.master_status.Set(1);
    Context leading = Context::WithCancel(ctx);
    if (options_.callbacks.on_started_leading)
        options_.callbacks.on_started_leading(leading);
    // After the callback, so whoever waits for Elected sees what it set up (controller-runtime
    // closes its elected channel at the end of OnStartedLeading too).
    elected_.Notify();
    Status result = co_await RenewUntilLost(leading);
    leading.Cancel();
    metrics_.master_status.Set(0);
    if (result.Ok())
        log_.Info("stopped leading: the context ended");
    else
        log_.Error(result, "stopped leading");
    if (options_.release_on_cancel) {
        Context release = Context::WithTimeout(Context::Background(), options_.renew_deadline);
        const bool released = co_await Release(release);
        (void)released;
    }
    if (options_.callbacks.on_stopped_leading)
        options_.callbacks.on_stopped_leading();
    co_return result;
}

}  // namespace ctrl::leaderelection
