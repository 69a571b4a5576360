#include "test/support/workload.hpp"

#include <cstdio>
#include <exception>
#include <utility>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>

#include "ctrl/api/namespace.hpp"

namespace ctrl::testing {
namespace {

using Clock = std::chrono::steady_clock;

// What the create workers share. They all run on one strand, so plain fields are enough.
struct CreateRun {
    client::Client& client;
    const WorkloadOptions& options;
    Context ctx;
    int next = 0;
    int total = 0;
    WorkloadReport report{};
    Status error{};
};

Task<void> CreateWorker(CreateRun& run) {
    while (run.error.Ok() && run.next < run.total) {
        const int index = run.next++;
        const int namespace_index = index / run.options.pods_per_namespace;
        const int pod_index = index % run.options.pods_per_namespace;
        api::Pod pod = WorkloadPod(run.options, namespace_index, pod_index);
        Context ctx = Context::WithTimeout(run.ctx, run.options.request_timeout);
        client::CreateOptions create_options;  // named: a defaulted argument inside co_await is freed twice (GCC 12)
        Status created = co_await run.client.Create(std::move(ctx), pod, std::move(create_options));
        if (created.Ok()) {
            ++run.report.pods;
        } else if (IsAlreadyExists(created)) {
            ++run.report.pods_existing;
        } else if (run.error.Ok()) {
            run.error = created.Annotate("creating pod " + WorkloadNamespace(run.options, namespace_index) + "/" +
                                         WorkloadPodName(run.options, pod_index));
        }
    }
}

// Runs options.concurrency CreateWorkers on the current executor (a strand) until all end.
Task<void> RunCreateWorkers(CreateRun& run) {
    auto executor = co_await boost::asio::this_coro::executor;
    boost::asio::steady_timer all_done(executor, Clock::time_point::max());
    int running = run.options.concurrency;
    auto on_worker_end = [&](std::exception_ptr e) {
        if (e && run.error.Ok())
            run.error = InternalError("a workload create worker threw");
        if (--running == 0)
            all_done.cancel();
    };
    for (int i = 0; i < run.options.concurrency; ++i)
        boost::asio::co_spawn(executor, CreateWorker(run), on_worker_end);
    if (running > 0) {
        boost::system::error_code ignored;
        auto token = boost::asio::redirect_error(boost::asio::use_awaitable, ignored);
        co_await all_done.async_wait(token);
    }
}

Status CheckOptions(const WorkloadOptions& options) {
    if (options.namespaces < 1 || options.pods_per_namespace < 0 || options.concurrency < 1 || options.nodes < 0)
        return BadRequestError("workload: namespaces and concurrency must be >= 1, pods and nodes >= 0");
    if (options.prefix.empty())
        return BadRequestError("workload: the prefix must not be empty");
    return OkStatus();
}

int Milliseconds(Clock::duration d) {
    return static_cast<int>(std::chrono::duration_cast<std::chrono::milliseconds>(d).count());
}

}  // namespace

double WorkloadReport::PodsPerSecond() const {
    return took.count() > 0 ? pods * 1000.0 / static_cast<double>(took.count()) : 0.0;
}

std::string WorkloadNamespace(const WorkloadOptions& options, int namespace_index) {
    return options.prefix + "-" + std::to_string(namespace_index + 1);
}

std::string WorkloadPodName(const WorkloadOptions& options, int pod_index) {
    (void)options;
    char name[32];
    std::snprintf(name, sizeof(name), "pod-%04d", pod_index);
    return name;
}

Task<StatusOr<WorkloadReport>> CreateWorkload(Context ctx, client::Client& client, WorkloadOptions options) {
    CTRL_CO_RETURN_IF_ERROR(CheckOptions(options));
    const Clock::time_point start = Clock::now();
    int namespaces_created = 0;
    for (int n = 0; n < options.namespaces; ++n) {
        api::Namespace ns;
        ns.SetName(WorkloadNamespace(options, n));
        ns.SetLabel(std::string(kWorkloadLabel), options.prefix);
        Context request_ctx = Context::WithTimeout(ctx, options.request_timeout);
        client::CreateOptions create_options;
        Status created = co_await client.Create(std::move(request_ctx), ns, std::move(create_options));
        if (created.Ok()) {
            ++namespaces_created;
        } else if (!IsAlreadyExists(created)) {
            co_return created.Annotate("creating namespace " + WorkloadNamespace(options, n));
        }
    }

    CreateRun run{.client = client, .options = options, .ctx = ctx};
    run.total = options.namespaces * options.pods_per_namespace;
    auto executor = co_await boost::asio::this_coro::executor;
    auto strand = boost::asio::make_strand(executor);
    Task<void> workers = RunCreateWorkers(run);
    co_await boost::asio::co_spawn(strand, std::move(workers), boost::asio::use_awaitable);
    if (!run.error.Ok())
        co_return run.error;
    run.report.namespaces = namespaces_created;
    run.report.took = std::chrono::milliseconds(Milliseconds(Clock::now() - start));
    co_return run.report;
}

Task<StatusOr<WorkloadReport>> DeleteWorkload(Context ctx, client::Client& client, WorkloadOptions options) {
    CTRL_CO_RETURN_IF_ERROR(CheckOptions(options));
    const Clock::time_point start = Clock::now();
    WorkloadReport report;
    for (int n = 0; n < options.namespaces; ++n) {
        const std::string ns_name = WorkloadNamespace(options, n);
        client::PartialObjectMetadataList pods(scheme::GroupVersionKindOf<api::Pod>());
        client::ListOptions list_options;
        list_options.namespace_name = ns_name;
        Context list_ctx = Context::WithTimeout(ctx, options.request_timeout);
        Status listed = co_await client.List(std::move(list_ctx), pods, std::move(list_options));
        if (!listed.Ok())
            co_return listed.Annotate("listing the pods of namespace " + ns_name);
        if (!pods.Items().empty()) {
            api::Pod kind;
            client::DeleteAllOfOptions delete_options;
            delete_options.list.namespace_name = ns_name;
            delete_options.delete_options.grace_period_seconds = 0;
            Context delete_ctx = Context::WithTimeout(ctx, options.request_timeout);
            Status deleted = co_await client.DeleteAllOf(std::move(delete_ctx), kind, std::move(delete_options));
            if (!deleted.Ok())
                co_return deleted.Annotate("deleting the pods of namespace " + ns_name);
            report.pods += static_cast<int>(pods.Items().size());
        }
        api::Namespace ns;
        ns.SetName(ns_name);
        Context ns_ctx = Context::WithTimeout(ctx, options.request_timeout);
        client::DeleteOptions delete_options;
        Status deleted = co_await client.Delete(std::move(ns_ctx), ns, std::move(delete_options));
        if (deleted.Ok()) {
            ++report.namespaces;
        } else if (!IsNotFound(deleted)) {
            co_return deleted.Annotate("deleting namespace " + ns_name);
        }
    }
    report.took = std::chrono::milliseconds(Milliseconds(Clock::now() - start));
    co_return report;
}

}  // namespace ctrl::testing
