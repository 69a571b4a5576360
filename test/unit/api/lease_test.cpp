#include "ctrl/api/lease.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "test/unit/api/api_test_util.hpp"

namespace ctrl::api {
namespace {

using std::chrono::microseconds;
using testing::At;
using testing::ExpectRoundTrip;
using testing::MustParse;
using testing::ReadTestdata;

TEST(LeaseTest, ReadsALeaderElectionLease) {
    const std::string json = ReadTestdata("lease.json");
    Lease lease = MustParse<Lease>(json);
    EXPECT_EQ(lease.HolderIdentity(), "sgp-watcher-6d9f7c_4e1b2a3c-5d6e-4f70-8192-a3b4c5d6e7f8");
    EXPECT_EQ(lease.LeaseDurationSeconds(), 15);
    EXPECT_EQ(lease.AcquireTime(), At("2024-05-01T09:00:00Z"));
    EXPECT_EQ(lease.LeaseTransitions(), 3);
    // MicroTime keeps the microseconds.
    ASSERT_TRUE(lease.RenewTime().has_value());
    EXPECT_EQ(*lease.RenewTime(), At("2024-05-01T12:01:02Z") + microseconds(345678));
    ExpectRoundTrip(lease, json);  // "strategy", unknown to the view, survives
}

TEST(LeaseTest, AnEmptyLeaseHasNothingSet) {
    Lease lease;
    EXPECT_EQ(lease.HolderIdentity(), std::nullopt);
    EXPECT_EQ(lease.LeaseDurationSeconds(), std::nullopt);
    EXPECT_EQ(lease.AcquireTime(), std::nullopt);
    EXPECT_EQ(lease.RenewTime(), std::nullopt);
    EXPECT_EQ(lease.LeaseTransitions(), std::nullopt);
}

TEST(LeaseTest, WritesMicroTimes) {
    Lease lease;
    lease.SetHolderIdentity("me");
    lease.SetLeaseDurationSeconds(15);
    lease.SetAcquireTime(At("2024-05-01T12:00:00Z"));
    lease.SetRenewTime(At("2024-05-01T12:00:10.5Z") + std::chrono::nanoseconds(999));
    lease.SetLeaseTransitions(0);
    EXPECT_EQ(lease.ToJson(), R"({"apiVersion":"coordination.k8s.io/v1","kind":"Lease","spec":{"holderIdentity":"me",)"
                              R"("leaseDurationSeconds":15,"acquireTime":"2024-05-01T12:00:00.000000Z",)"
                              R"("renewTime":"2024-05-01T12:00:10.500000Z","leaseTransitions":0}})");
    // Written and read back, a time keeps its microseconds (and drops what is finer).
    EXPECT_EQ(*lease.RenewTime(), At("2024-05-01T12:00:10.5Z"));
}

TEST(LeaseTest, ReleaseAndClear) {
    Lease lease = MustParse<Lease>(ReadTestdata("lease.json"));
    lease.SetHolderIdentity("");  // a release, as client-go's leader election writes it
    EXPECT_EQ(lease.HolderIdentity(), "");
    lease.SetHolderIdentity(std::nullopt);
    lease.SetRenewTime(std::nullopt);
    lease.SetLeaseDurationSeconds(std::nullopt);
    EXPECT_EQ(lease.HolderIdentity(), std::nullopt);
    EXPECT_EQ(lease.RenewTime(), std::nullopt);
    EXPECT_FALSE(lease.HasNestedField({"spec", "leaseDurationSeconds"}));
    EXPECT_EQ(lease.LeaseTransitions(), 3);
}

TEST(LeaseTest, ViewAndMalformedTimes) {
    Lease lease = MustParse<Lease>(
        R"({"apiVersion":"coordination.k8s.io/v1","kind":"Lease","spec":{"renewTime":"yesterday","acquireTime":5}})");
    LeaseView view(lease);
    EXPECT_EQ(view.RenewTime(), std::nullopt);
    EXPECT_EQ(view.AcquireTime(), std::nullopt);
}

}  // namespace
}  // namespace ctrl::api
