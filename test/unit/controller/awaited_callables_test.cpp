// Every call that takes a callable and may be awaited refuses, at compile time, a temporary callable
// whose destructor is not trivial (GCC 12 destroys it twice inside a co_await expression), and
// accepts a named one, a [&] lambda and a captureless one. Proven per call with requires-expressions;
// then the accepted forms are called inside co_await (test/integration/cluster/coawait_forms_test.cpp
// runs them against the real server under ASan).
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <boost/asio/io_context.hpp>

#include "ctrl/api/config_map.hpp"
#include "ctrl/cache/cache.hpp"
#include "ctrl/cache/informers.hpp"
#include "ctrl/client/client.hpp"
#include "ctrl/client/retry.hpp"
#include "ctrl/controllerutil/create_or.hpp"
#include "ctrl/core/run_sync.hpp"
#include "ctrl/fake/client_builder.hpp"
#include "ctrl/handler/enqueue_requests_from_map_func.hpp"
#include "test/support/eventually.hpp"

namespace ctrl {
namespace {

// The closures' types (C++20 lets a lambda appear in decltype): by copy of a std::string (refused as
// a temporary), by reference and captureless (accepted as temporaries), for each signature.
const std::string kKey = "key";

using ExtractCopies = decltype([key = kKey](const Object&) { return std::vector<std::string>{key}; });
using ExtractByReference = decltype([&key = kKey](const Object&) { return std::vector<std::string>{key}; });
using ExtractCaptureless = decltype([](const Object& o) { return std::vector<std::string>{std::string(o.Name())}; });

using AttemptCopies = decltype([key = kKey]() -> Task<Status> { co_return key.empty() ? OkStatus() : OkStatus(); });
using AttemptByReference = decltype([&key = kKey]() -> Task<Status> {
    co_return key.empty() ? OkStatus() : OkStatus();
});

using MutateCopies = decltype([key = kKey]() { return key.empty() ? OkStatus() : OkStatus(); });
using MutateByReference = decltype([&key = kKey]() { return key.empty() ? OkStatus() : OkStatus(); });

using MapCopies = decltype([key = kKey](const Context&, const Object&) {
    return std::vector<reconcile::Request>{reconcile::Request("default", key)};
});
using MapByReference = decltype([&key = kKey](const Context&, const Object&) {
    return std::vector<reconcile::Request>{reconcile::Request("default", key)};
});

using AsyncMapCopies = decltype([key = kKey](Context,
                                             std::shared_ptr<const Object>) -> Task<std::vector<reconcile::Request>> {
    co_return std::vector<reconcile::Request>{reconcile::Request("default", key)};
});

// cache IndexField (on the Cache and on the Informers interface).
template <typename C, typename F>
concept IndexesField = requires(C& c, Context ctx, GroupVersionKind gvk, F&& f) {
    c.IndexField(ctx, gvk, "data.key", std::forward<F>(f));
};
static_assert(!IndexesField<cache::Cache, ExtractCopies>);
static_assert(!IndexesField<cache::Informers, ExtractCopies>);
static_assert(IndexesField<cache::Cache, ExtractCopies&>);
static_assert(IndexesField<cache::Cache, const ExtractCopies&>);
static_assert(IndexesField<cache::Informers, ExtractCopies&>);
static_assert(IndexesField<cache::Cache, ExtractByReference>);
static_assert(IndexesField<cache::Cache, ExtractCaptureless>);
static_assert(IndexesField<cache::Cache, cache::FieldExtractor>);

// client RetryOnConflict and RetryOnError.
template <typename F>
concept RetriesOnConflict = requires(Context ctx, F&& f) {
    client::RetryOnConflict(ctx, client::kDefaultRetry, std::forward<F>(f));
};
template <typename R, typename F>
concept RetriesOnError = requires(Context ctx, R&& r, F&& f) {
    client::RetryOnError(ctx, client::kDefaultRetry, std::forward<R>(r), std::forward<F>(f));
};
using RetriableCopies = decltype([s = std::string()](const Status&) { return s.empty(); });
using RetriableCaptureless = decltype([](const Status& s) { return IsConflict(s); });
static_assert(!RetriesOnConflict<AttemptCopies>);
static_assert(RetriesOnConflict<AttemptCopies&>);
static_assert(RetriesOnConflict<AttemptByReference>);
static_assert(!RetriesOnError<RetriableCaptureless, AttemptCopies>);
static_assert(!RetriesOnError<RetriableCopies, AttemptByReference>);
static_assert(RetriesOnError<RetriableCopies&, AttemptByReference>);
static_assert(RetriesOnError<RetriableCaptureless, AttemptByReference>);

// controllerutil CreateOrUpdate and CreateOrPatch.
template <typename F>
concept CreatesOrUpdates = requires(Context ctx, client::Client& c, api::ConfigMap& cm, F&& f) {
    controllerutil::CreateOrUpdate(ctx, c, cm, std::forward<F>(f));
};
template <typename F>
concept CreatesOrPatches = requires(Context ctx, client::Client& c, api::ConfigMap& cm, F&& f) {
    controllerutil::CreateOrPatch(ctx, c, cm, std::forward<F>(f));
};
static_assert(!CreatesOrUpdates<MutateCopies> && !CreatesOrPatches<MutateCopies>);
static_assert(CreatesOrUpdates<MutateCopies&> && CreatesOrPatches<MutateCopies&>);
static_assert(CreatesOrUpdates<MutateByReference> && CreatesOrPatches<MutateByReference>);

// handler EnqueueRequestsFromMapFunc and its async form (built inside a co_await, as a builder
// chain may be).
template <typename F>
concept MapsRequests = requires(F&& f) {
    handler::EnqueueRequestsFromMapFunc(std::forward<F>(f));
};
template <typename F>
concept MapsRequestsAsync = requires(boost::asio::any_io_executor ex, F&& f) {
    handler::EnqueueRequestsFromAsyncMapFunc(ex, std::forward<F>(f));
};
static_assert(!MapsRequests<MapCopies>);
static_assert(MapsRequests<MapCopies&>);
static_assert(MapsRequests<MapByReference>);
static_assert(!MapsRequestsAsync<AsyncMapCopies>);
static_assert(MapsRequestsAsync<AsyncMapCopies&>);

// The accepted forms work: a named callable with copies and a [&] one, inside co_await.
TEST(AwaitedCallablesTest, NamedAndByReferenceCallablesRunInsideCoAwait) {
    boost::asio::io_context io;
    auto built = fake::NewClientBuilder().Build();
    ASSERT_TRUE(built.Ok()) << built.GetStatus();
    client::Client& writer = **built;
    const std::string color = "blue";
    api::ConfigMap cm;
    cm.SetNamespace("default");
    cm.SetName("colors");
    const auto mutate = [color, &cm]() {  // by copy: named first
        cm.SetDataValue("color", color);
        return OkStatus();
    };
    int attempts = 0;
    const Status done = RunSync(io, [&]() -> Task<Status> {
        CTRL_CO_ASSIGN_OR_RETURN(controllerutil::OperationResult created,
                                 co_await controllerutil::CreateOrUpdate(testing::TestContext(), writer, cm, mutate));
        EXPECT_EQ(created, controllerutil::OperationResult::kCreated);
        co_return co_await client::RetryOnConflict(
            testing::TestContext(), client::kDefaultRetry, [&]() -> Task<Status> {
                ++attempts;
                CTRL_CO_RETURN_IF_ERROR(
                    co_await writer.Get(testing::TestContext(), ObjectKey("default", "colors"), cm));
                co_return cm.DataValue("color") == color ? OkStatus() : InternalError("not written");
            });
    }());
    EXPECT_TRUE(done.Ok()) << done;
    EXPECT_EQ(attempts, 1);
}

}  // namespace
}  // namespace ctrl
