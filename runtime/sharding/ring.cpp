#include "ctrl/sharding/ring.hpp"

#include <algorithm>
#include <cstdio>
#include <utility>

#include "ctrl/api/lease.hpp"
#include "ctrl/core/label_selector.hpp"
#include "ctrl/core/sleep.hpp"
#include "ctrl/sharding/assignment.hpp"
#include "ctrl/sharding/bucket_list.hpp"

namespace ctrl::sharding {
namespace {

using std::chrono::milliseconds;
using Clock = std::chrono::steady_clock;

constexpr const char* kRingLabel = "ctrl.io/shard-ring";
constexpr const char* kBucketsAnnotation = "ctrl.io/shard-buckets";
constexpr const char* kBucketCountAnnotation = "ctrl.io/shard-bucket-count";
constexpr const char* kMembersAnnotation = "ctrl.io/shard-members";

// The live members as one value a Lease can carry: 16 hex digits of the hash of their sorted names.
std::string MembersDigest(const std::vector<std::string>& live) {
    std::string joined;
    for (const std::string& member : live)
        joined += member + "\n";
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(Fnv1a64(joined)));
    return hex;
}

std::string LeaseNameFor(const std::string& ring, const std::string& identity) {
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(Fnv1a64(identity)));
    return ring + "-" + hex;
}

std::vector<int> Minus(const std::vector<int>& a, const std::vector<bool>& remove) {
    std::vector<int> out;
    for (const int b : a) {
        if (!remove[static_cast<std::size_t>(b)])
            out.push_back(b);
    }
    return out;
}

// buckets ascending, each once.
std::vector<int> MergedBuckets(std::vector<int> buckets) {
    std::sort(buckets.begin(), buckets.end());
    buckets.erase(std::unique(buckets.begin(), buckets.end()), buckets.end());
    return buckets;
}

std::vector<bool> AsSet(const std::vector<int>& buckets, int count) {
    std::vector<bool> set(static_cast<std::size_t>(count), false);
    for (const int b : buckets)
        set[static_cast<std::size_t>(b)] = true;
    return set;
}

}  // namespace

StatusOr<std::unique_ptr<Ring>> Ring::New(client::Client& client, RingOptions options) {
    if (options.ring.empty() || options.namespace_name.empty() || options.identity.empty())
        return BadRequestError("shard ring: the ring's name, its namespace and this member's identity are required");
    if (options.retry_period <= milliseconds(0) || options.renew_deadline <= options.retry_period ||
        options.lease_duration <= options.renew_deadline || options.lease_duration < std::chrono::seconds(1))
        return BadRequestError("shard ring " + options.ring +
                               ": needs leaseDuration (at least 1 s) > renewDeadline > retryPeriod > 0");
    CTRL_ASSIGN_OR_RETURN(BucketSpace space, BucketSpace::Make(options.buckets), "shard ring " + options.ring);
    (void)space;
    return std::unique_ptr<Ring>(new Ring(client, std::move(options)));
}

Ring::Ring(client::Client& client, RingOptions options)
    : client_(client),
      options_(std::move(options)),
      lease_name_(LeaseNameFor(options_.ring, options_.identity)),
      space_(*BucketSpace::Make(options_.buckets)),
      log_(log::Logger().WithName("shard-ring").WithValues("ring", options_.ring, "member", options_.identity)),
      metrics_(NewRingMetrics(options_.registry != nullptr ? *options_.registry : metrics::DefaultRegistry(),
                              options_.ring)),
      unowned_since_(static_cast<std::size_t>(options_.buckets), Clock::time_point::max()) {
    if (!options_.now)
        options_.now = [] { return Clock::now(); };
}

Task<Status> Ring::Run(Context ctx) {
    log_.Info("joining the shard ring", "lease", options_.namespace_name + "/" + lease_name_, "buckets",
              options_.buckets);
    last_renewal_ = options_.now();
    // Unsettled rounds (a join, a leave, members still to agree) come four times as often, up to
    // kQuickRounds in a row, so a handoff takes rounds of a quarter of retry_period.
    constexpr int kQuickRounds = 16;
    int quick = 0;
    while (!ctx.Cancelled()) {
        settled_round_ = false;
        const Status round = co_await Round(ctx);
        if (!round.Ok() && !ctx.Cancelled())
            log_.Info("round failed; retrying", "err", round);
        if (settled_round_) {
            settled_.store(true);
            quick = 0;
        }
        const bool soon = !settled_round_ && round.Ok() && quick++ < kQuickRounds;
        const Status slept = co_await SleepFor(ctx, soon ? options_.retry_period / 4 : options_.retry_period);
        if (!slept.Ok())
            break;
    }
    // Run's ctx has ended: the Lease's deletion gets renew_deadline of its own (an unreachable API
    // server then leaves the Lease to expire, as a crash would).
    co_await Stop(Context::WithTimeout(Context::Background(), options_.renew_deadline));
    co_return OkStatus();
}

Task<Status> Ring::Round(Context& ctx) {
    const Status renewed = co_await WriteLease(ctx);
    if (!renewed.Ok() && options_.now() - last_renewal_ >= options_.renew_deadline && !claims_.empty()) {
        // The others will take these buckets lease_duration after the last renewal they saw: stop first.
        log_.Info("renewing failed for the renew deadline: dropping every bucket", "err", renewed);
        co_await Release(claims_);
        co_return renewed;
    }
    CTRL_CO_RETURN_IF_ERROR(co_await ReadPeers(ctx));
    const std::vector<std::string> live = LiveMembers();
    metrics_.members.Set(static_cast<double>(live.size()));
    {
        std::lock_guard lock(mu_);
        members_ = live;
    }
    members_digest_ = MembersDigest(live);
    // What the live members claim now, as every member reads it from the Leases: a member keeps
    // what it claims within its share, so a join or a leave moves only what must move.
    std::map<std::string, std::vector<int>> claims;
    for (const auto& [identity, peer] : peers_)
        claims[identity] = peer.claims;
    claims[options_.identity] = claims_;
    const std::map<std::string, std::vector<int>> assignment = AssignBuckets(live, options_.buckets, claims);
    const std::vector<int>& target = assignment.at(options_.identity);
    const std::vector<int> leaving = Minus(claims_, AsSet(target, options_.buckets));
    if (!leaving.empty()) {
        co_await Release(leaving);
        CTRL_CO_RETURN_IF_ERROR(co_await WriteLease(ctx));
    }
    const std::vector<bool> taken = ClaimedByLivePeers();
    if (first_round_) {
        // Announce first: members started together then see each other before anyone claims, and
        // the first of them does not take (and list) everything only to hand most of it over.
        first_round_ = false;
        co_return OkStatus();
    }
    if (!PeersAgree(live)) {
        // A member that has not seen a join or a leave yet would claim what the others are
        // releasing for the newcomer; the next rounds agree.
        log_.V(1).Info("waiting for the members to agree on the membership before claiming", "members", live.size());
        co_return OkStatus();
    }
    // Against what this member owns, not what it claims: a claim whose check failed (the read
    // after it) is checked again.
    const std::vector<bool> mine = AsSet(Owned(), options_.buckets);
    std::vector<int> wanted;
    for (const int b : target) {
        if (!mine[static_cast<std::size_t>(b)] && !taken[static_cast<std::size_t>(b)])
            wanted.push_back(b);
    }
    if (!wanted.empty())
        CTRL_CO_RETURN_IF_ERROR(co_await Acquire(ctx, wanted));
    settled_round_ = Owned() == target;
    co_return OkStatus();
}

Task<Status> Ring::WriteLease(Context& ctx) {
    api::Lease lease;
    lease.SetNamespace(options_.namespace_name);
    lease.SetName(lease_name_);
    lease.SetLabel(kRingLabel, options_.ring);
    lease.SetAnnotation(kBucketsAnnotation, FormatBucketList(claims_));
    lease.SetAnnotation(kBucketCountAnnotation, std::to_string(options_.buckets));
    lease.SetAnnotation(kMembersAnnotation, members_digest_);
    lease.SetHolderIdentity(options_.identity);
    lease.SetLeaseDurationSeconds(std::chrono::duration_cast<std::chrono::seconds>(options_.lease_duration).count());
    lease.SetRenewTime(std::chrono::system_clock::now());
    const Clock::time_point attempted = options_.now();
    Status written;
    if (resource_version_.empty()) {
        written = co_await client_.Create(ctx, lease);
        if (IsAlreadyExists(written)) {
            // Left by an earlier run of this member: take it over.
            api::Lease existing;
            const ObjectKey key{options_.namespace_name, lease_name_};
            CTRL_CO_RETURN_IF_ERROR(co_await client_.Get(ctx, key, existing));
            lease.SetResourceVersion(existing.ResourceVersion());
            written = co_await client_.Update(ctx, lease);
        }
    } else {
        lease.SetResourceVersion(resource_version_);
        written = co_await client_.Update(ctx, lease);
    }
    if (!written.Ok()) {
        if (IsConflict(written) || IsNotFound(written))
            resource_version_.clear();  // read or create it afresh next time
        co_return written.Annotate("writing the lease " + lease_name_);
    }
    resource_version_ = std::string(lease.ResourceVersion());
    last_renewal_ = attempted;
    co_return OkStatus();
}

Task<Status> Ring::ReadPeers(Context& ctx) {
    api::LeaseList leases;
    client::ListOptions options;
    options.namespace_name = options_.namespace_name;
    options.label_selector = LabelSelector::FromValidatedSet({{kRingLabel, options_.ring}});
    CTRL_CO_RETURN_IF_ERROR(co_await client_.List(ctx, leases, options), "listing the ring's leases");
    const Clock::time_point now = options_.now();
    std::map<std::string, Peer> seen;
    for (const Object& item : leases.Items()) {
        const api::LeaseView lease(item);
        const std::string identity(lease.HolderIdentity().value_or(""));
        if (identity.empty() || identity == options_.identity)
            continue;
        Peer peer;
        peer.resource_version = std::string(item.ResourceVersion());
        peer.duration = std::chrono::seconds(lease.LeaseDurationSeconds().value_or(0));
        peer.claims = ParseBucketList(item.Annotation(kBucketsAnnotation).value_or(""), options_.buckets);
        peer.buckets = std::atoi(std::string(item.Annotation(kBucketCountAnnotation).value_or("0")).c_str());
        peer.members = std::string(item.Annotation(kMembersAnnotation).value_or(""));
        const auto before = peers_.find(identity);
        const bool unchanged = before != peers_.end() && before->second.resource_version == peer.resource_version;
        peer.observed = unchanged ? before->second.observed : now;
        seen.emplace(identity, std::move(peer));
    }
    peers_ = std::move(seen);
    co_return OkStatus();
}

std::vector<std::string> Ring::LiveMembers() const {
    const Clock::time_point now = options_.now();
    std::vector<std::string> live{options_.identity};
    for (const auto& [identity, peer] : peers_) {
        if (now < peer.observed + peer.duration)
            live.push_back(identity);
    }
    std::sort(live.begin(), live.end());
    return live;
}

bool Ring::PeersAgree(const std::vector<std::string>& live) const {
    for (const std::string& identity : live) {
        const auto peer = peers_.find(identity);
        if (peer != peers_.end() && peer->second.members != members_digest_)
            return false;
    }
    return true;
}

std::vector<bool> Ring::ClaimedByLivePeers() {
    const Clock::time_point now = options_.now();
    std::vector<bool> claimed(static_cast<std::size_t>(options_.buckets), false);
    for (const auto& [identity, peer] : peers_) {
        if (now >= peer.observed + peer.duration)
            continue;  // expired: its claims are void (it stopped renew_deadline after its last renewal)
        if (peer.buckets != options_.buckets) {
            // Bucket numbers of another size name other ranges: treat the peer as claiming all.
            log_.Info("a member cuts the hash space differently: taking nothing it could hold", "peer", identity,
                      "its buckets", peer.buckets);
            return std::vector<bool>(static_cast<std::size_t>(options_.buckets), true);
        }
        for (const int b : peer.claims)
            claimed[static_cast<std::size_t>(b)] = true;
    }
    for (int b = 0; b < options_.buckets; ++b) {
        auto& since = unowned_since_[static_cast<std::size_t>(b)];
        const bool owned_here = std::find(claims_.begin(), claims_.end(), b) != claims_.end();
        if (claimed[static_cast<std::size_t>(b)] || owned_here) {
            if (since != Clock::time_point::max())
                metrics_.unowned_seconds.Observe(std::chrono::duration<double>(now - since).count());
            since = Clock::time_point::max();
        } else if (since == Clock::time_point::max()) {
            since = now;
        }
    }
    return claimed;
}

Task<void> Ring::Release(std::vector<int> buckets) {
    log_.V(1).Info("releasing buckets", "buckets", FormatBucketList(buckets));
    const std::vector<bool> leaving = AsSet(buckets, options_.buckets);
    SetOwned(Minus(Owned(), leaving));
    if (options_.callbacks.on_releasing)
        co_await options_.callbacks.on_releasing(buckets);
    claims_ = Minus(claims_, leaving);
    metrics_.released.Inc(static_cast<double>(buckets.size()));
}

Task<Status> Ring::Acquire(Context& ctx, const std::vector<int>& wanted) {
    std::vector<int> claims = claims_;
    claims.insert(claims.end(), wanted.begin(), wanted.end());
    claims_ = MergedBuckets(claims);
    CTRL_CO_RETURN_IF_ERROR(co_await WriteLease(ctx), "claiming buckets");
    // Whoever else claimed one of these meanwhile wrote before this read, or reads after this
    // write and sees it: keep only what no live peer claims now.
    CTRL_CO_RETURN_IF_ERROR(co_await ReadPeers(ctx), "checking the claim");
    const std::vector<bool> taken = ClaimedByLivePeers();
    std::vector<int> confirmed;
    std::vector<int> contested;
    for (const int b : wanted)
        (taken[static_cast<std::size_t>(b)] ? contested : confirmed).push_back(b);
    if (!contested.empty()) {
        log_.V(1).Info("buckets claimed by another member at once: leaving them", "buckets",
                       FormatBucketList(contested));
        claims_ = Minus(claims_, AsSet(contested, options_.buckets));
        CTRL_CO_RETURN_IF_ERROR(co_await WriteLease(ctx), "giving up contested buckets");
    }
    if (confirmed.empty())
        co_return OkStatus();
    log_.V(1).Info("acquired buckets", "buckets", FormatBucketList(confirmed));
    std::vector<int> owned = Owned();
    owned.insert(owned.end(), confirmed.begin(), confirmed.end());
    std::sort(owned.begin(), owned.end());
    SetOwned(std::move(owned));
    metrics_.acquired.Inc(static_cast<double>(confirmed.size()));
    if (options_.callbacks.on_acquired)
        options_.callbacks.on_acquired(confirmed);
    co_return OkStatus();
}

Task<void> Ring::Stop(Context ctx) {
    if (!options_.release_on_stop) {
        SetOwned({});
        co_return;
    }
    if (!claims_.empty())
        co_await Release(claims_);
    api::Lease lease;
    lease.SetNamespace(options_.namespace_name);
    lease.SetName(lease_name_);
    const Status deleted = co_await client_.Delete(ctx, lease);
    if (!deleted.Ok() && !IsNotFound(deleted))
        log_.Info("could not delete the lease; the others take over when it expires", "err", deleted);
    log_.Info("left the shard ring");
}

void Ring::SetOwned(std::vector<int> owned) {
    metrics_.owned_buckets.Set(static_cast<double>(owned.size()));
    std::lock_guard lock(mu_);
    owned_ = std::move(owned);
}

std::vector<int> Ring::Owned() const {
    std::lock_guard lock(mu_);
    return owned_;
}

ShardFilter Ring::Filter(ShardKey key) const {
    return ShardFilter(space_, key, Owned());
}

std::vector<std::string> Ring::Members() const {
    std::lock_guard lock(mu_);
    return members_;
}

}  // namespace ctrl::sharding
