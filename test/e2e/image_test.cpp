// Issue 35: the operator image (hack/image.sh; ctest builds it first, as the test
// operator_image_build) run as a container the way a kubelet runs the Deployment's pod
// (operator_container.hpp). This binary also runs the ten matching cases of sgp_matching_test.cpp
// and the in-cluster cases of in_cluster_test.cpp, every operator in a container
// (CTRL_E2E_IN_CONTAINERS); here: what the image holds, that the container runs with what the
// Deployment asks for (checked in the kernel's view of its process), and that SIGTERM through
// `podman stop` ends it with exit 0 within the Deployment's grace period.

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <set>
#include <sstream>

#include "test/e2e/operator_container.hpp"
#include "test/e2e/operator_fixture.hpp"
#include "test/support/command.hpp"
#include "test/support/eventually.hpp"
#include "test/support/read_file.hpp"

namespace ctrl::e2e {
namespace {

using namespace std::chrono_literals;

// manifests/manager/deployment.yaml's terminationGracePeriodSeconds.
constexpr std::chrono::seconds kGracePeriod{45};
// The issue's bound on the image's size.
constexpr double kMaxImageMegabytes = 60;

// The regular files of the image (paths without the leading "/"), from `podman export`.
StatusOr<std::vector<std::string>> ImageFiles() {
    CTRL_ASSIGN_OR_RETURN(std::string created, Podman({"create", std::string(OperatorImage())}));
    const std::string container = created.substr(0, created.find('\n'));
    const std::string tar = ::testing::TempDir() + "ctrl-e2e-image-" + std::to_string(getpid()) + ".tar";
    const Status exported = Podman({"export", "--output", tar, container}).GetStatus();
    (void)Podman({"rm", container});
    CTRL_RETURN_IF_ERROR(exported);
    StatusOr<testing::CommandResult> listed = testing::RunCommand({.argv = {"tar", "-tvf", tar}});
    std::filesystem::remove(tar);
    CTRL_RETURN_IF_ERROR(listed.GetStatus());
    if (listed->exit_code != 0)
        return InternalError("tar -tvf " + tar + ": " + listed->err);
    std::vector<std::string> files;
    std::istringstream lines(listed->out);
    for (std::string line; std::getline(lines, line);) {
        if (line.empty() || line[0] != '-')
            continue;
        files.push_back(line.substr(line.rfind(' ') + 1));
    }
    return files;
}

bool IsSharedLibrary(const std::string& path) {
    const bool in_library_dir = path.rfind("lib/", 0) == 0 || path.rfind("lib64/", 0) == 0 ||
                                path.rfind("usr/lib/", 0) == 0 || path.rfind("usr/lib64/", 0) == 0;
    return in_library_dir && path.find(".so") != std::string::npos;
}

// The value of a "Name:\tvalue" line of /proc/<pid>/status ("" when absent).
std::string StatusField(const std::string& status, const std::string& name) {
    std::istringstream lines(status);
    for (std::string line; std::getline(lines, line);) {
        if (line.rfind(name + ":", 0) == 0)
            return line.substr(line.find_first_not_of(" \t", name.size() + 1));
    }
    return "";
}

// The mount options of the mount at "/" in /proc/<pid>/mountinfo (field 6).
std::string RootMountOptions(const std::string& mountinfo) {
    std::istringstream lines(mountinfo);
    for (std::string line; std::getline(lines, line);) {
        std::istringstream fields(line);
        std::string id, parent, device, root, mount_point, options;
        fields >> id >> parent >> device >> root >> mount_point >> options;
        if (mount_point == "/")
            return options;
    }
    return "";
}

using ImageTest = OperatorTest;

TEST_F(ImageTest, HoldsTheBinaryItsLibrariesCertificatesAndUserOnly) {
    StatusOr<std::string> config =
        Podman({"image", "inspect", "--format",
                "{{.Config.User}} {{json .Config.Entrypoint}} {{.Size}} {{len .RootFS.Layers}}",
                std::string(OperatorImage())});
    ASSERT_TRUE(config.Ok()) << config.GetStatus();
    std::istringstream fields(*config);
    std::string user, entrypoint;
    double bytes = 0;
    int layers = 0;
    fields >> user >> entrypoint >> bytes >> layers;
    EXPECT_EQ(user, "65532:65532");
    EXPECT_EQ(entrypoint, R"(["/usr/local/bin/ctrl-operator"])");
    EXPECT_EQ(layers, 1) << "the runtime stage is scratch and one COPY";
    EXPECT_LT(bytes / 1e6, kMaxImageMegabytes);

    StatusOr<std::vector<std::string>> files = ImageFiles();
    ASSERT_TRUE(files.Ok()) << files.GetStatus();
    const std::set<std::string> named{"usr/local/bin/ctrl-operator", "etc/passwd", "etc/group",
                                      "etc/ssl/certs/ca-certificates.crt"};
    std::set<std::string> seen;
    int libraries = 0;
    for (const std::string& file : *files) {
        if (named.contains(file))
            seen.insert(file);
        else if (IsSharedLibrary(file))
            ++libraries;
        else
            ADD_FAILURE() << "the image holds " << file << ", which is neither the binary, a shared library, "
                          << "the CA certificates nor the user database";
    }
    EXPECT_EQ(seen, named);
    EXPECT_GE(libraries, 5) << "the loader, libc, libstdc++, libssl, ...";
    std::printf("[ figures ] image %s: %.1f MB, %d layer, %zu files (%d shared libraries)\n",
                std::string(OperatorImage()).c_str(), bytes / 1e6, layers, files->size(), libraries);
}

TEST_F(ImageTest, RunsAsTheDeploymentAsks) {
    const std::string ns = MakeNamespace();
    OperatorProcess* op = StartOperator({.name = "kubelet-like", .watch_namespaces = {ns}, .args = {"--leader-elect"}});
    ASSERT_NE(op, nullptr);
    ASSERT_TRUE(WaitReady(*op));
    ASSERT_NE(op->ContainerName(), "");
    EXPECT_EQ(op->LogLinesWith({"Starting the manager", "in-cluster service account"}), 1)
        << "it runs with the in-cluster config";

    // The kernel's view of the container's process (podman's State.Pid, on this machine's /proc).
    StatusOr<std::string> pid = Podman({"inspect", "--format", "{{.State.Pid}}", op->ContainerName()});
    ASSERT_TRUE(pid.Ok()) << pid.GetStatus();
    const std::string proc = "/proc/" + pid->substr(0, pid->find('\n'));
    const std::string status = testing::ReadFile(proc + "/status");
    ASSERT_NE(status, "") << "cannot read " << proc << "/status";
    EXPECT_EQ(StatusField(status, "Name"), "ctrl-operator");
    EXPECT_EQ(StatusField(status, "Uid"), "65532\t65532\t65532\t65532") << "user 65532";
    EXPECT_EQ(StatusField(status, "Gid"), "65532\t65532\t65532\t65532") << "group 65532";
    EXPECT_EQ(StatusField(status, "CapEff"), "0000000000000000") << "no effective capabilities";
    EXPECT_EQ(StatusField(status, "CapBnd"), "0000000000000000") << "every capability dropped";
    EXPECT_EQ(StatusField(status, "NoNewPrivs"), "1") << "allowPrivilegeEscalation: false";
    const std::string root_options = RootMountOptions(testing::ReadFile(proc + "/mountinfo"));
    EXPECT_TRUE(root_options == "ro" || root_options.rfind("ro,", 0) == 0)
        << "root file system mounted " << root_options;

    // And it works: a policy's groups reach its pod.
    Apply(ns, PodSelectorPolicyYaml("web", "app=web", "sg-web") + PodYaml("web-1", "app=web"));
    EXPECT_TRUE(AnnotationsConverge({ns}));
}

TEST_F(ImageTest, SigtermEndsItWithinTheGracePeriodWithExitZero) {
    const std::string ns = MakeNamespace();
    OperatorProcess* op = StartOperator({.name = "sigterm", .watch_namespaces = {ns}, .args = {"--leader-elect"}});
    ASSERT_NE(op, nullptr);
    ASSERT_TRUE(WaitReady(*op));
    Apply(ns, PodSelectorPolicyYaml("web", "app=web", "sg-web") + PodYaml("web-1", "app=web"));
    ASSERT_TRUE(AnnotationsConverge({ns}));

    // `podman stop -t 45`: SIGTERM, and SIGKILL (exit code 137) only if it is still running 45 s later.
    const auto stopping = std::chrono::steady_clock::now();
    const Status stopped = StopContainer(op->ContainerName(), kGracePeriod);
    ASSERT_TRUE(stopped.Ok()) << stopped;
    EXPECT_TRUE(op->Process().WaitForExit(std::chrono::steady_clock::now() + testing::kTestWait))
        << "podman run still runs after podman stop returned";
    EXPECT_EQ(op->Process().ExitDescription(), "exited with code 0") << op->LogTail(30);
    std::printf("[ figures ] podman stop -t %lld: the container exited after %.2f s\n",
                static_cast<long long>(kGracePeriod.count()),
                std::chrono::duration<double>(std::chrono::steady_clock::now() - stopping).count());
    StatusOr<std::string> left = Podman({"ps", "--all", "--quiet", "--filter", "name=^" + op->ContainerName() + "$"});
    ASSERT_TRUE(left.Ok()) << left.GetStatus();
    EXPECT_EQ(*left, "") << "the container is removed (podman run --rm)";
}

}  // namespace
}  // namespace ctrl::e2e
