#include "test/integration/shardedcontroller/shard_members.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>
#include <sstream>
#include <utility>

#include <boost/asio/co_spawn.hpp>

#include "ctrl/api/config_map.hpp"
#include "ctrl/api/namespace.hpp"
#include "ctrl/builder/builder.hpp"
#include "ctrl/client/option_values.hpp"
#include "ctrl/core/sleep.hpp"
#include "ctrl/reconcile/reconciler.hpp"
#include "test/support/eventually.hpp"
#include "test/support/kubeconfig_config.hpp"

namespace ctrl::testing {

namespace {

using namespace std::chrono_literals;

constexpr const char* kRunLabel = "ctrl.io/shard-test";
constexpr const char* kMemberAnnotation = "ctrl.io/member";

// A transport that refuses every request once cut (what a killed process's peers see).
class CuttableTransport final : public rest::Transport {
  public:
    CuttableTransport(std::unique_ptr<rest::Transport> inner, std::shared_ptr<std::atomic<bool>> cut)
        : inner_(std::move(inner)), cut_(std::move(cut)) {}
    Task<StatusOr<rest::HttpResponse>> Send(Context ctx, rest::HttpRequest request) override {
        if (cut_->load())
            co_return UnavailableError("the member was killed");
        co_return co_await inner_->Send(std::move(ctx), std::move(request));
    }
    Task<StatusOr<std::unique_ptr<rest::BodyStream>>> Open(Context ctx, rest::HttpRequest request) override {
        if (cut_->load())
            co_return UnavailableError("the member was killed");
        co_return co_await inner_->Open(std::move(ctx), std::move(request));
    }

  private:
    std::unique_ptr<rest::Transport> inner_;
    std::shared_ptr<std::atomic<bool>> cut_;
};

const sharding::BucketSpace& Space() {
    static const sharding::BucketSpace space = *sharding::BucketSpace::Make(kShardBuckets);
    return space;
}

std::string KeyOf(const Object& object) {
    return std::string(object.Namespace()) + "/" + std::string(object.Name());
}

}  // namespace

std::size_t ReconcileIntervals::Begin(const std::string& key, const std::string& member) {
    std::lock_guard lock(mu_);
    ++count_;
    std::vector<Interval>& intervals = by_key_[key];
    intervals.push_back(Interval{member, Clock::now()});
    return intervals.size() - 1;
}

void ReconcileIntervals::End(const std::string& key, std::size_t index) {
    std::lock_guard lock(mu_);
    by_key_[key][index].end = Clock::now();
}

std::vector<std::string> ReconcileIntervals::Overlaps() const {
    std::lock_guard lock(mu_);
    std::vector<std::string> found;
    for (const auto& [key, intervals] : by_key_) {
        for (std::size_t i = 0; i < intervals.size(); ++i) {
            for (std::size_t j = i + 1; j < intervals.size(); ++j) {
                const Interval& a = intervals[i];
                const Interval& b = intervals[j];
                if (a.member != b.member && a.start < b.end && b.start < a.end)
                    found.push_back(key + ": " + a.member + " and " + b.member);
            }
        }
    }
    return found;
}

ReconcileIntervals::Clock::time_point ReconcileIntervals::FirstStartAfter(const std::string& key,
                                                                          Clock::time_point since,
                                                                          const std::string& except) const {
    std::lock_guard lock(mu_);
    Clock::time_point first = Clock::time_point::max();
    const auto it = by_key_.find(key);
    if (it == by_key_.end())
        return first;
    for (const Interval& interval : it->second) {
        if (interval.member != except && interval.start >= since)
            first = std::min(first, interval.start);
    }
    return first;
}

int64_t ReconcileIntervals::Count() const {
    std::lock_guard lock(mu_);
    return count_;
}

ShardMembers::ShardMembers(const std::string& kubeconfig, std::string run)
    : config_(ConfigFromKubeconfig(kubeconfig)), run_(std::move(run)) {
    for (auto& thread : loop_)
        thread = std::thread([this] { io_.run(); });
    StatusOr<std::unique_ptr<cluster::Cluster>> admin = cluster::Cluster::New(config_, io_.get_executor());
    EXPECT_TRUE(admin.Ok()) << admin.GetStatus();
    if (admin.Ok())
        admin_ = std::move(admin).Value();
}

ShardMembers::~ShardMembers() {
    StopAll();
    members_.clear();
    admin_.reset();
    work_.reset();
    for (auto& thread : loop_)
        thread.join();
}

std::string ShardMembers::UniqueName(const std::string& name) {
    static std::mt19937 random{std::random_device{}()};
    return name + "-" + std::to_string(random() % 1'000'000);
}

Status ShardMembers::CreateConfigMaps(int namespaces, int per_namespace) {
    const std::string padding(900, 'x');  // ~1 KB objects
    for (int n = 0; n < namespaces; ++n) {
        api::Namespace ns;
        ns.SetName(run_ + "-" + std::to_string(n));
        CTRL_RETURN_IF_ERROR(Run(admin_->GetAPIReader().Create(Context::Background(), ns)));
        namespaces_.push_back(std::string(ns.Name()));
        for (int i = 0; i < per_namespace; ++i) {
            api::ConfigMap cm;
            cm.SetNamespace(ns.Name());
            cm.SetName("cm-" + std::to_string(i));
            cm.SetLabels({{kRunLabel, run_}});
            cm.SetDataValue("padding", padding);
            CTRL_RETURN_IF_ERROR(Run(admin_->GetAPIReader().Create(Context::Background(), cm)));
            uids_[KeyOf(cm)] = std::string(cm.Uid());
        }
    }
    return OkStatus();
}

std::unique_ptr<cluster::Cluster> ShardMembers::NewCluster(ShardMember* member) {
    rest::Config config = config_;
    std::shared_ptr<ReceivedBytes> bytes = member->bytes;
    std::shared_ptr<std::atomic<bool>> cut = member->cut;
    config.wrap_transport = [bytes, cut](std::unique_ptr<rest::Transport> inner) -> std::unique_ptr<rest::Transport> {
        return std::make_unique<CuttableTransport>(std::make_unique<ByteCountingTransport>(std::move(inner), bytes),
                                                   cut);
    };
    cluster::Options options;
    options.registry = &member->registry;
    options.cache.registry = &member->registry;
    cache::ByObject by_object;
    by_object.label_selector = *LabelSelector::Parse(std::string(kRunLabel) + "=" + run_);
    options.cache.by_object[scheme::GroupVersionKindOf<api::ConfigMap>()] = std::move(by_object);
    StatusOr<std::unique_ptr<cluster::Cluster>> made = cluster::Cluster::New(config, io_.get_executor(), options);
    EXPECT_TRUE(made.Ok()) << made.GetStatus();
    return made.Ok() ? std::move(made).Value() : nullptr;
}

std::shared_ptr<reconcile::Reconciler> ShardMembers::Stamper(ShardMember& member) {
    ShardMember* m = &member;
    ReconcileIntervals* intervals = &intervals_;
    return reconcile::AsReconciler(
        [m, intervals](Context ctx, reconcile::Request request) -> Task<StatusOr<reconcile::Result>> {
            const std::string key = request.String();
            const std::size_t index = intervals->Begin(key, m->id);
            api::ConfigMap cm;
            Status status = co_await m->cluster->GetClient().Get(ctx, request.NamespacedName(), cm);
            if (status.Ok() && cm.Annotation(kMemberAnnotation).value_or("") != m->id) {
                const std::string patch =
                    std::string(R"({"metadata":{"annotations":{")") + kMemberAnnotation + R"(":")" + m->id + R"("}}})";
                status = co_await m->cluster->GetClient().Patch(
                    ctx, cm, client::RawPatch(client::PatchType::kMergePatch, patch));
            }
            intervals->End(key, index);
            if (!status.Ok() && !IsNotFound(status))
                co_return status;
            co_return reconcile::Result{};
        });
}

std::shared_ptr<reconcile::Reconciler> ShardMembers::Busy(ShardMember& member, std::chrono::milliseconds busy) {
    ShardMember* m = &member;
    ReconcileIntervals* intervals = &intervals_;
    return reconcile::AsReconciler(
        [m, intervals, busy](Context ctx, reconcile::Request request) -> Task<StatusOr<reconcile::Result>> {
            const std::string key = request.String();
            const std::size_t index = intervals->Begin(key, m->id);
            const Status slept = co_await SleepFor(ctx, busy);
            intervals->End(key, index);
            CTRL_CO_RETURN_IF_ERROR(slept);
            reconcile::Result again;
            again.requeue_after = 1ms;
            co_return again;
        });
}

Status ShardMembers::Join(const std::string& id, MemberOptions options) {
    auto member = std::make_unique<ShardMember>();
    member->id = id;
    member->cluster = NewCluster(member.get());
    if (!member->cluster)
        return InternalError("no cluster for " + id);
    member->host = std::make_unique<ClusterHost>(*member->cluster, member->registry);
    shardedcontroller::Options sharding;
    sharding.ring.ring = run_;
    sharding.ring.namespace_name = "default";
    sharding.ring.identity = id;
    sharding.ring.buckets = kShardBuckets;
    sharding.ring.lease_duration = 3s;
    sharding.ring.renew_deadline = 2s;
    sharding.ring.retry_period = 500ms;
    sharding.ring.release_on_stop = options.release_on_stop;
    sharding.ring.registry = &member->registry;
    sharding.client = &member->cluster->GetAPIReader();
    builder::Builder built = builder::ControllerFor<api::ConfigMap>(*member->host);
    built.Named("stamp")
        .WithOptions(controller::Options{.max_concurrent_reconciles = options.workers, .skip_name_validation = true})
        .ShardedBy(std::move(sharding));
    CTRL_RETURN_IF_ERROR(
        built.Build(options.busy.count() > 0 ? Busy(*member, options.busy) : Stamper(*member)).GetStatus());
    member->sharded = built.GetSharded();
    ShardMember* m = member.get();
    boost::asio::co_spawn(io_, member->host->Run(m->ctx), [m](std::exception_ptr, Status) { m->done = true; });
    members_.push_back(std::move(member));
    return OkStatus();
}

void ShardMembers::Kill(const std::string& id) {
    ShardMember& member = *Find(id);
    member.cut->store(true);
    member.killed = true;
    member.ctx.Cancel();
    EXPECT_TRUE(Eventually([&] { return member.done.load(); }, 30s)) << id << " did not stop";
}

void ShardMembers::StopAll() {
    for (const auto& member : members_)
        member->ctx.Cancel();
    for (const auto& member : members_)
        EXPECT_TRUE(Eventually([&] { return member->done.load(); }, 30s)) << member->id << " did not stop";
}

ShardMember* ShardMembers::Find(const std::string& id) const {
    for (const auto& member : members_) {
        if (member->id == id)
            return member.get();
    }
    ADD_FAILURE() << "no member " << id;
    return members_.front().get();
}

const ShardMember& ShardMembers::Get(const std::string& id) const {
    return *Find(id);
}

std::vector<const ShardMember*> ShardMembers::Live() const {
    std::vector<const ShardMember*> live;
    for (const auto& member : members_) {
        if (!member->killed && !member->done.load())
            live.push_back(member.get());
    }
    return live;
}

std::map<int, std::string> ShardMembers::Owners() const {
    std::map<int, std::string> owners;
    for (const ShardMember* member : Live()) {
        for (const int bucket : member->Owned())
            owners[bucket] = member->id;
    }
    return owners;
}

bool ShardMembers::Settled(bool stamped) {
    const std::vector<const ShardMember*> live = Live();
    std::vector<int> seen(kShardBuckets, 0);
    for (const ShardMember* member : live) {
        if (member->sharded->GetRing().Members().size() != live.size())
            return false;
        const std::vector<int> owned = member->Owned();
        if (owned != member->sharded->GetShare().Owned())
            return false;
        for (const int bucket : owned)
            ++seen[static_cast<std::size_t>(bucket)];
    }
    if (std::any_of(seen.begin(), seen.end(), [](int n) { return n != 1; }))
        return false;
    if (!stamped)
        return true;
    const std::map<int, std::string> owners = Owners();
    api::ConfigMapList list;
    if (!Run(admin_->GetAPIReader().List(Context::Background(), list, client::MatchingLabels(kRunLabel, run_))).Ok())
        return false;
    for (const Object& cm : list.Items()) {
        const auto owner = owners.find(Space().BucketOfValue(cm.Uid()));
        if (owner == owners.end() || cm.Annotation(kMemberAnnotation).value_or("") != owner->second)
            return false;
    }
    return true;
}

std::string ShardMembers::Describe() {
    std::ostringstream out;
    for (const ShardMember* member : Live()) {
        out << member->id << " owns " << member->Owned().size() << " buckets (its controller "
            << member->sharded->GetShare().Owned().size() << "), sees " << member->sharded->GetRing().Members().size()
            << " members; ";
    }
    return out.str();
}

bool ShardMembers::CacheHoldsExactlyItsShare(const ShardMember& member) {
    const std::vector<int> owned = member.Owned();
    const std::set<int> buckets(owned.begin(), owned.end());
    std::set<std::string> expected;
    for (const auto& [key, uid] : uids_) {
        if (buckets.contains(Space().BucketOfValue(uid)))
            expected.insert(key);
    }
    StatusOr<std::vector<std::shared_ptr<const Object>>> held =
        member.cluster->GetCache().ListSharedNow<api::ConfigMap>();
    if (!held.Ok())
        return false;
    std::set<std::string> keys;
    for (const auto& object : *held)
        keys.insert(KeyOf(*object));
    return keys == expected;
}

cache::ReflectorStats ShardMembers::StatsOf(const std::string& id) {
    ShardMember& member = *Find(id);
    cache::ReflectorStats sum;
    StatusOr<std::vector<cache::Informer*>> informers =
        Run(member.cluster->GetCache().GetInformersFor<api::ConfigMap>(Context::Background()));
    if (!informers.Ok())
        return sum;
    for (const cache::Informer* informer : *informers) {
        const cache::ReflectorStats stats = informer->Stats();
        sum.outside_shard += stats.outside_shard;
        sum.events += stats.events;
        sum.lists += stats.lists;
    }
    return sum;
}

ShardMembers::Clock::time_point ShardMembers::OwnedAgainAt(const std::vector<int>& buckets,
                                                           Clock::time_point killed) const {
    const std::set<int> wanted(buckets.begin(), buckets.end());
    std::map<int, Clock::time_point> first;
    for (const auto& [key, uid] : uids_) {
        const int bucket = Space().BucketOfValue(uid);
        if (!wanted.contains(bucket))
            continue;
        const Clock::time_point start = intervals_.FirstStartAfter(key, killed, "");
        auto [it, inserted] = first.emplace(bucket, start);
        if (!inserted)
            it->second = std::min(it->second, start);
    }
    Clock::time_point last = killed;
    for (const auto& [bucket, start] : first)
        last = std::max(last, start);
    return last;
}

bool ShardMembers::EveryObjectReconciledSince(const std::vector<int>& buckets, Clock::time_point since) const {
    const std::set<int> wanted(buckets.begin(), buckets.end());
    for (const auto& [key, uid] : uids_) {
        if (wanted.contains(Space().BucketOfValue(uid)) &&
            intervals_.FirstStartAfter(key, since, "") == Clock::time_point::max())
            return false;
    }
    return true;
}

WatchTraffic ShardMembers::MeasureWatchTraffic() {
    WatchTraffic traffic;
    ShardMember observer;
    observer.id = "unsharded";
    observer.cluster = NewCluster(&observer);
    if (!observer.cluster)
        return traffic;
    boost::asio::co_spawn(io_, observer.cluster->GetCache().Run(observer.ctx),
                          [&observer](std::exception_ptr, Status) { observer.done = true; });
    EXPECT_TRUE(Run(observer.cluster->GetCache().GetInformersFor<api::ConfigMap>(Context::Background())).Ok());
    EXPECT_TRUE(Run(observer.cluster->GetCache().WaitForCacheSync(Context::Background())).Ok());
    const std::vector<const ShardMember*> live = Live();
    observer.bytes->streams = 0;
    for (const ShardMember* member : live)
        member->bytes->streams = 0;
    for (const auto& [key, uid] : uids_) {
        api::ConfigMap cm;
        cm.SetNamespace(key.substr(0, key.find('/')));
        cm.SetName(key.substr(key.find('/') + 1));
        EXPECT_TRUE(Run(admin_->GetAPIReader().Patch(
                            Context::Background(), cm,
                            client::RawPatch(client::PatchType::kMergePatch, R"({"data":{"touched":"yes"}})")))
                        .Ok());
    }
    // Every cache has seen its objects' change.
    const auto all_touched = [](const ShardMember& member, std::size_t at_least) {
        auto held = member.cluster->GetCache().ListSharedNow<api::ConfigMap>();
        if (!held.Ok() || held->size() < at_least)
            return false;
        return std::all_of(held->begin(), held->end(), [](const auto& object) {
            return api::ConfigMapView(*object).DataValue("touched").value_or("") == "yes";
        });
    };
    EXPECT_TRUE(Eventually([&] { return all_touched(observer, uids_.size()); }, 60s));
    for (const ShardMember* member : live)
        EXPECT_TRUE(Eventually([&] { return all_touched(*member, 1); }, 60s)) << member->id;
    traffic.unsharded = observer.bytes->streams.load();
    for (const ShardMember* member : live)
        traffic.by_member[member->id] = member->bytes->streams.load();
    observer.ctx.Cancel();
    EXPECT_TRUE(Eventually([&] { return observer.done.load(); }, 30s));
    return traffic;
}

}  // namespace ctrl::testing
