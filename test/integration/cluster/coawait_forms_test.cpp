// Issue 12, point 3: every natural way of writing a call inside a coroutine, against the real
// control plane and the cache. Built with GCC 12, which destroys some temporaries of a co_await
// expression twice (PR 99576); the API is shaped so that none of these forms builds such a
// temporary. Under AddressSanitizer (hack/test-sanitizers.sh, label asan-proof) a double free in
// any of them aborts the test; in a normal build it checks that each form does what it says.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <vector>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>

#include "ctrl/api/config_map.hpp"
#include "ctrl/api/namespace.hpp"
#include "ctrl/client/retry.hpp"
#include "ctrl/cluster/cluster.hpp"
#include "ctrl/controllerutil/create_or.hpp"
#include "ctrl/core/run_sync.hpp"
#include "test/support/control_plane_environment.hpp"
#include "test/support/kubeconfig_config.hpp"

namespace ctrl::cluster {
namespace {

using namespace std::chrono_literals;
using namespace ctrl::client;

std::string Suffix() {
    return "-" + std::to_string(::getpid());
}

// The forms, in one coroutine, each checked for its effect. Returns the first failure.
Task<Status> WriteEveryForm(Cluster& cluster, std::string ns) {
    Client& client = cluster.GetClient();
    Client& direct = cluster.GetAPIReader();
    cache::Cache& cache = cluster.GetCache();
    const Context ctx = Context::WithTimeout(Context::Background(), 60s);

    // A lambda written inline where a callback is taken (captureless), a braced GVK, a literal.
    CTRL_CO_RETURN_IF_ERROR(co_await cache.IndexField(ctx, {"", "v1", "ConfigMap"}, "data.tier", [](const Object& o) {
        StatusOr<std::string> tier = o.NestedString({"data", "tier"});
        return tier.Ok() ? std::vector<std::string>{*tier} : std::vector<std::string>{};
    }));

    // Option values inline, with literals and std::string temporaries.
    std::string last_write;
    for (int i = 0; i < 3; ++i) {
        api::ConfigMap cm;
        cm.SetNamespace(ns);
        cm.SetName("cm-" + std::to_string(i));
        cm.SetLabel("app", i < 2 ? "web" : "db");
        cm.SetDataValue("tier", i == 0 ? "gold" : "silver");
        CTRL_CO_RETURN_IF_ERROR(
            co_await client.Create(ctx, cm, FieldOwner("proof"), FieldValidation(std::string("Strict"))));
        last_write = cm.ResourceVersion();
    }
    api::ConfigMap dry;
    dry.SetNamespace(ns);
    dry.SetName("dry");
    CTRL_CO_RETURN_IF_ERROR(co_await client.Create(ctx, dry, DryRunAll(), FieldOwner(std::string("proof-") + "dry")));

    // A braced key; a key built from temporaries; a literal namespace.
    api::ConfigMap read;
    CTRL_CO_RETURN_IF_ERROR(co_await client.Get(ctx, {ns, "cm-0"}, read));
    if (read.DataValue("tier") != "gold")
        co_return InternalError("braced key read the wrong object");
    // From the server's watch cache, no older than the last write ("0" could miss it: NotFound).
    CTRL_CO_RETURN_IF_ERROR(
        co_await direct.Get(ctx, ObjectKey(ns, std::string("cm-") + "1"), read, ResourceVersion(last_write)));
    api::ConfigMap missing;
    if (Status s = co_await client.Get(ctx, {ns, "dry"}, missing); !IsNotFound(s))
        co_return InternalError("the dry-run object exists: " + s.ToString());

    // Label and field selectors inline, on the cache and on the server.
    api::ConfigMapList web;
    CTRL_CO_RETURN_IF_ERROR(co_await client.List(ctx, web, InNamespace(ns), MatchingLabels("app", "web")));
    api::ConfigMapList web_direct;
    CTRL_CO_RETURN_IF_ERROR(co_await direct.List(ctx, web_direct, InNamespace(std::string(ns)),
                                                 MatchingLabelsSelector(*LabelSelector::Parse("app in (web)")),
                                                 Limit(10)));
    api::ConfigMapList by_name;
    CTRL_CO_RETURN_IF_ERROR(
        co_await client.List(ctx, by_name, InNamespace(ns), MatchingFields("metadata.name", "cm-2")));
    api::ConfigMapList gold;
    CTRL_CO_RETURN_IF_ERROR(co_await client.List(ctx, gold, InNamespace(ns), MatchingFields("data.tier", "gold")));
    if (web.Items().size() != 2 || web_direct.Items().size() != 2 || by_name.Items().size() != 1 ||
        gold.Items().size() != 1)
        co_return InternalError("a selector selected the wrong objects");

    // Shared reads of the cache with braced GVK and key.
    StatusOr<std::shared_ptr<const Object>> shared =
        co_await cache.GetShared(ctx, {"", "v1", "ConfigMap"}, {ns, "cm-2"});
    CTRL_CO_RETURN_IF_ERROR(shared.GetStatus());
    StatusOr<std::vector<std::shared_ptr<const Object>>> all =
        co_await cache.ListShared(ctx, {"", "v1", "ConfigMap"}, InNamespace(ns), MatchingLabels("app", "db"));
    CTRL_CO_RETURN_IF_ERROR(all.GetStatus());
    if (all->size() != 1)
        co_return InternalError("ListShared selected the wrong objects");

    // Patches and updates with inline options; a [&] lambda where RetryOnConflict takes one.
    api::ConfigMap target;
    CTRL_CO_RETURN_IF_ERROR(co_await direct.Get(ctx, {ns, "cm-1"}, target));
    const api::ConfigMap original = target.DeepCopy();
    target.SetDataValue("patched", "yes");
    CTRL_CO_RETURN_IF_ERROR(co_await client.Patch(ctx, target, MergeFrom(original), FieldOwner("patcher")));
    CTRL_CO_RETURN_IF_ERROR(
        co_await client.Patch(ctx, target, StrategicMergeFrom(original, {.optimistic_lock = false})));
    CTRL_CO_RETURN_IF_ERROR(co_await RetryOnConflict(ctx, kDefaultRetry, [&]() -> Task<Status> {
        api::ConfigMap fresh;
        CTRL_CO_RETURN_IF_ERROR(co_await direct.Get(ctx, {ns, "cm-1"}, fresh));
        fresh.SetLabel("retried", "yes");
        co_return co_await client.Update(ctx, fresh, FieldOwner("retrier"));
    }));
    // A lambda capturing a std::string by copy, named first, where CreateOrUpdate takes one (written
    // inside the call it does not compile: GCC 12 would free the string twice).
    api::ConfigMap upserted;
    upserted.SetNamespace(ns);
    upserted.SetName("upserted");
    const std::string color = std::string("bl") + "ue";
    const auto mutate = [color, &upserted]() {
        upserted.SetDataValue("color", color);
        return OkStatus();
    };
    CTRL_CO_ASSIGN_OR_RETURN(controllerutil::OperationResult upsert,
                             co_await controllerutil::CreateOrUpdate(ctx, client, upserted, mutate));
    if (upsert != controllerutil::OperationResult::kCreated || upserted.DataValue("color") != "blue")
        co_return InternalError("CreateOrUpdate with a named mutate did not create the object");
    api::ConfigMap applied;
    applied.SetNamespace(ns);
    applied.SetName("applied");
    applied.SetDataValue("k", "v");
    CTRL_CO_RETURN_IF_ERROR(co_await client.Patch(ctx, applied, Apply(), FieldOwner("applier"), ForceOwnership()));

    // Deletes with inline options.
    api::ConfigMap doomed;
    CTRL_CO_RETURN_IF_ERROR(co_await direct.Get(ctx, {ns, "applied"}, doomed));
    CTRL_CO_RETURN_IF_ERROR(co_await client.Delete(ctx, doomed, GracePeriodSeconds(0),
                                                   PropagationPolicy(DeletionPropagation::kBackground),
                                                   DeletePreconditions({std::string(doomed.Uid()), std::nullopt})));
    api::ConfigMap kind;
    CTRL_CO_RETURN_IF_ERROR(co_await client.DeleteAllOf(ctx, kind, InNamespace(ns), MatchingLabels("app", "db")));
    api::ConfigMapList left;
    CTRL_CO_RETURN_IF_ERROR(co_await direct.List(ctx, left, InNamespace(ns)));
    if (left.Items().size() != 3)
        co_return InternalError("DeleteAllOf deleted the wrong objects: " + std::to_string(left.Items().size()) +
                                " left");
    CTRL_CO_RETURN_IF_ERROR(co_await cluster.WaitForCacheSync(Context::WithTimeout(ctx, 30s)));
    co_return OkStatus();
}

TEST(CoAwaitFormsTest, EveryNaturalFormRunsCleanly) {
    boost::asio::io_context io;
    auto work = boost::asio::make_work_guard(io);
    std::thread loop([&] { io.run(); });
    const StatusOr<rest::Config> config = ctrl::testing::SharedAdminConfig();
    StatusOr<std::unique_ptr<Cluster>> cluster = Cluster::New(*config, io.get_executor());
    ASSERT_TRUE(cluster.Ok()) << cluster.GetStatus();
    const Context stop = Context::WithCancel(Context::Background());
    (*cluster)->Start(stop);

    const std::string ns = "coawait-forms" + Suffix();
    api::Namespace created;
    created.SetName(ns);
    ASSERT_TRUE(RunOn(io.get_executor(),
                      (*cluster)->GetAPIReader().Create(Context::WithTimeout(Context::Background(), 30s), created))
                    .Ok());
    const Status result = RunOn(io.get_executor(), WriteEveryForm(**cluster, ns));
    EXPECT_TRUE(result.Ok()) << result;

    stop.Cancel();
    cluster->reset();
    work.reset();
    io.stop();
    loop.join();
}

}  // namespace
}  // namespace ctrl::cluster
