// failover --objects N --lease NAME [--warmup] (PROTOCOL.md, "failover"): one replica of an operator
// with leader election (Lease NAME in <prefix>-failover; 3 s, renew 2 s, retry 0.5 s, released on
// SIGTERM) and one controller over the N ConfigMaps of that namespace whose reconciler only notes
// what it saw. It prints ACQUIRED (its first Lease write answered OK), ELECTED, FIRST_RECONCILE and
// ALL_RECONCILED as they happen, STANDBY once it waits behind another holder's Lease (with
// --warmup: once its queue holds every object), and RESULT after SIGTERM.

#include <chrono>
#include <cstdio>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_set>
#include <utility>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>

#include "ctrl/api/config_map.hpp"
#include "ctrl/api/lease.hpp"
#include "ctrl/builder/builder.hpp"
#include "ctrl/core/sleep.hpp"
#include "ctrl/manager/manager.hpp"
#include "ctrl/manager/signals.hpp"
#include "test/bench/vs/failover.hpp"
#include "test/bench/vs/load_observer.hpp"
#include "test/bench/vs/probe_setup.hpp"
#include "test/bench/vs/scenarios.hpp"
#include "test/support/list_requests.hpp"

namespace ctrl::bench::vs {
namespace {

using namespace std::chrono_literals;

// What one replica saw, from its reconciler, its election runnable, its transport and its standby
// watch (several threads): it prints the protocol's lines as they happen.
class Replica {
  public:
    explicit Replica(int objects) : objects_(objects) {}

    void Elected() { Say(elected_, "ELECTED"); }
    // A candidate writes the Lease only to take it: its first write answered OK is its election.
    void Acquired() { Say(acquired_, "ACQUIRED"); }
    void Standby() { Say(standby_, "STANDBY"); }
    void Reconciled(const std::string& name) {
        std::lock_guard lock(mu_);
        reconciled_.insert(name);
        SayLocked(first_reconcile_, "FIRST_RECONCILE");
        if (static_cast<int>(reconciled_.size()) == objects_)
            SayLocked(all_reconciled_, "ALL_RECONCILED");
    }
    // A LIST or watch-list of ConfigMaps this process sent.
    void Listed() {
        std::lock_guard lock(mu_);
        ++lists_;
        if (standby_)
            ++lists_after_standby_;
    }
    Figures Result() const {
        std::lock_guard lock(mu_);
        return {{"objects", static_cast<double>(objects_)},
                {"reconciled", static_cast<double>(reconciled_.size())},
                {"elected", elected_ ? 1.0 : 0.0},
                {"standby", standby_ ? 1.0 : 0.0},
                {"lists", static_cast<double>(lists_)},
                {"lists_after_standby", static_cast<double>(lists_after_standby_)}};
    }

  private:
    void Say(bool& said, const char* what) {
        std::lock_guard lock(mu_);
        SayLocked(said, what);
    }
    // Prints "<what> <unix ns>" once.
    void SayLocked(bool& said, const char* what) {
        if (said)
            return;
        said = true;
        std::printf("%s %lld\n", what, static_cast<long long>(UnixNanos()));
        std::fflush(stdout);
    }

    const int objects_;
    mutable std::mutex mu_;
    std::unordered_set<std::string> reconciled_;  // guarded by mu_, as every field below
    bool elected_ = false;
    bool acquired_ = false;
    bool standby_ = false;
    bool first_reconcile_ = false;
    bool all_reconciled_ = false;
    int64_t lists_ = 0;
    int64_t lists_after_standby_ = 0;
};

// The operator's reconciler: notes the object and succeeds.
class NotingReconciler final : public reconcile::Reconciler {
  public:
    explicit NotingReconciler(std::shared_ptr<Replica> replica) : replica_(std::move(replica)) {}
    Task<StatusOr<reconcile::Result>> Reconcile(Context, reconcile::Request request) override {
        replica_->Reconciled(request.name);
        co_return reconcile::Result{};
    }

  private:
    const std::shared_ptr<Replica> replica_;
};

// A leader-election runnable: started once this replica leads.
class SayElected final : public manager::Runnable {
  public:
    explicit SayElected(std::shared_ptr<Replica> replica) : replica_(std::move(replica)) {}
    Task<Status> Run(Context) override {
        replica_->Elected();
        co_return OkStatus();
    }
    std::string Name() const override { return "say-elected"; }

  private:
    const std::shared_ptr<Replica> replica_;
};

// What the standby watch needs.
struct StandbyWatch {
    manager::Manager* mgr = nullptr;
    controller::Controller* controller = nullptr;
    std::shared_ptr<Replica> replica;
    ObjectKey lease;
    size_t queue_target = 0;  // the queue depth that makes a warm standby (0: cold)
    Context stop = Context::Background();
};

// Until this replica leads: reads the Lease every 50 ms until another identity holds it, then waits
// for the queue to hold watch.queue_target items, then says STANDBY.
Task<void> SayWhenStandby(StandbyWatch watch) {
    bool other_holds = false;
    while (!watch.mgr->IsLeader()) {
        if (!other_holds) {
            api::Lease lease;
            const Context within = Context::WithTimeout(watch.stop, 5s);
            if ((co_await watch.mgr->GetAPIReader().Get(within, watch.lease, lease)).Ok()) {
                const std::optional<std::string_view> holder = lease.HolderIdentity();
                other_holds = holder && !holder->empty() && *holder != watch.mgr->Identity();
            }
        }
        if (other_holds && watch.controller->Queue().Len() >= watch.queue_target) {
            watch.replica->Standby();
            co_return;
        }
        if (!(co_await SleepFor(watch.stop, 50ms)).Ok())
            co_return;
    }
}

// The replica's transport: counts its LISTs and watch-lists of ConfigMaps, and says ACQUIRED at its
// first Lease write (a create or an update of a path under /leases) answered 2xx.
std::function<std::unique_ptr<rest::Transport>(std::unique_ptr<rest::Transport>)> Observed(
    std::shared_ptr<Replica> replica) {
    ctrl::testing::TransportObservers observers;
    observers.sent = [replica](const rest::HttpRequest& request) {
        if (ctrl::testing::IsListOrWatchList(request, "configmaps"))
            replica->Listed();
    };
    observers.answered = [replica](const std::string& method, const std::string& target, int status) {
        const bool lease_write = (method == "PUT" || method == "POST") &&
                                 target.substr(0, target.find('?')).find("/leases") != std::string::npos;
        if (lease_write && status >= 200 && status < 300)
            replica->Acquired();
    };
    return ctrl::testing::Observe(std::move(observers));
}

// The replica's manager options: PROTOCOL.md's Lease timings, the cache on the failover namespace.
manager::Options FailoverOptions(const ProbeArgs& args, bool warmup) {
    manager::Options options;
    options.metrics.bind_address = "0";
    options.health_probe_bind_address = "0";
    options.cache.default_namespaces = {FailoverNamespace(args)};
    options.leader_election.enabled = true;
    options.leader_election.id = args.Text("lease");
    options.leader_election.namespace_name = FailoverNamespace(args);
    options.leader_election.lease_duration = 3000ms;
    options.leader_election.renew_deadline = 2000ms;
    options.leader_election.retry_period = 500ms;
    options.leader_election.release_on_cancel = true;
    options.controller.enable_warmup = warmup;
    return options;
}

}  // namespace

int RunFailover(const ProbeArgs& args) {
    const double objects = args.Number("objects", 0);
    if (objects < 1 || objects != static_cast<int>(objects) || args.Text("lease").empty()) {
        std::fprintf(stderr, "ctrl-vs-probe failover: --objects (a count) and --lease are required\n");
        return 2;
    }
    const bool warmup = args.Switch("warmup");
    StatusOr<rest::Config> config = LoadProbeConfig(args);
    if (!config.Ok())
        return Fail(args, config.GetStatus().ToString());
    const auto replica = std::make_shared<Replica>(static_cast<int>(objects));
    config->wrap_transport = Observed(replica);
    StatusOr<std::unique_ptr<manager::Manager>> mgr = manager::New(*config, FailoverOptions(args, warmup));
    if (!mgr.Ok())
        return Fail(args, "manager: " + mgr.GetStatus().ToString());
    StatusOr<std::shared_ptr<controller::Controller>> controller =
        builder::ControllerFor<api::ConfigMap>(**mgr)
            .Named("failover")
            .Build(std::make_shared<NotingReconciler>(replica));
    if (!controller.Ok())
        return Fail(args, "controller: " + controller.GetStatus().ToString());
    if (Status added = (*mgr)->Add(std::make_shared<SayElected>(replica)); !added.Ok())
        return Fail(args, "runnable: " + added.ToString());

    // As an operator's main(): Start(SetupSignalHandler()); the driver ends it with SIGTERM.
    StandbyWatch watch;
    watch.mgr = mgr->get();
    watch.controller = controller->get();
    watch.replica = replica;
    watch.lease = ObjectKey(FailoverNamespace(args), args.Text("lease"));
    watch.queue_target = warmup ? static_cast<size_t>(objects) : 0;
    watch.stop = manager::SetupSignalHandler();
    boost::asio::co_spawn((*mgr)->GetExecutor(), SayWhenStandby(watch), boost::asio::detached);
    const Status ran = (*mgr)->Start(watch.stop);
    PrintResult(replica->Result());
    if (!ran.Ok())
        return Fail(args, "the manager stopped with " + ran.ToString());
    return 0;
}

}  // namespace ctrl::bench::vs
