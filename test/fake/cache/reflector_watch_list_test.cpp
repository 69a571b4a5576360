// The reflector's watch-list (issue 19) against the scripted fake API server: the list streamed as
// one watch and the watch going on after its end bookmark; the fallback to pages when the server
// refuses watch-lists (not asked for again) or the stream fails before that bookmark (tried again
// on the next relist); a 410 after a streamed list.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "test/fake/cache/reflector_fixture.hpp"

namespace ctrl::cache::test {
namespace {

using ::testing::ElementsAre;

// The bookmark that ends a watch-list's initial events.
std::string InitialEventsEnd(const std::string& rv) {
    return Event("BOOKMARK", R"({"kind":"Pod","apiVersion":"v1","metadata":{"resourceVersion":")" + rv +
                                 R"(","annotations":{"k8s.io/initial-events-end":"true"}}})");
}

bool IsWatchList(const FakeRequest& request) {
    return request.QueryParam("sendInitialEvents") == "true";
}

class ReflectorWatchListTest : public ReflectorFixture {
  protected:
    static ReflectorOptions WatchListOptions() {
        ReflectorOptions options = FastOptions();
        options.watch_list = true;
        return options;
    }
};

TEST_P(ReflectorWatchListTest, StreamsTheListThenKeepsWatchingOnTheSameStream) {
    script_.SetWatches(
        {OpenWatch(Event("ADDED", PodObject("a", "5")) + Bookmark("7") + Event("ADDED", PodObject("b", "6")) +
                   InitialEventsEnd("10") + Event("ADDED", PodObject("c", "11")) +
                   Event("MODIFIED", PodObject("a", "12")) + Event("DELETED", PodObject("b", "13")))});
    Start(WatchListOptions());
    ASSERT_TRUE(Eventually([&] { return reflector_->LastResourceVersion() == "13"; })) << reflector_->LastError();
    EXPECT_TRUE(reflector_->HasSynced());
    EXPECT_THAT(recorder_->Events(), ElementsAre("add ns/a 5 initial", "add ns/b 6 initial", "add ns/c 11",
                                                 "update ns/a 5->12", "delete ns/b 13"));
    EXPECT_THAT(StoreKeys(), ElementsAre("ns/a", "ns/c"));
    EXPECT_FALSE(store_.Get("ns", "a").Copy().HasManagedFields());  // transformed as listed objects are
    EXPECT_EQ(store_.LastSyncResourceVersion(), "10");              // the end bookmark's

    EXPECT_TRUE(script_.Lists().empty());
    const auto watches = script_.Watches();
    ASSERT_EQ(watches.size(), 1u);
    EXPECT_TRUE(IsWatchList(watches[0]));
    EXPECT_EQ(watches[0].QueryParam("resourceVersionMatch"), "NotOlderThan");
    EXPECT_EQ(watches[0].QueryParam("resourceVersion"), "");  // the latest, a consistent read
    EXPECT_EQ(watches[0].QueryParam("allowWatchBookmarks"), "true");
    EXPECT_EQ(watches[0].QueryParam("limit"), std::nullopt);
    const ReflectorStats stats = reflector_->Stats();
    EXPECT_EQ(stats.lists, 1);
    EXPECT_EQ(stats.watch_lists, 1);
    EXPECT_EQ(stats.list_pages, 0);
    EXPECT_EQ(stats.events, 3);
    EXPECT_EQ(stats.failures, 0);
}

TEST_P(ReflectorWatchListTest, NothingIsStoredOrSyncedBeforeTheEndBookmark) {
    script_.SetWatches({OpenWatch(Event("ADDED", PodObject("a", "5")) + Bookmark("6"))});
    Start(WatchListOptions());
    ASSERT_TRUE(Eventually([&] { return reflector_->Stats().bookmarks == 1; }));
    EXPECT_FALSE(reflector_->HasSynced());
    EXPECT_EQ(store_.Size(), 0u);
    EXPECT_EQ(recorder_->Count(), 0u);
}

TEST_P(ReflectorWatchListTest, RefusedWatchListFallsBackToPagesAndIsNotAskedForAgain) {
    script_.SetLists(
        {Json(PodList("10", {PodItem("a", "1"), PodItem("b", "2")})), Json(PodList("30", {PodItem("a", "25")}))});
    script_.SetWatches({FakeResponse::ApiStatus(422, "Invalid", "sendInitialEvents is forbidden for watch"),
                        OpenWatch(ExpiredEvent()), OpenWatch("")});
    Start(WatchListOptions());
    ASSERT_TRUE(Eventually([&] { return script_.Watches().size() == 3; }));
    EXPECT_THAT(StoreKeys(), ElementsAre("ns/a"));
    const auto watches = script_.Watches();
    EXPECT_TRUE(IsWatchList(watches[0]));
    EXPECT_FALSE(IsWatchList(watches[1]));
    EXPECT_EQ(watches[1].QueryParam("resourceVersion"), "10");
    EXPECT_FALSE(IsWatchList(watches[2])) << "a refused watch-list is not asked for again after the 410";
    EXPECT_EQ(watches[2].QueryParam("resourceVersion"), "30");
    EXPECT_EQ(script_.Lists().size(), 2u);
    EXPECT_THAT(recorder_->Events(),
                ElementsAre("add ns/a 1 initial", "add ns/b 2 initial", "update ns/a 1->25", "delete ns/b 2 unknown"));
    const ReflectorStats stats = reflector_->Stats();
    EXPECT_EQ(stats.watch_list_fallbacks, 1);
    EXPECT_EQ(stats.watch_lists, 0);
    EXPECT_EQ(stats.lists, 2);
}

// A stream that ends before its end bookmark: that list is made in pages at once; the relist after
// a later 410 streams again, and what vanished meanwhile is deleted as final-state-unknown.
TEST_P(ReflectorWatchListTest, StreamEndingBeforeItsBookmarkFallsBackToPagesThenStreamsAgain) {
    script_.SetLists({Json(PodList("10", {PodItem("a", "1"), PodItem("b", "2")}))});
    script_.SetWatches({FakeResponse::Stream({{.data = Event("ADDED", PodObject("a", "1"))}}, FakeEnd::kComplete),
                        OpenWatch(ExpiredEvent()),
                        OpenWatch(Event("ADDED", PodObject("a", "25")) + InitialEventsEnd("40") +
                                  Event("ADDED", PodObject("d", "41")))});
    Start(WatchListOptions());
    ASSERT_TRUE(Eventually([&] { return reflector_->LastResourceVersion() == "41"; })) << reflector_->LastError();
    EXPECT_THAT(StoreKeys(), ElementsAre("ns/a", "ns/d"));
    const auto watches = script_.Watches();
    ASSERT_EQ(watches.size(), 3u);
    EXPECT_TRUE(IsWatchList(watches[0]));
    EXPECT_FALSE(IsWatchList(watches[1]));
    EXPECT_EQ(watches[1].QueryParam("resourceVersion"), "10");
    EXPECT_TRUE(IsWatchList(watches[2])) << "a failed stream is tried again on the next list";
    EXPECT_EQ(script_.Lists().size(), 1u);
    // The half-streamed first attempt never reached the store or the handlers.
    EXPECT_THAT(recorder_->Events(), ElementsAre("add ns/a 1 initial", "add ns/b 2 initial", "update ns/a 1->25",
                                                 "delete ns/b 2 unknown", "add ns/d 41"));
    const ReflectorStats stats = reflector_->Stats();
    EXPECT_EQ(stats.watch_list_fallbacks, 1);
    EXPECT_EQ(stats.watch_lists, 1);
    EXPECT_EQ(stats.lists, 2);
    EXPECT_EQ(stats.expired, 1);
    EXPECT_TRUE(reflector_->LastError().Ok()) << reflector_->LastError();
}

TEST_P(ReflectorWatchListTest, ChangeBeforeTheEndBookmarkFallsBackToPages) {
    script_.SetLists({Json(PodList("10", {PodItem("a", "2")}))});
    script_.SetWatches(
        {OpenWatch(Event("ADDED", PodObject("a", "1")) + Event("MODIFIED", PodObject("a", "2"))), OpenWatch("")});
    Start(WatchListOptions());
    ASSERT_TRUE(Eventually([&] { return script_.Watches().size() == 2; }));
    EXPECT_THAT(recorder_->Events(), ElementsAre("add ns/a 2 initial"));
    EXPECT_EQ(reflector_->Stats().watch_list_fallbacks, 1);
    EXPECT_EQ(script_.Watches()[1].QueryParam("resourceVersion"), "10");
}

INSTANTIATE_TEST_SUITE_P(Transports, ReflectorWatchListTest,
                         ::testing::Values(rest::TransportKind::kBeast, rest::TransportKind::kCppRest), TransportName);

}  // namespace
}  // namespace ctrl::cache::test
