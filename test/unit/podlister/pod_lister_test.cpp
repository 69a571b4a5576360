#include "controllers/podlister/pod_lister.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <boost/asio/io_context.hpp>

#include "ctrl/core/run_sync.hpp"
#include "test/support/eventually.hpp"

namespace ctrl::podlister {
namespace {

using ctrl::testing::TestContext;
using ::testing::HasSubstr;

// A Reader serving `count` pods in pages: the continue token is the index of the next pod. It
// records every request and can fail one of them.
class PagingReader final : public client::Reader {
  public:
    explicit PagingReader(int count) : count_(count) {}

    struct Request {
        std::optional<int64_t> limit;
        std::string continue_token;
    };
    std::vector<Request> requests;
    // The request (0-based) that fails with fail_with.
    int fail_request = -1;
    Status fail_with{};

    Task<Status> GetObject(Context, ObjectKey, Object&, client::ObjectForm, client::GetOptions) override {
        co_return InternalError("not used");
    }
    Task<Status> ListObjects(Context, ObjectList& list, client::ObjectForm form, client::ListOptions options) override {
        EXPECT_EQ(form, client::ObjectForm::kTyped);
        EXPECT_EQ(options.namespace_name, "");  // every namespace
        requests.push_back({options.limit, options.continue_token});
        if (static_cast<int>(requests.size()) - 1 == fail_request)
            co_return fail_with;
        int begin = options.continue_token.empty() ? 0 : std::stoi(options.continue_token);
        int end = options.limit ? std::min<int64_t>(count_, begin + *options.limit) : count_;
        list.Items().clear();
        for (int i = begin; i < end; ++i) {
            Object pod;
            pod.SetNamespace("ns-" + std::to_string(i / 100));
            pod.SetName("pod-" + std::to_string(i));
            list.Items().push_back(std::move(pod));
        }
        list.SetResourceVersion("42");
        list.SetContinue(end < count_ ? std::to_string(end) : "");
        co_return OkStatus();
    }

  private:
    int count_;
};

StatusOr<PodListing> List(PagingReader& reader, int64_t chunk_size) {
    boost::asio::io_context io;
    return RunSync(io, ListAllPods(TestContext(), reader, chunk_size));
}

TEST(ListAllPodsTest, PagesUntilTheServerHasNoMore) {
    PagingReader reader(600);
    StatusOr<PodListing> listing = List(reader, 50);
    ASSERT_TRUE(listing.Ok()) << listing.GetStatus();
    EXPECT_EQ(listing->pages, 12);
    EXPECT_FALSE(listing->relisted);
    ASSERT_EQ(listing->pods.Items().size(), 600u);
    for (int i = 0; i < 600; ++i)
        ASSERT_EQ(listing->pods.Items()[i].Name(), "pod-" + std::to_string(i));
    EXPECT_EQ(listing->pods.Continue(), "");
    EXPECT_EQ(listing->pods.ResourceVersion(), "42");
    ASSERT_EQ(reader.requests.size(), 12u);
    EXPECT_EQ(reader.requests[0].continue_token, "");
    EXPECT_EQ(reader.requests[11].continue_token, "550");
    for (const auto& request : reader.requests)
        EXPECT_EQ(request.limit, 50);
}

TEST(ListAllPodsTest, OnePageWhenEverythingFits) {
    PagingReader reader(3);
    StatusOr<PodListing> listing = List(reader, 500);
    ASSERT_TRUE(listing.Ok());
    EXPECT_EQ(listing->pages, 1);
    EXPECT_EQ(listing->pods.Items().size(), 3u);
    PagingReader none(0);
    listing = List(none, 500);
    ASSERT_TRUE(listing.Ok());
    EXPECT_EQ(listing->pages, 1);
    EXPECT_TRUE(listing->pods.Items().empty());
}

// An expired continue token (410) is answered with one full list, as client-go's pager does.
TEST(ListAllPodsTest, ExpiredContinueRelistsInOneRequest) {
    PagingReader reader(250);
    reader.fail_request = 2;
    reader.fail_with = GoneError("The provided continue parameter is too old").WithReason("Expired");
    StatusOr<PodListing> listing = List(reader, 100);
    ASSERT_TRUE(listing.Ok()) << listing.GetStatus();
    EXPECT_TRUE(listing->relisted);
    EXPECT_EQ(listing->pages, 4);
    EXPECT_EQ(listing->pods.Items().size(), 250u);  // not 450: the first pages were dropped
    ASSERT_EQ(reader.requests.size(), 4u);
    EXPECT_EQ(reader.requests[3].limit, std::nullopt);
    EXPECT_EQ(reader.requests[3].continue_token, "");
}

TEST(ListAllPodsTest, AnErrorNamesThePage) {
    PagingReader reader(250);
    reader.fail_request = 1;
    reader.fail_with = ForbiddenError("pods is forbidden: User \"bob\" cannot list resource \"pods\"");
    StatusOr<PodListing> listing = List(reader, 100);
    ASSERT_FALSE(listing.Ok());
    EXPECT_TRUE(IsForbidden(listing.GetStatus()));
    EXPECT_THAT(listing.GetStatus().Message(), HasSubstr("listing pods in all namespaces (page 2, chunk size 100)"));
    EXPECT_THAT(listing.GetStatus().Message(), HasSubstr("cannot list resource"));
    EXPECT_EQ(reader.requests.size(), 2u);
}

// A 410 on the first page is not an expired continue token: it is returned.
TEST(ListAllPodsTest, GoneOnTheFirstPageIsAnError) {
    PagingReader reader(10);
    reader.fail_request = 0;
    reader.fail_with = GoneError("gone");
    EXPECT_TRUE(IsGone(List(reader, 5).GetStatus()));
}

TEST(ListAllPodsTest, ChunkSizeMustBePositive) {
    PagingReader reader(10);
    EXPECT_TRUE(IsBadRequest(List(reader, 0).GetStatus()));
    EXPECT_TRUE(reader.requests.empty());
}

}  // namespace
}  // namespace ctrl::podlister
