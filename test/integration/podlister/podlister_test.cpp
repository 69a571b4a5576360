// The built podlister program against the real control plane: 3 namespaces x 200 realistic pods
// (made with the workload code), listed in pages of 50. Its table must hold exactly the rows
// `kubectl get pods -A -o wide` prints; -o json must hold every pod; a broken kubeconfig, a closed
// port, a server that never answers and a user without rights each end in one error line and
// exit code 1 within a deadline.

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include <boost/asio/io_context.hpp>

#include "ctrl/client/client.hpp"
#include "ctrl/core/object_list.hpp"
#include "ctrl/core/run_sync.hpp"
#include "ctrl/rest/kubeconfig.hpp"
#include "test/support/command.hpp"
#include "test/support/control_plane_environment.hpp"
#include "test/support/eventually.hpp"
#include "test/support/free_port.hpp"
#include "test/support/kubeconfig.hpp"
#include "test/support/kubectl.hpp"
#include "test/support/workload.hpp"

namespace ctrl::podlister::test {
namespace {

using ::testing::EndsWith;
using ::testing::HasSubstr;
using ::testing::StartsWith;
using Clock = std::chrono::steady_clock;
using ctrl::testing::Command;
using ctrl::testing::CommandResult;
using ctrl::testing::RunCommand;

constexpr int kNamespaces = 3;
constexpr int kPodsPerNamespace = 200;
constexpr int kPods = kNamespaces * kPodsPerNamespace;

struct Ran {
    CommandResult result;
    std::chrono::milliseconds took{0};
};

// Runs the built podlister with args, within timeout.
Ran RunPodLister(const std::vector<std::string>& args, std::chrono::milliseconds timeout = std::chrono::seconds(60)) {
    Command command{.argv = {CTRL_PODLISTER_BINARY}, .timeout = timeout};
    command.argv.insert(command.argv.end(), args.begin(), args.end());
    const Clock::time_point start = Clock::now();
    StatusOr<CommandResult> result = RunCommand(command);
    Ran ran;
    ran.took = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start);
    EXPECT_TRUE(result.Ok()) << result.GetStatus();
    if (result.Ok())
        ran.result = std::move(result).Value();
    return ran;
}

// Exit code 1 and one line "podlister: error: ..." on stderr naming `names`; nothing on stdout.
void ExpectOneLineError(const CommandResult& result, const std::string& names) {
    EXPECT_EQ(result.exit_code, 1) << result.err;
    EXPECT_EQ(result.out, "");
    EXPECT_THAT(result.err, StartsWith("podlister: error: "));
    EXPECT_THAT(result.err, EndsWith("\n"));
    EXPECT_EQ(std::count(result.err.begin(), result.err.end(), '\n'), 1) << result.err;
    EXPECT_THAT(result.err, HasSubstr(names));
}

// (namespace, name, ready, status, restarts, node): the columns that do not move with the clock.
using Row = std::tuple<std::string, std::string, std::string, std::string, std::string, std::string>;

// The cells of a table laid out like kubectl's: the header's column names (separated by 2+
// blanks; "NOMINATED NODE" is one name) say where each column starts. Rows by name.
std::vector<std::map<std::string, std::string>> ReadTable(const std::string& table) {
    std::vector<std::map<std::string, std::string>> rows;
    std::istringstream lines(table);
    std::string header;
    if (!std::getline(lines, header))
        return rows;
    std::vector<std::pair<std::string, size_t>> columns;
    for (size_t pos = 0; pos < header.size();) {
        size_t end = header.find("  ", pos);
        if (end == std::string::npos)
            end = header.size();
        columns.emplace_back(header.substr(pos, end - pos), pos);
        pos = header.find_first_not_of(' ', end);
    }
    for (std::string line; std::getline(lines, line);) {
        std::map<std::string, std::string>& row = rows.emplace_back();
        for (size_t i = 0; i < columns.size(); ++i) {
            const size_t start = columns[i].second;
            const size_t end = i + 1 < columns.size() ? columns[i + 1].second : line.size();
            std::string cell = start < line.size() ? line.substr(start, end - start) : "";
            cell.erase(cell.find_last_not_of(' ') + 1);
            row[columns[i].first] = cell;
        }
    }
    return rows;
}

std::multiset<Row> Rows(const std::string& table) {
    std::multiset<Row> rows;
    for (std::map<std::string, std::string>& r : ReadTable(table))
        rows.emplace(r["NAMESPACE"], r["NAME"], r["READY"], r["STATUS"], r["RESTARTS"], r["NODE"]);
    return rows;
}

class PodListerIntegrationTest : public ::testing::Test {
  protected:
    // One workload for the whole binary: 600 pods, four in five bound to one of 4 node names.
    static void SetUpTestSuite() {
        const std::string kubeconfig = ctrl::testing::SharedControlPlane().KubeconfigPath();
        StatusOr<rest::Config> config = rest::LoadKubeconfig({.explicit_path = kubeconfig});
        ASSERT_TRUE(config.Ok()) << config.GetStatus();
        boost::asio::io_context io;
        StatusOr<std::unique_ptr<client::Client>> client = client::New(*config, io.get_executor());
        ASSERT_TRUE(client.Ok()) << client.GetStatus();
        ctrl::testing::WorkloadOptions options{
            .namespaces = kNamespaces, .pods_per_namespace = kPodsPerNamespace, .prefix = "lister", .nodes = 4};
        Context ctx = Context::WithTimeout(Context::Background(), std::chrono::minutes(3));
        StatusOr<ctrl::testing::WorkloadReport> report =
            RunSync(io, ctrl::testing::CreateWorkload(ctx, **client, options));
        ASSERT_TRUE(report.Ok()) << report.GetStatus();
        ASSERT_EQ(report->pods + report->pods_existing, kPods);
        std::printf("workload: %d pods in %d namespaces created in %lld ms: %.0f pods/s, %d in flight\n", report->pods,
                    kNamespaces, static_cast<long long>(report->took.count()), report->PodsPerSecond(),
                    options.concurrency);
    }

    static const std::string& Kubeconfig() { return ctrl::testing::SharedControlPlane().KubeconfigPath(); }

    // A kubeconfig for the admin that points at server instead.
    static std::string KubeconfigFor(const std::string& server, const std::string& file_name) {
        const auto& control_plane = ctrl::testing::SharedControlPlane();
        const std::string path = control_plane.WorkDir() + "/" + file_name;
        Status written = ctrl::testing::WriteKubeconfig(path, {.server = server,
                                                               .ca_file = control_plane.CaFile(),
                                                               .user = "admin",
                                                               .client_cert_file = control_plane.AdminCertFile(),
                                                               .client_key_file = control_plane.AdminKeyFile(),
                                                               .token = ""});
        EXPECT_TRUE(written.Ok()) << written;
        return path;
    }
};

TEST_F(PodListerIntegrationTest, TableHasTheRowsKubectlPrints) {
    Ran lister = RunPodLister({"--kubeconfig", Kubeconfig(), "--chunk-size", "50"});
    ASSERT_EQ(lister.result.exit_code, 0) << lister.result.err;
    const std::string& table = lister.result.out;
    ASSERT_THAT(table, StartsWith("NAMESPACE"));
    EXPECT_EQ(std::count(table.begin(), table.end(), '\n'), kPods + 1);  // the header and 600 rows
    EXPECT_THAT(lister.result.err, HasSubstr("600 pods"));
    EXPECT_THAT(lister.result.err, HasSubstr("in 12 pages of at most 50"));
    std::printf("podlister --chunk-size 50: %d pods listed and printed in %lld ms wall time (%s)\n", kPods,
                static_cast<long long>(lister.took.count()),
                lister.result.err.substr(0, lister.result.err.find('\n')).c_str());

    const Clock::time_point kubectl_start = Clock::now();
    StatusOr<ctrl::testing::CommandResult> kubectl =
        ctrl::testing::Kubectl(Kubeconfig(), {"get", "pods", "-A", "-o", "wide", "--chunk-size=50"});
    const auto kubectl_took = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - kubectl_start);
    ASSERT_TRUE(kubectl.Ok()) << kubectl.GetStatus();
    ASSERT_EQ(kubectl->exit_code, 0) << kubectl->err;
    std::printf("kubectl get pods -A -o wide --chunk-size=50: %lld ms wall time\n",
                static_cast<long long>(kubectl_took.count()));

    std::multiset<Row> ours = Rows(table);
    std::multiset<Row> theirs = Rows(kubectl->out);
    EXPECT_EQ(ours.size(), static_cast<size_t>(kPods));
    EXPECT_EQ(ours, theirs);
    // The workload's pods are there, with and without a node.
    EXPECT_EQ(ours.count({"lister-2", "pod-0007", "0/3", "Pending", "0", "lister-node-3"}), 1u);
    EXPECT_EQ(ours.count({"lister-3", "pod-0199", "0/3", "Pending", "0", "<none>"}), 1u);
}

TEST_F(PodListerIntegrationTest, JsonHoldsEveryPod) {
    Ran lister = RunPodLister({"--kubeconfig=" + Kubeconfig(), "--chunk-size=50", "-o", "json"});
    ASSERT_EQ(lister.result.exit_code, 0) << lister.result.err;
    StatusOr<ObjectList> list = ObjectList::Parse(lister.result.out);
    ASSERT_TRUE(list.Ok()) << list.GetStatus();
    EXPECT_EQ(list->Kind(), "List");
    ASSERT_EQ(list->Items().size(), static_cast<size_t>(kPods));
    std::set<std::string> keys;
    for (const Object& pod : list->Items()) {
        EXPECT_EQ(pod.Kind(), "Pod");
        EXPECT_FALSE(pod.HasManagedFields());
        keys.insert(std::string(pod.Namespace()) + "/" + std::string(pod.Name()));
    }
    EXPECT_EQ(keys.size(), static_cast<size_t>(kPods));
    EXPECT_TRUE(keys.contains("lister-1/pod-0000"));
}

TEST_F(PodListerIntegrationTest, DefaultChunkSizeIs500) {
    Ran lister = RunPodLister({"--kubeconfig", Kubeconfig(), "--no-headers"});
    ASSERT_EQ(lister.result.exit_code, 0) << lister.result.err;
    EXPECT_EQ(std::count(lister.result.out.begin(), lister.result.out.end(), '\n'), kPods);
    EXPECT_THAT(lister.result.err, HasSubstr("in 2 pages of at most 500"));
}

TEST_F(PodListerIntegrationTest, VerbosityAndLogFormatFlags) {
    Ran lister = RunPodLister({"--kubeconfig", Kubeconfig(), "--no-headers", "-v", "6", "--log-format", "json"});
    ASSERT_EQ(lister.result.exit_code, 0) << lister.result.err;
    EXPECT_EQ(std::count(lister.result.out.begin(), lister.result.out.end(), '\n'), kPods) << "stdout holds only pods";
    EXPECT_THAT(lister.result.err, HasSubstr(R"({"level":"debug","v":6,)"));
    EXPECT_THAT(lister.result.err, HasSubstr(R"("logger":"rest","msg":"request","verb":"GET","url":")"));
    EXPECT_THAT(lister.result.err, HasSubstr("/api/v1/pods?limit=500"));

    Ran quiet = RunPodLister({"--kubeconfig", Kubeconfig(), "--no-headers"});
    ASSERT_EQ(quiet.result.exit_code, 0) << quiet.result.err;
    EXPECT_EQ(std::count(quiet.result.err.begin(), quiet.result.err.end(), '\n'), 1)
        << "verbosity 0 prints only the summary line: " << quiet.result.err;
}

TEST_F(PodListerIntegrationTest, KubeconfigThatIsNotYaml) {
    const std::string path = ctrl::testing::SharedControlPlane().WorkDir() + "/broken-kubeconfig";
    std::ofstream(path) << "apiVersion: v1\nclusters: [\n  - {name: x\n\tcontexts: ::: }\n";
    Ran lister = RunPodLister({"--kubeconfig", path});
    ExpectOneLineError(lister.result, path);
}

TEST_F(PodListerIntegrationTest, ClosedPortFailsFast) {
    StatusOr<std::vector<int>> ports = ctrl::testing::FreePorts(1);
    ASSERT_TRUE(ports.Ok()) << ports.GetStatus();
    const std::string server = "https://127.0.0.1:" + std::to_string((*ports)[0]);
    Ran lister =
        RunPodLister({"--kubeconfig", KubeconfigFor(server, "closed-port-kubeconfig")}, std::chrono::seconds(40));
    ExpectOneLineError(lister.result, server);
    EXPECT_LT(lister.took, ctrl::testing::kTestWait);
    std::printf("closed port: exit %d after %lld ms: %s", lister.result.exit_code,
                static_cast<long long>(lister.took.count()), lister.result.err.c_str());
}

// A server that accepts TCP connections and never answers (a hung apiserver, a black-holing
// proxy): the request deadline ends the wait.
TEST_F(PodListerIntegrationTest, SilentServerTimesOut) {
    int listener = ::socket(AF_INET, SOCK_STREAM, 0);
    ASSERT_GE(listener, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    address.sin_port = 0;
    ASSERT_EQ(::bind(listener, reinterpret_cast<sockaddr*>(&address), sizeof(address)), 0);
    ASSERT_EQ(::listen(listener, 16), 0);  // the kernel completes handshakes; nobody reads
    socklen_t length = sizeof(address);
    ASSERT_EQ(::getsockname(listener, reinterpret_cast<sockaddr*>(&address), &length), 0);
    const std::string server = "https://127.0.0.1:" + std::to_string(ntohs(address.sin_port));

    Ran lister = RunPodLister({"--kubeconfig", KubeconfigFor(server, "silent-kubeconfig"), "--request-timeout", "3s"},
                              std::chrono::seconds(60));
    ::close(listener);
    ExpectOneLineError(lister.result, server);
    EXPECT_GE(lister.took, std::chrono::seconds(3));
    EXPECT_LT(lister.took, ctrl::testing::kTestWait);
    std::printf("silent server, --request-timeout 3s: exit %d after %lld ms: %s", lister.result.exit_code,
                static_cast<long long>(lister.took.count()), lister.result.err.c_str());
}

TEST_F(PodListerIntegrationTest, ForbiddenUser) {
    StatusOr<std::string> kubeconfig = ctrl::testing::SharedControlPlane().AddUser("lister-nobody");
    ASSERT_TRUE(kubeconfig.Ok()) << kubeconfig.GetStatus();
    Ran lister = RunPodLister({"--kubeconfig", *kubeconfig});
    ExpectOneLineError(lister.result, "forbidden");
    EXPECT_THAT(lister.result.err, HasSubstr("lister-nobody"));
}

}  // namespace
}  // namespace ctrl::podlister::test
