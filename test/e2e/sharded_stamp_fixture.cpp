#include "test/e2e/sharded_stamp_fixture.hpp"

#include <signal.h>
#include <stdlib.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <fstream>
#include <limits>
#include <mutex>
#include <random>
#include <set>
#include <sstream>

#include <boost/asio/co_spawn.hpp>

#include "ctrl/api/config_map.hpp"
#include "ctrl/api/lease.hpp"
#include "ctrl/api/namespace.hpp"
#include "ctrl/client/object_form.hpp"
#include "ctrl/client/option_values.hpp"
#include "ctrl/core/run_sync.hpp"
#include "ctrl/sharding/bucket_list.hpp"
#include "ctrl/sharding/hash_range.hpp"
#include "test/support/eventually.hpp"
#include "test/support/free_port.hpp"
#include "test/support/kubeconfig_config.hpp"
#include "test/support/metrics_text.hpp"
#include "test/support/prometheus_server.hpp"

namespace ctrl::e2e {

namespace {

using namespace std::chrono_literals;
using testing::Eventually;

const sharding::BucketSpace& Space() {
    static const sharding::BucketSpace space = *sharding::BucketSpace::Make(kBuckets);
    return space;
}

// Creates wanted[i] for each i taken from next, until none is left (one of several at once).
Task<void> CreateEach(client::Client* client, std::vector<api::ConfigMap>* wanted, std::atomic<std::size_t>* next,
                      std::mutex* mu, Status* failed) {
    for (std::size_t i = (*next)++; i < wanted->size(); i = (*next)++) {
        const Status made = co_await client->Create(Context::Background(), (*wanted)[i]);
        if (!made.Ok()) {
            std::lock_guard lock(*mu);
            *failed = made;
        }
    }
}

// Patches data.touched into keys[i] for each i taken from next.
Task<void> TouchEach(client::Client* client, const std::vector<std::string>* keys, std::atomic<std::size_t>* next) {
    for (std::size_t i = (*next)++; i < keys->size(); i = (*next)++) {
        const std::string& key = (*keys)[i];
        api::ConfigMap cm;
        cm.SetNamespace(key.substr(0, key.find('/')));
        cm.SetName(key.substr(key.find('/') + 1));
        (void)co_await client->Patch(Context::Background(), cm,
                                     client::RawPatch(client::PatchType::kMergePatch, R"({"data":{"touched":"yes"}})"));
    }
}

std::string ReadFile(const std::string& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

}  // namespace

template <typename T>
T ShardedStampFixture::Run(Task<T> task) {
    return RunOn(io_.get_executor(), std::move(task));
}

void ShardedStampFixture::SetUp() {
    static std::mt19937 random{std::random_device{}()};
    run_ = "stamp-" + std::to_string(random() % 1'000'000);
    char dir[] = "/tmp/ctrl-sharded-stamp-XXXXXX";
    ASSERT_NE(mkdtemp(dir), nullptr);
    dir_ = dir;
    loop_ = std::thread([this] { io_.run(); });
}

void ShardedStampFixture::TearDown() {
    StopAll();
    replicas_.clear();
    admin_cache_.Cancel();
    admin_.reset();
    work_.reset();
    loop_.join();
    if (!HasFailure())
        (void)std::system(("rm -rf " + dir_).c_str());
    else
        std::printf("sharded e2e: the replicas' logs and intervals are in %s\n", dir_.c_str());
}

void ShardedStampFixture::Use(testing::ControlPlane& control_plane) {
    StatusOr<std::string> replicas_kubeconfig = control_plane.TokenUserKubeconfig(testing::kShardOperatorUser);
    ASSERT_TRUE(replicas_kubeconfig.Ok()) << replicas_kubeconfig.GetStatus();
    kubeconfig_ = *replicas_kubeconfig;
    cluster::Options options;
    cache::ByObject run_only;
    run_only.label_selector = *LabelSelector::Parse("ctrl.io/shard-test=" + run_);
    options.cache.by_object[scheme::GroupVersionKindOf<api::ConfigMap>()] = std::move(run_only);
    StatusOr<std::unique_ptr<cluster::Cluster>> admin = cluster::Cluster::New(
        testing::ConfigFromKubeconfig(control_plane.KubeconfigPath()), io_.get_executor(), std::move(options));
    ASSERT_TRUE(admin.Ok()) << admin.GetStatus();
    admin_ = std::move(admin).Value();
    admin_->Start(admin_cache_);
    api::ConfigMapList none_yet;  // makes the informer now, so that it syncs before the replicas start
    ASSERT_TRUE(Run(admin_->GetClient().List(Context::Background(), none_yet)).Ok());
}

bool ShardedStampFixture::UseOwnControlPlane(testing::ControlPlane::Options options) {
    own_control_plane_ = std::make_unique<testing::ControlPlane>(std::move(options));
    const Status started = own_control_plane_->Start();
    EXPECT_TRUE(started.Ok()) << started;
    if (!started.Ok())
        return false;
    Use(*own_control_plane_);
    return admin_ != nullptr;
}

Status ShardedStampFixture::CreateConfigMaps(int namespaces, int per_namespace) {
    std::vector<api::ConfigMap> wanted;
    for (int n = 0; n < namespaces; ++n) {
        api::Namespace ns;
        ns.SetName(run_ + "-" + std::to_string(n));
        CTRL_RETURN_IF_ERROR(Run(admin_->GetAPIReader().Create(Context::Background(), ns)));
        for (int i = 0; i < per_namespace; ++i) {
            api::ConfigMap cm;
            cm.SetNamespace(ns.Name());
            cm.SetName("cm-" + std::to_string(i));
            cm.SetLabels({{"ctrl.io/shard-test", run_}});
            cm.SetDataValue("padding", std::string(900, 'x'));
            wanted.push_back(std::move(cm));
        }
    }
    // 16 creates in flight.
    std::atomic<std::size_t> next{0};
    std::atomic<int> running{16};
    std::mutex mu;
    Status failed;
    client::Client& client = admin_->GetAPIReader();
    for (int worker = 0; worker < 16; ++worker)
        boost::asio::co_spawn(io_, CreateEach(&client, &wanted, &next, &mu, &failed),
                              [&running](std::exception_ptr) { --running; });
    if (!Eventually([&] { return running.load() == 0; }, 10min, 100ms))
        return InternalError("creating the ConfigMaps did not end");
    CTRL_RETURN_IF_ERROR(failed);
    for (const api::ConfigMap& cm : wanted)
        uids_[std::string(cm.Namespace()) + "/" + std::string(cm.Name())] = std::string(cm.Uid());
    return OkStatus();
}

bool ShardedStampFixture::Start(const std::string& id, std::vector<std::string> extra) {
    StatusOr<std::vector<int>> ports = testing::FreePorts(2);
    EXPECT_TRUE(ports.Ok()) << ports.GetStatus();
    if (!ports.Ok())
        return false;
    auto replica = std::make_unique<Replica>();
    replica->id = id;
    replica->metrics_url = "http://127.0.0.1:" + std::to_string((*ports)[0]) + "/metrics";
    std::vector<std::string> argv{CTRL_SHARD_STAMPER_BIN,
                                  "--kubeconfig=" + kubeconfig_,
                                  "--metrics-bind-address=127.0.0.1:" + std::to_string((*ports)[0]),
                                  "--health-probe-bind-address=127.0.0.1:" + std::to_string((*ports)[1]),
                                  "--run",
                                  run_,
                                  "--intervals",
                                  dir_ + "/intervals"};
    argv.insert(argv.end(), extra.begin(), extra.end());
    StatusOr<testing::ChildProcess> process = testing::ChildProcess::Start(argv, dir_ + "/" + id + ".log");
    EXPECT_TRUE(process.Ok()) << process.GetStatus();
    if (!process.Ok())
        return false;
    replica->process = std::move(process).Value();
    replicas_.push_back(std::move(replica));
    return true;
}

bool ShardedStampFixture::StartReplica(const std::string& id) {
    return Start(id, {"--ring", run_, "--identity", id, "--lease-namespace", "default", "--lease-duration-ms",
                      std::to_string(std::chrono::milliseconds(kStamperLease).count())});
}

bool ShardedStampFixture::StartUnsharded() {
    return Start("unsharded", {"--no-ring"});
}

void ShardedStampFixture::StopAll() {
    for (const auto& replica : replicas_) {
        if (replica->process.Pid() != 0)
            (void)replica->process.Stop(15s);
    }
}

Replica* ShardedStampFixture::Find(const std::string& id) {
    for (const auto& replica : replicas_) {
        if (replica->id == id)
            return replica.get();
    }
    ADD_FAILURE() << "no replica " << id;
    return nullptr;
}

std::map<int, std::string> ShardedStampFixture::Owners() {
    std::map<int, std::string> owners;
    api::LeaseList leases;
    const Status listed = Run(admin_->GetAPIReader().List(Context::Background(), leases, client::InNamespace("default"),
                                                          client::MatchingLabels("ctrl.io/shard-ring", run_)));
    if (!listed.Ok())
        return owners;
    for (const Object& lease : leases.Items()) {
        const std::string holder(api::LeaseView(lease).HolderIdentity().value_or(""));
        const Replica* replica = nullptr;
        for (const auto& r : replicas_) {
            if (r->id == holder)
                replica = r.get();
        }
        if (replica == nullptr || replica->killed)
            continue;  // a killed replica's Lease claims until it expires; its buckets are orphans
        for (const int bucket :
             sharding::ParseBucketList(lease.Annotation("ctrl.io/shard-buckets").value_or(""), kBuckets)) {
            if (!owners.emplace(bucket, holder).second)
                owners[bucket] = "(twice)";
        }
    }
    return owners;
}

int ShardedStampFixture::ObjectsOwnedBy(const std::string& id) {
    const std::map<int, std::string> owners = Owners();
    int owned = 0;
    for (const auto& [key, uid] : uids_) {
        const auto owner = owners.find(Space().BucketOfValue(uid));
        owned += owner != owners.end() && owner->second == id ? 1 : 0;
    }
    return owned;
}

bool ShardedStampFixture::Settled(int replicas) {
    const std::map<int, std::string> owners = Owners();
    std::set<std::string> holders;
    for (const auto& [bucket, holder] : owners) {
        if (holder == "(twice)")
            return false;
        holders.insert(holder);
    }
    if (owners.size() != static_cast<std::size_t>(kBuckets) || holders.size() != static_cast<std::size_t>(replicas))
        return false;
    api::ConfigMapList cached;
    if (!Run(admin_->GetClient().List(Context::Background(), cached)).Ok() || !AllStamped(cached, owners))
        return false;
    client::PartialObjectMetadataList listed(scheme::GroupVersionKindOf<api::ConfigMap>());
    return Run(admin_->GetAPIReader().List(Context::Background(), listed,
                                           client::MatchingLabels("ctrl.io/shard-test", run_)))
               .Ok() &&
           AllStamped(listed, owners);
}

bool ShardedStampFixture::AllStamped(const ObjectList& list, const std::map<int, std::string>& owners) {
    for (const Object& cm : list.Items()) {
        const auto owner = owners.find(Space().BucketOfValue(cm.Uid()));
        if (owner == owners.end() || cm.Annotation("ctrl.io/member").value_or("") != owner->second)
            return false;
    }
    return true;
}

std::string ShardedStampFixture::Describe() {
    std::map<std::string, int> counts;
    for (const auto& [bucket, holder] : Owners())
        ++counts[holder];
    std::ostringstream out;
    out << "owners from the Leases:";
    for (const auto& [holder, count] : counts)
        out << " " << holder << "=" << count;
    return out.str();
}

double ShardedStampFixture::Metric(const std::string& id, const std::string& name) {
    const Replica* replica = Find(id);
    if (replica == nullptr)
        return -1;
    const testing::CurlResult scraped = testing::Curl(replica->metrics_url);
    if (scraped.status != 200)
        return -1;
    return testing::MetricSum(scraped.body, name);
}

double ShardedStampFixture::InformerObjects(const std::string& id) {
    return Metric(id, "ctrl_informer_objects");
}

int ShardedStampFixture::LogOccurrences(const std::string& id, const std::string& text) {
    const Replica* replica = Find(id);
    return replica == nullptr ? -1 : testing::Occurrences(ReadFile(replica->process.LogPath()), text);
}

void ShardedStampFixture::ExpectWatchTrafficAboutAThird(const std::vector<std::string>& ids) {
    // The unsharded reference starts here, not beside the replicas: while they stamp it would only
    // take CPU from the API server they wait on (this machine's two cores run everything).
    ASSERT_TRUE(StartUnsharded());
    ASSERT_TRUE(
        Eventually([&] { return InformerObjects("unsharded") == static_cast<double>(uids_.size()); }, 60s, 200ms))
        << "the unsharded replica holds " << InformerObjects("unsharded") << " of " << uids_.size();
    std::vector<std::string> all = ids;
    all.push_back("unsharded");
    std::map<std::string, double> before;
    for (const std::string& id : all)
        before[id] = Metric(id, "stamper_watch_received_bytes");
    // Change 2,000 ConfigMaps, 16 at a time.
    std::vector<std::string> keys;
    for (const auto& [key, uid] : uids_) {
        if (keys.size() < 2000)
            keys.push_back(key);
    }
    std::atomic<std::size_t> next{0};
    std::atomic<int> running{16};
    client::Client& client = admin_->GetAPIReader();
    for (int worker = 0; worker < 16; ++worker)
        boost::asio::co_spawn(io_, TouchEach(&client, &keys, &next), [&running](std::exception_ptr) { --running; });
    ASSERT_TRUE(Eventually([&] { return running.load() == 0; }, 5min, 100ms));
    // Until every replica's byte count stands still for 2 s.
    std::map<std::string, double> last;
    int still = 0;
    ASSERT_TRUE(Eventually(
        [&] {
            std::map<std::string, double> now;
            for (const std::string& id : all)
                now[id] = Metric(id, "stamper_watch_received_bytes");
            still = now == last ? still + 1 : 0;
            last = now;
            return still >= 4;
        },
        60s, 500ms));
    const double unsharded = last["unsharded"] - before["unsharded"];
    for (const std::string& id : ids) {
        const double share = (last[id] - before[id]) / unsharded;
        std::printf(
            "sharded e2e: %s's watches received %.0f bytes while 2000 ConfigMaps changed: %.2f of an "
            "unsharded replica's %.0f\n",
            id.c_str(), last[id] - before[id], share, unsharded);
        EXPECT_GT(share, 0.2) << id;
        EXPECT_LT(share, 0.47) << id;
    }
}

bool ShardedStampFixture::ReconciledSince(const std::vector<int>& buckets, Clock::time_point since,
                                          const std::string& except) {
    const std::set<int> wanted(buckets.begin(), buckets.end());
    std::set<std::string> reconciled;
    std::istringstream lines(ReadFile(dir_ + "/intervals"));
    const auto since_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(since.time_since_epoch()).count();
    for (std::string line; std::getline(lines, line);) {
        std::istringstream fields(line);
        std::string what, id, key;
        long long at = 0;
        fields >> what >> at >> id >> key;
        if (what == "B" && at >= since_ns && id != except)
            reconciled.insert(key);
    }
    for (const auto& [key, uid] : uids_) {
        if (wanted.contains(Space().BucketOfValue(uid)) && !reconciled.contains(key))
            return false;
    }
    return true;
}

void ShardedStampFixture::ExpectKilledReplicasBucketsTakenOver(const std::string& id, int survivors) {
    Replica* replica = Find(id);
    ASSERT_NE(replica, nullptr);
    std::vector<int> orphaned;
    for (const auto& [bucket, holder] : Owners()) {
        if (holder == id)
            orphaned.push_back(bucket);
    }
    ASSERT_FALSE(orphaned.empty());
    replica->killed_at = Clock::now();
    ASSERT_EQ(kill(replica->process.Pid(), SIGKILL), 0);
    replica->killed = true;
    ASSERT_TRUE(replica->process.WaitForExit(Clock::now() + 10s));
    const auto taken = [&] {
        const std::map<int, std::string> owners = Owners();
        return std::all_of(orphaned.begin(), orphaned.end(), [&](int b) { return owners.contains(b); });
    };
    ASSERT_TRUE(Eventually(taken, kStamperLease + 30s, 100ms));
    const auto took = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - replica->killed_at);
    std::printf("sharded e2e: a SIGKILLed replica's %zu buckets owned again %lld ms after the kill (lease %lld s)\n",
                orphaned.size(), static_cast<long long>(took.count()),
                static_cast<long long>(std::chrono::seconds(kStamperLease).count()));
    EXPECT_LE(took, kStamperLease + 5s);
    EXPECT_TRUE(Eventually([&] { return ReconciledSince(orphaned, replica->killed_at, id); }, 60s, 500ms))
        << "every ConfigMap of the orphaned buckets is reconciled again";
    EXPECT_TRUE(Eventually([&] { return Settled(survivors); }, 60s, 500ms)) << Describe();
}

void ShardedStampFixture::ExpectNoOverlaps() {
    struct Interval {
        std::string id;
        long long start = 0;
        long long end = std::numeric_limits<long long>::max();
    };
    std::map<std::string, long long> killed_at;
    for (const auto& replica : replicas_) {
        if (replica->killed)
            killed_at[replica->id] =
                std::chrono::duration_cast<std::chrono::nanoseconds>(replica->killed_at.time_since_epoch()).count();
    }
    std::map<std::string, std::vector<Interval>> by_key;
    std::istringstream lines(ReadFile(dir_ + "/intervals"));
    int64_t reconciles = 0;
    for (std::string line; std::getline(lines, line);) {
        std::istringstream fields(line);
        std::string what, id, key;
        long long at = 0;
        fields >> what >> at >> id >> key;
        std::vector<Interval>& intervals = by_key[key];
        if (what == "B") {
            ++reconciles;
            intervals.push_back(Interval{id, at});
            continue;
        }
        for (auto it = intervals.rbegin(); it != intervals.rend(); ++it) {
            if (it->id == id && it->end == std::numeric_limits<long long>::max()) {
                it->end = at;
                break;
            }
        }
    }
    int overlaps = 0;
    std::string example;
    for (auto& [key, intervals] : by_key) {
        for (Interval& interval : intervals) {
            if (interval.end == std::numeric_limits<long long>::max() && killed_at.contains(interval.id))
                interval.end = killed_at[interval.id];
        }
        for (std::size_t i = 0; i < intervals.size(); ++i) {
            for (std::size_t j = i + 1; j < intervals.size(); ++j) {
                const Interval& a = intervals[i];
                const Interval& b = intervals[j];
                if (a.id != b.id && a.start < b.end && b.start < a.end) {
                    ++overlaps;
                    example = key + ": " + a.id + " and " + b.id;
                }
            }
        }
    }
    std::printf("sharded e2e: %lld reconciles of %zu ConfigMaps checked, %d overlapping\n",
                static_cast<long long>(reconciles), by_key.size(), overlaps);
    EXPECT_EQ(overlaps, 0) << "e.g. " << example;
    EXPECT_EQ(by_key.size(), uids_.size()) << "every ConfigMap was reconciled";
}

}  // namespace ctrl::e2e
