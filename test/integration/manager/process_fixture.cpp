#include "test/integration/manager/process_fixture.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <fstream>

#include "ctrl/api/config_map.hpp"
#include "ctrl/api/namespace.hpp"
#include "ctrl/core/run_sync.hpp"
#include "test/support/control_plane_environment.hpp"
#include "test/support/eventually.hpp"
#include "test/support/kubeconfig_config.hpp"

namespace ctrl::testing {

template <typename T>
T ManagerProcessTest::Run(Task<T> task) {
    return RunSync(io_, std::move(task));
}
template Status ManagerProcessTest::Run<Status>(Task<Status>);

void ManagerProcessTest::SetUp() {
    namespace_ = ::testing::UnitTest::GetInstance()->current_test_info()->name();
    std::transform(namespace_.begin(), namespace_.end(), namespace_.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    namespace_ = "mgr-" + namespace_.substr(0, 50);
    StatusOr<std::unique_ptr<client::Client>> made = client::New(SharedAdminConfig(), io_.get_executor());
    ASSERT_TRUE(made.Ok()) << made.GetStatus();
    client_ = std::move(made).Value();
    api::Namespace ns;
    ns.SetName(namespace_);
    const Status created = Run(client_->Create(TestContext(), ns));
    ASSERT_TRUE(created.Ok() || IsAlreadyExists(created)) << created;
}

void ManagerProcessTest::TearDown() {
    client_.reset();
}

ChildProcess ManagerProcessTest::StartOperator(const std::vector<std::string>& args, const std::string& name) {
    std::vector<std::string> argv{CTRL_MANAGER_TESTBIN, "--kubeconfig", SharedControlPlane().KubeconfigPath(),
                                  "--namespace", namespace_};
    argv.insert(argv.end(), args.begin(), args.end());
    const std::string log = ::testing::TempDir() + "/" + namespace_ + "-" + name + ".log";
    std::remove(log.c_str());
    StatusOr<ChildProcess> started = ChildProcess::Start(argv, log);
    EXPECT_TRUE(started.Ok()) << started.GetStatus();
    return started.Ok() ? std::move(started).Value() : ChildProcess();
}

std::vector<std::string> ManagerProcessTest::Lines(const ChildProcess& process, const std::string& prefix) {
    std::ifstream file(process.LogPath());
    std::vector<std::string> lines;
    for (std::string line; std::getline(file, line);) {
        if (line.rfind(prefix, 0) == 0)
            lines.push_back(line);
    }
    return lines;
}

void ManagerProcessTest::CreateConfigMaps(int n) {
    for (int i = 0; i < n; ++i) {
        api::ConfigMap cm;
        cm.SetNamespace(namespace_);
        char name[16];
        std::snprintf(name, sizeof name, "cm-%03d", i);
        cm.SetName(name);
        const Status created = Run(client_->Create(TestContext(), cm));
        ASSERT_TRUE(created.Ok() || IsAlreadyExists(created)) << created;
    }
}

}  // namespace ctrl::testing
