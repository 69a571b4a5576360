// The client API's shape: object forms, handles that are safe inside a co_await expression under
// GCC 12, and RetryOnConflict / RetryOnError (no server needed).

#include <gtest/gtest.h>

#include <type_traits>

#include <boost/asio/io_context.hpp>

#include "ctrl/api/pod.hpp"
#include "ctrl/client/object_form.hpp"
#include "ctrl/client/retry.hpp"
#include "ctrl/client/sub_resource_client.hpp"
#include "ctrl/core/run_sync.hpp"
#include "test/support/eventually.hpp"

namespace ctrl::client {
namespace {

using ctrl::testing::TestContext;

static_assert(FormOf<api::Pod>() == ObjectForm::kTyped);
static_assert(FormOf<Object>() == ObjectForm::kUnstructured);
static_assert(FormOf<PartialObjectMetadata>() == ObjectForm::kMetadata);
static_assert(ListFormOf<api::PodList>() == ObjectForm::kTyped);
static_assert(ListFormOf<ObjectList>() == ObjectForm::kUnstructured);
static_assert(ListFormOf<PartialObjectMetadataList>() == ObjectForm::kMetadata);
// Temporaries of these types may appear in a co_await expression even under GCC 12.
static_assert(std::is_trivially_destructible_v<SubResourceClient>);
static_assert(std::is_trivially_destructible_v<Backoff>);

TEST(PartialObjectMetadataTest, CarriesTheKindItStandsFor) {
    PartialObjectMetadata pod({"", "v1", "Pod"});
    EXPECT_EQ(pod.ApiVersion(), "v1");
    EXPECT_EQ(pod.Kind(), "Pod");
    pod.SetName("web");
    const PartialObjectMetadata copy = pod.DeepCopy();
    EXPECT_EQ(copy.Name(), "web");
    PartialObjectMetadataList pods({"apps", "v1", "Deployment"});
    EXPECT_EQ(pods.ApiVersion(), "apps/v1");
    EXPECT_EQ(pods.Kind(), "DeploymentList");
}

TEST(RetryTest, RetriesConflictsUntilTheAttemptSucceeds) {
    boost::asio::io_context io;
    int attempts = 0;
    const Backoff fast{std::chrono::milliseconds(1), 2.0, 0.1, 5, std::chrono::milliseconds(4)};
    Status done = RunSync(io, RetryOnConflict(TestContext(), fast, [&]() -> Task<Status> {
                              ++attempts;
                              co_return attempts < 3 ? ConflictError("stale") : OkStatus();
                          }));
    EXPECT_TRUE(done.Ok()) << done;
    EXPECT_EQ(attempts, 3);
}

TEST(RetryTest, OtherErrorsEndAtOnceAndExhaustedStepsReturnTheLastConflict) {
    boost::asio::io_context io;
    int attempts = 0;
    Status other = RunSync(io, RetryOnConflict(TestContext(), kDefaultRetry, [&]() -> Task<Status> {
                               ++attempts;
                               co_return NotFoundError("gone");
                           }));
    EXPECT_TRUE(IsNotFound(other));
    EXPECT_EQ(attempts, 1);

    attempts = 0;
    const Backoff three{std::chrono::milliseconds(1), 1.0, 0.0, 3, std::chrono::milliseconds(0)};
    Status exhausted = RunSync(io, RetryOnConflict(TestContext(), three, [&]() -> Task<Status> {
                                   ++attempts;
                                   co_return ConflictError("stale " + std::to_string(attempts));
                               }));
    EXPECT_TRUE(IsConflict(exhausted));
    EXPECT_EQ(exhausted.Message(), "stale 3");
    EXPECT_EQ(attempts, 3);
}

TEST(RetryTest, AnEndedContextStopsTheWait) {
    boost::asio::io_context io;
    Context ctx = Context::WithCancel(TestContext());
    int attempts = 0;
    const Backoff slow{std::chrono::milliseconds(60000), 1.0, 0.0, 5, std::chrono::milliseconds(0)};
    Status cancelled = RunSync(io, RetryOnConflict(ctx, slow, [&]() -> Task<Status> {
                                   ++attempts;
                                   ctx.Cancel();
                                   co_return ConflictError("stale");
                               }));
    EXPECT_TRUE(IsCancelled(cancelled)) << cancelled;
    EXPECT_EQ(attempts, 1);
}

TEST(RetryTest, WaitsGrowByTheFactorAndStopAtTheCap) {
    const Backoff backoff{std::chrono::milliseconds(10), 5.0, 0.0, 4, std::chrono::milliseconds(200)};
    EXPECT_EQ(internal::WaitAfter(backoff, 0), std::chrono::milliseconds(10));
    EXPECT_EQ(internal::WaitAfter(backoff, 1), std::chrono::milliseconds(50));
    EXPECT_EQ(internal::WaitAfter(backoff, 2), std::chrono::milliseconds(200));
    const Backoff jittered{std::chrono::milliseconds(100), 1.0, 0.5, 4, std::chrono::milliseconds(0)};
    for (int i = 0; i < 50; ++i) {
        const auto wait = internal::WaitAfter(jittered, 0);
        EXPECT_GE(wait, std::chrono::milliseconds(100));
        EXPECT_LE(wait, std::chrono::milliseconds(150));
    }
}

}  // namespace
}  // namespace ctrl::client
