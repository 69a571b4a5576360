#include "controllers/podlister/pod_table.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "test/unit/api/api_test_util.hpp"

namespace ctrl::podlister {
namespace {

using namespace ctrl::api;  // NOLINT: the kinds and the test helpers of api_test_util.hpp

using api::testing::At;
using api::testing::MustParse;
using api::testing::ReadTestdata;
using std::chrono::hours;
using std::chrono::milliseconds;
using std::chrono::minutes;
using std::chrono::seconds;

const Timestamp kNow = At("2024-05-01T12:00:00Z");

PodTableRow RowFor(std::string_view json) {
    Pod pod = MustParse<Pod>(json);
    return PodTableRowFor(pod, kNow);
}

// A pod created at 11:00 with the given spec and status (JSON object bodies).
std::string PodJson(std::string_view spec, std::string_view status, std::string_view metadata_extra = "") {
    return R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","creationTimestamp":"2024-05-01T11:00:00Z")" +
           std::string(metadata_extra) + R"(},"spec":)" + std::string(spec) + R"(,"status":)" + std::string(status) +
           "}";
}

constexpr std::string_view kOneContainer = R"({"containers":[{"name":"c","image":"i"}],"nodeName":"n1"})";

TEST(PodTableTest, RunningPodWithARestart) {
    PodTableRow row = RowFor(ReadTestdata("pod_running.json"));
    EXPECT_EQ(row.ready, "2/2");
    EXPECT_EQ(row.status, "Running");
    EXPECT_EQ(row.restarts, "2 (150m ago)");  // last termination finished 09:29:58: under 3h, in minutes
    EXPECT_EQ(row.age, "4h");
    EXPECT_EQ(row.node, "ip-10-0-12-34.ec2.internal");
    EXPECT_EQ(row.ready_containers, 2);
    EXPECT_EQ(row.total_containers, 2);
    EXPECT_EQ(row.restart_count, 2);
}

TEST(PodTableTest, CrashLoopBackOff) {
    PodTableRow row = RowFor(ReadTestdata("pod_crashloop.json"));
    EXPECT_EQ(row.ready, "0/1");
    EXPECT_EQ(row.status, "CrashLoopBackOff");
    EXPECT_EQ(row.restarts, "17 (5m ago)");
    EXPECT_EQ(row.age, "3d6h");
    EXPECT_EQ(row.node, "node-b");
}

TEST(PodTableTest, InitializingCountsSidecars) {
    PodTableRow row = RowFor(ReadTestdata("pod_init.json"));
    EXPECT_EQ(row.ready, "0/2");  // app + the restartable init container
    EXPECT_EQ(row.status, "Init:1/3");
    EXPECT_EQ(row.restarts, "0");
    EXPECT_EQ(row.age, "90s");
    EXPECT_EQ(row.node, "node-a");
}

TEST(PodTableTest, UnscheduledPod) {
    PodTableRow row = RowFor(PodJson(R"({"containers":[{"name":"c"}]})",
                                     R"({"phase":"Pending","conditions":[{"type":"PodScheduled","status":"False",)"
                                     R"("reason":"Unschedulable"}]})"));
    EXPECT_EQ(row.ready, "0/1");
    EXPECT_EQ(row.status, "Pending");
    EXPECT_EQ(row.node, "<none>");
    EXPECT_EQ(row.age, "60m");
}

TEST(PodTableTest, SchedulingGated) {
    PodTableRow row = RowFor(PodJson(
        R"({"containers":[{"name":"c"}],"schedulingGates":[{"name":"g"}]})",
        R"({"phase":"Pending","conditions":[{"type":"PodScheduled","status":"False","reason":"SchedulingGated"}]})"));
    EXPECT_EQ(row.status, "SchedulingGated");
}

TEST(PodTableTest, StatusReasonOverridesThePhase) {
    PodTableRow row = RowFor(PodJson(kOneContainer, R"({"phase":"Failed","reason":"Evicted"})"));
    EXPECT_EQ(row.status, "Evicted");
}

TEST(PodTableTest, TerminatingUnlessThePhaseIsTerminal) {
    constexpr std::string_view kDeleting = R"(,"deletionTimestamp":"2024-05-01T11:59:00Z")";
    EXPECT_EQ(RowFor(PodJson(kOneContainer, R"({"phase":"Running"})", kDeleting)).status, "Terminating");
    EXPECT_EQ(RowFor(PodJson(kOneContainer, R"({"phase":"Pending"})", kDeleting)).status, "Terminating");
    EXPECT_EQ(RowFor(PodJson(kOneContainer, R"({"phase":"Succeeded"})", kDeleting)).status, "Succeeded");
    EXPECT_EQ(RowFor(PodJson(kOneContainer, R"({"phase":"Running","reason":"NodeLost"})", kDeleting)).status,
              "Unknown");
}

TEST(PodTableTest, TerminatedContainerReasons) {
    EXPECT_EQ(RowFor(PodJson(kOneContainer, R"({"phase":"Succeeded","containerStatuses":[{"name":"c",)"
                                            R"("state":{"terminated":{"exitCode":0,"reason":"Completed"}}}]})"))
                  .status,
              "Completed");
    EXPECT_EQ(RowFor(PodJson(kOneContainer, R"({"phase":"Failed","containerStatuses":[{"name":"c",)"
                                            R"("state":{"terminated":{"exitCode":2}}}]})"))
                  .status,
              "ExitCode:2");
    EXPECT_EQ(RowFor(PodJson(kOneContainer, R"({"phase":"Failed","containerStatuses":[{"name":"c",)"
                                            R"("state":{"terminated":{"exitCode":137,"signal":9}}}]})"))
                  .status,
              "Signal:9");
}

TEST(PodTableTest, FirstContainersReasonWins) {
    PodTableRow row = RowFor(PodJson(R"({"containers":[{"name":"a"},{"name":"b"}]})",
                                     R"({"phase":"Pending","containerStatuses":[)"
                                     R"({"name":"a","state":{"waiting":{"reason":"ImagePullBackOff"}}},)"
                                     R"({"name":"b","state":{"waiting":{"reason":"ContainerCreating"}}}]})"));
    EXPECT_EQ(row.status, "ImagePullBackOff");
    EXPECT_EQ(row.ready, "0/2");
}

TEST(PodTableTest, CompletedWithARunningContainer) {
    constexpr std::string_view kSpec = R"({"containers":[{"name":"a"},{"name":"b"}]})";
    constexpr std::string_view kStatuses =
        R"("containerStatuses":[{"name":"a","ready":true,"state":{"running":{}}},)"
        R"({"name":"b","state":{"terminated":{"exitCode":0,"reason":"Completed"}}}])";
    EXPECT_EQ(RowFor(PodJson(kSpec, R"({"phase":"Running",)" + std::string(kStatuses) +
                                        R"(,"conditions":[{"type":"Ready","status":"True"}]})"))
                  .status,
              "Running");
    EXPECT_EQ(RowFor(PodJson(kSpec, R"({"phase":"Running",)" + std::string(kStatuses) + "}")).status, "NotReady");
}

TEST(PodTableTest, FailedInitContainers) {
    constexpr std::string_view kSpec = R"({"initContainers":[{"name":"i"}],"containers":[{"name":"c"}]})";
    EXPECT_EQ(RowFor(PodJson(kSpec, R"({"phase":"Pending","initContainerStatuses":[{"name":"i",)"
                                    R"("state":{"terminated":{"exitCode":1,"reason":"Error"}},"restartCount":3}]})"))
                  .status,
              "Init:Error");
    EXPECT_EQ(RowFor(PodJson(kSpec, R"({"phase":"Pending","initContainerStatuses":[{"name":"i",)"
                                    R"("state":{"terminated":{"exitCode":1}}}]})"))
                  .status,
              "Init:ExitCode:1");
    EXPECT_EQ(RowFor(PodJson(kSpec, R"({"phase":"Pending","initContainerStatuses":[{"name":"i",)"
                                    R"("state":{"waiting":{"reason":"ImagePullBackOff"}}}]})"))
                  .status,
              "Init:ImagePullBackOff");
    // Restarts of a plain init container count while it is initializing.
    EXPECT_EQ(RowFor(PodJson(kSpec, R"({"phase":"Pending","initContainerStatuses":[{"name":"i",)"
                                    R"("state":{"terminated":{"exitCode":1,"reason":"Error"}},"restartCount":3}]})"))
                  .restarts,
              "3");
}

TEST(PodTableTest, StartedSidecarIsReadyAndItsRestartsCount) {
    PodTableRow row = RowFor(PodJson(
        R"({"initContainers":[{"name":"proxy","restartPolicy":"Always"}],"containers":[{"name":"c"}]})",
        R"({"phase":"Running","conditions":[{"type":"Initialized","status":"True"}],)"
        R"("initContainerStatuses":[{"name":"proxy","ready":true,"started":true,"restartCount":1,)"
        R"("state":{"running":{}},"lastState":{"terminated":{"exitCode":1,"finishedAt":"2024-05-01T11:50:00Z"}}}],)"
        R"("containerStatuses":[{"name":"c","ready":true,"restartCount":2,"state":{"running":{}}}]})"));
    EXPECT_EQ(row.ready, "2/2");
    EXPECT_EQ(row.status, "Running");
    EXPECT_EQ(row.restarts, "3 (10m ago)");
}

TEST(PodTableTest, NoCreationTimestamp) {
    Pod pod;
    PodTableRow row = PodTableRowFor(pod, kNow);
    EXPECT_EQ(row.age, "<unknown>");
    EXPECT_EQ(row.ready, "0/0");
    EXPECT_EQ(row.status, "");
}

TEST(HumanDurationTest, MatchesKubectl) {
    EXPECT_EQ(HumanDuration(seconds(-3)), "<invalid>");
    EXPECT_EQ(HumanDuration(milliseconds(-1500)), "0s");
    EXPECT_EQ(HumanDuration(seconds(0)), "0s");
    EXPECT_EQ(HumanDuration(milliseconds(59999)), "59s");
    EXPECT_EQ(HumanDuration(seconds(119)), "119s");
    EXPECT_EQ(HumanDuration(seconds(120)), "2m");
    EXPECT_EQ(HumanDuration(seconds(125)), "2m5s");
    EXPECT_EQ(HumanDuration(minutes(10)), "10m");
    EXPECT_EQ(HumanDuration(minutes(179)), "179m");
    EXPECT_EQ(HumanDuration(hours(3)), "3h");
    EXPECT_EQ(HumanDuration(hours(3) + minutes(5)), "3h5m");
    EXPECT_EQ(HumanDuration(hours(8) + minutes(5)), "8h");
    EXPECT_EQ(HumanDuration(hours(47)), "47h");
    EXPECT_EQ(HumanDuration(hours(48)), "2d");
    EXPECT_EQ(HumanDuration(hours(50)), "2d2h");
    EXPECT_EQ(HumanDuration(hours(24 * 8)), "8d");
    EXPECT_EQ(HumanDuration(hours(24 * 729)), "729d");
    EXPECT_EQ(HumanDuration(hours(24 * 730)), "2y");
    EXPECT_EQ(HumanDuration(hours(24 * 760)), "2y30d");
    EXPECT_EQ(HumanDuration(hours(24 * 365 * 8)), "8y");
    EXPECT_EQ(HumanDuration(hours(24 * 365 * 10 + 24 * 100)), "10y");
}

TEST(HumanDurationTest, TimeSince) {
    EXPECT_EQ(TimeSince(std::nullopt, kNow), "<unknown>");
    EXPECT_EQ(TimeSince(At("2024-05-01T11:59:30Z"), kNow), "30s");
    EXPECT_EQ(TimeSince(At("2024-05-01T12:00:05Z"), kNow), "<invalid>");
}

}  // namespace
}  // namespace ctrl::podlister
