// ctrl-shard-stamper: the sharded test operator of the sharding e2e test. A manager whose one
// controller, sharded over a ring (Builder::ShardedBy), stamps each ConfigMap labelled
// ctrl.io/shard-test=<run> with this replica's id in the annotation ctrl.io/member. Every reconcile
// appends "B <ns> <identity> <key>" when it starts and "E <ns> <identity> <key>" when it ends to
// the intervals file (steady clock in nanoseconds, CLOCK_MONOTONIC, which every process of the
// machine shares), so a test can check that no two replicas' reconciles of one object overlap, a
// SIGKILLed one's included. The bytes its watches receive are the gauge
// stamper_watch_received_bytes. With --no-ring it only caches the ConfigMaps (an unsharded replica
// to compare with).
//
//   ctrl-shard-stamper [manager flags] --run RUN --intervals FILE [--ring NAME --identity ID
//       --lease-namespace NS] [--lease-duration-ms N] [--no-ring]

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <string_view>

#include <ctrl/ctrl.hpp>

#include "test/support/byte_counting_transport.hpp"

namespace {

using namespace std::chrono_literals;

struct StamperFlags {
    ctrl::manager::Flags manager{};
    std::string run;
    std::string intervals;
    std::string ring;
    std::string identity;
    std::string lease_namespace = "default";
    int lease_duration_ms = 5000;
    bool no_ring = false;
};

ctrl::StatusOr<StamperFlags> Parse(int argc, char** argv) {
    StamperFlags flags;
    CTRL_ASSIGN_OR_RETURN(flags.manager, ctrl::manager::ParseFlags(argc, argv, {}));
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        if (arg == "--no-ring") {
            flags.no_ring = true;
            continue;
        }
        if (i + 1 >= argc)
            return ctrl::BadRequestError("flag " + std::string(arg) + " needs a value (or is unknown)");
        const std::string value = argv[++i];
        if (arg == "--run") {
            flags.run = value;
        } else if (arg == "--intervals") {
            flags.intervals = value;
        } else if (arg == "--ring") {
            flags.ring = value;
        } else if (arg == "--identity") {
            flags.identity = value;
        } else if (arg == "--lease-namespace") {
            flags.lease_namespace = value;
        } else if (arg == "--lease-duration-ms") {
            const auto [end, error] =
                std::from_chars(value.data(), value.data() + value.size(), flags.lease_duration_ms);
            if (error != std::errc() || end != value.data() + value.size() || flags.lease_duration_ms < 1000)
                return ctrl::BadRequestError("flag --lease-duration-ms: \"" + value + "\" is not a duration >= 1000");
        } else {
            return ctrl::BadRequestError("unknown flag " + std::string(arg));
        }
    }
    if (flags.run.empty() || flags.intervals.empty() ||
        (!flags.no_ring && (flags.ring.empty() || flags.identity.empty())))
        return ctrl::BadRequestError("--run, --intervals and (without --no-ring) --ring and --identity are required");
    return flags;
}

// Appends one line per reconcile start and end; one write(2) each, atomic with O_APPEND.
class IntervalLog {
  public:
    explicit IntervalLog(const std::string& path) : fd_(open(path.c_str(), O_WRONLY | O_APPEND | O_CREAT, 0644)) {}
    ~IntervalLog() {
        if (fd_ >= 0)
            close(fd_);
    }
    bool Ok() const { return fd_ >= 0; }
    void Write(char what, const std::string& identity, const std::string& key) const {
        const auto now =
            std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
                .count();
        const std::string line = std::string(1, what) + " " + std::to_string(now) + " " + identity + " " + key + "\n";
        (void)!write(fd_, line.data(), line.size());
    }

  private:
    int fd_;
};

std::shared_ptr<ctrl::Reconciler> Stamper(ctrl::Manager& mgr, std::shared_ptr<IntervalLog> log, std::string id) {
    ctrl::client::Client* client = &mgr.GetClient();
    return ctrl::reconcile::AsReconciler(
        [client, log, id](ctrl::Context ctx, ctrl::Request request) -> ctrl::Task<ctrl::StatusOr<ctrl::Result>> {
            const std::string key = request.String();
            log->Write('B', id, key);
            ctrl::api::ConfigMap cm;
            ctrl::Status status = co_await client->Get(ctx, request, cm);
            if (status.Ok() && cm.Annotation("ctrl.io/member").value_or("") != id) {
                const std::string patch = R"({"metadata":{"annotations":{"ctrl.io/member":")" + id + R"("}}})";
                status = co_await client->Patch(ctx, cm,
                                                ctrl::client::RawPatch(ctrl::client::PatchType::kMergePatch, patch));
            }
            log->Write('E', id, key);
            if (!status.Ok() && !ctrl::IsNotFound(status))
                co_return status;
            co_return ctrl::Result{};
        });
}

int Fail(const ctrl::Status& status, const char* what) {
    std::fprintf(stderr, "ctrl-shard-stamper: %s: %s\n", what, status.ToString().c_str());
    return 1;
}

}  // namespace

int main(int argc, char** argv) {
    ctrl::StatusOr<StamperFlags> flags = Parse(argc, argv);
    if (!flags.Ok())
        return Fail(flags.GetStatus(), "bad flags");
    ctrl::StatusOr<ctrl::rest::Config> config = ctrl::GetConfig(flags->manager);
    if (!config.Ok())
        return Fail(config.GetStatus(), "loading the config");
    auto received = std::make_shared<ctrl::testing::ReceivedBytes>();
    config->wrap_transport = [received](std::unique_ptr<ctrl::rest::Transport> inner) {
        return std::unique_ptr<ctrl::rest::Transport>(
            std::make_unique<ctrl::testing::ByteCountingTransport>(std::move(inner), received));
    };
    ctrl::Options options;
    ctrl::manager::ApplyFlags(flags->manager, options);
    ctrl::cache::ByObject config_maps;
    config_maps.label_selector = *ctrl::LabelSelector::Parse("ctrl.io/shard-test=" + flags->run);
    options.cache.by_object[ctrl::scheme::GroupVersionKindOf<ctrl::api::ConfigMap>()] = std::move(config_maps);
    ctrl::StatusOr<std::unique_ptr<ctrl::Manager>> mgr = ctrl::NewManager(*config, std::move(options));
    if (!mgr.Ok())
        return Fail(mgr.GetStatus(), "making the manager");
    ctrl::metrics::GaugeFamily bytes = (*mgr)->GetMetricsRegistry().AddGauge(
        "stamper_watch_received_bytes", "Bytes of the watch streams this replica received.", {});
    (*mgr)->GetMetricsRegistry().AddCollectHook(
        [bytes, received]() mutable { bytes.WithLabelValues({}).Set(static_cast<double>(received->streams.load())); });

    auto log = std::make_shared<IntervalLog>(flags->intervals);
    if (!log->Ok())
        return Fail(ctrl::BadRequestError("cannot open " + flags->intervals), "the intervals file");
    ctrl::builder::Builder built = ctrl::builder::ControllerFor<ctrl::api::ConfigMap>(**mgr);
    built.Named("stamp").WithOptions(ctrl::controller::Options{.max_concurrent_reconciles = 2});
    if (!flags->no_ring) {
        ctrl::shardedcontroller::Options sharding;
        sharding.ring.ring = flags->ring;
        sharding.ring.identity = flags->identity;
        sharding.ring.namespace_name = flags->lease_namespace;
        sharding.ring.lease_duration = std::chrono::milliseconds(flags->lease_duration_ms);
        sharding.ring.renew_deadline = sharding.ring.lease_duration * 2 / 3;
        sharding.ring.retry_period = sharding.ring.lease_duration / 10;
        sharding.ring.registry = &(*mgr)->GetMetricsRegistry();
        sharding.client = &(*mgr)->GetAPIReader();
        built.ShardedBy(std::move(sharding));
    }
    const std::string id = flags->no_ring ? "unsharded" : flags->identity;
    const ctrl::Status wired = flags->no_ring
                                   ? built.Complete(ctrl::reconcile::AsReconciler(
                                         [](ctrl::Context, ctrl::Request) -> ctrl::Task<ctrl::StatusOr<ctrl::Result>> {
                                             co_return ctrl::Result{};
                                         }))
                                   : built.Complete(Stamper(**mgr, log, id));
    if (!wired.Ok())
        return Fail(wired, "wiring the controller");
    const ctrl::Status stopped = (*mgr)->Start(ctrl::SetupSignalHandler());
    if (!stopped.Ok())
        return Fail(stopped, "the manager stopped");
    return 0;
}
