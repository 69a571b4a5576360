// Read-your-own-writes, the parts without a server: comparing resourceVersions as Kubernetes does
// (KEP-5504), the table of pending writes, and waits that an informer's progress ends (never a poll).
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <thread>

#include <boost/asio/io_context.hpp>

#include "ctrl/cache/internal/version_waiters.hpp"
#include "ctrl/cache/internal/written_versions.hpp"
#include "ctrl/cache/store.hpp"
#include "ctrl/core/run_sync.hpp"

namespace ctrl::cache {
namespace {

using namespace std::chrono_literals;

Object ConfigMap(std::string_view name, std::string_view rv) {
    auto object = Object::Parse(R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":")" + std::string(name) +
                                R"(","namespace":"ns","resourceVersion":")" + std::string(rv) + R"("}})");
    EXPECT_TRUE(object.Ok()) << object.GetStatus();
    return std::move(object).Value();
}

TEST(ComparableResourceVersionTest, WellFormedDecimalsCompareAsNumbers) {
    EXPECT_EQ(ComparableResourceVersion("1"), 1u);
    EXPECT_EQ(ComparableResourceVersion("98765"), 98765u);
    EXPECT_EQ(ComparableResourceVersion("9223372036854775807"), 9223372036854775807u);
    // Longer is greater, as CompareResourceVersion says: the numbers order the same way.
    EXPECT_LT(ComparableResourceVersion("999"), ComparableResourceVersion("1000"));
}

TEST(ComparableResourceVersionTest, AnythingElseDoesNotCompare) {
    for (std::string_view rv : {"", "0", "012", "12a", "-1", " 12", "1.5", "abc", "12345678901234567890"})
        EXPECT_EQ(ComparableResourceVersion(rv), 0u) << "\"" << rv << "\"";
}

TEST(WrittenVersionsTest, KeepsTheLatestWriteOfEachKeyAndForgetsOnlyWhatWasSeen) {
    internal::WrittenVersions written;
    EXPECT_TRUE(written.Empty());
    written.Record("ns", "a", MakeWrittenVersion("10", false));
    written.Record("ns", "a", MakeWrittenVersion("7", false));  // older: a late report
    written.Record("ns", "b", MakeWrittenVersion("12", false));
    written.Record("other", "c", MakeWrittenVersion("11", false));
    EXPECT_EQ(written.Size(), 3u);
    EXPECT_EQ(written.Find("ns", "a")->number, 10u);
    EXPECT_FALSE(written.Find("ns", "z"));
    EXPECT_EQ(written.In("ns").size(), 2u);
    EXPECT_EQ(written.In("").size(), 3u);
    EXPECT_EQ(written.In("nope").size(), 0u);

    written.Record("ns", "a", MakeWrittenVersion("15", true));
    written.Forget("ns", "a", MakeWrittenVersion("10", false));  // a read of the older write: kept
    EXPECT_EQ(written.Find("ns", "a")->number, 15u);
    EXPECT_TRUE(written.Find("ns", "a")->deleted);
    written.Forget("ns", "a", *written.Find("ns", "a"));
    EXPECT_FALSE(written.Find("ns", "a"));

    const std::size_t left = written.ForgetReflected(
        [](const internal::WrittenVersions::Pending& pending) { return pending.written.number <= 11; });
    EXPECT_EQ(left, 1u);
    EXPECT_EQ(written.In("")[0].name, "b");
}

class VersionWaitersTest : public ::testing::Test {
  protected:
    Status Wait(WrittenVersion written, std::string name, std::chrono::milliseconds timeout) {
        return RunSync(io_, waiters_.Wait(Context::WithTimeout(Context::Background(), timeout), std::move(written),
                                          "ns", std::move(name)));
    }

    boost::asio::io_context io_;
    Store store_;
    internal::VersionWaiters waiters_{store_};
};

TEST_F(VersionWaitersTest, AComparableWriteIsReflectedOnceTheStoreHasSeenItsVersion) {
    EXPECT_EQ(waiters_.Observed(), 0u);
    EXPECT_FALSE(waiters_.Reflects(MakeWrittenVersion("5", false), "ns", "a"));
    waiters_.Advance("5");
    EXPECT_TRUE(waiters_.Reflects(MakeWrittenVersion("5", false), "ns", "a"));
    EXPECT_FALSE(waiters_.Reflects(MakeWrittenVersion("6", false), "ns", "a"));
    waiters_.Advance("4");  // never goes back
    waiters_.Advance("x");  // not comparable: ignored
    EXPECT_EQ(waiters_.Observed(), 5u);
    // At once, even with no time left (under a sanitizer, 10 ms can pass before the wait starts).
    EXPECT_TRUE(Wait(MakeWrittenVersion("3", false), "a", 0ms).Ok());
}

TEST_F(VersionWaitersTest, AWaitEndsWhenAnotherThreadAdvancesAndTimesOutOtherwise) {
    std::thread advancer([this] {
        std::this_thread::sleep_for(50ms);
        waiters_.Advance("41");
        waiters_.Advance("42");
    });
    const auto started = std::chrono::steady_clock::now();
    EXPECT_TRUE(Wait(MakeWrittenVersion("42", false), "a", 5s).Ok());
    EXPECT_LT(std::chrono::steady_clock::now() - started, 4s);
    advancer.join();

    const Status late = Wait(MakeWrittenVersion("43", false), "a", 30ms);
    EXPECT_TRUE(IsTimeout(late)) << late;
}

TEST_F(VersionWaitersTest, AVersionThatDoesNotCompareWaitsForTheObjectsOwnEvent) {
    const WrittenVersion created = MakeWrittenVersion("a1b2", false);
    EXPECT_EQ(created.number, 0u);
    EXPECT_FALSE(waiters_.Reflects(created, "ns", "a"));
    std::thread writer([this] {
        std::this_thread::sleep_for(30ms);
        ASSERT_TRUE(store_.Add(ConfigMap("other", "zz")).Ok());
        waiters_.Advance("zz");
        ASSERT_TRUE(store_.Add(ConfigMap("a", "a1b2")).Ok());
        waiters_.Advance("a1b2");
    });
    EXPECT_TRUE(Wait(created, "a", 5s).Ok());
    writer.join();
    // A delete is reflected once the object is gone (or held at the version the delete answered).
    const WrittenVersion deleted = MakeWrittenVersion("", true);
    EXPECT_FALSE(waiters_.Reflects(deleted, "ns", "a"));
    store_.Delete("ns", "a");
    EXPECT_TRUE(waiters_.Reflects(deleted, "ns", "a"));
}

TEST_F(VersionWaitersTest, ReleaseAllEndsEveryWait) {
    std::thread releaser([this] {
        std::this_thread::sleep_for(30ms);
        waiters_.ReleaseAll();
    });
    EXPECT_TRUE(Wait(MakeWrittenVersion("99", false), "a", 5s).Ok());
    releaser.join();
}

}  // namespace
}  // namespace ctrl::cache
