#include "test/integration/manager/process_fixture.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <fstream>
#include <memory>
#include <mutex>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/this_coro.hpp>

#include "ctrl/api/config_map.hpp"
#include "ctrl/api/namespace.hpp"
#include "ctrl/core/notification.hpp"
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

namespace {

// Creates the ConfigMaps cm-<i> of ns for i = first, first + step, ... below n.
Task<Status> CreateEvery(client::Client& client, std::string ns, int first, int step, int n) {
    for (int i = first; i < n; i += step) {
        api::ConfigMap cm;
        cm.SetNamespace(ns);
        char name[16];
        std::snprintf(name, sizeof name, "cm-%03d", i);
        cm.SetName(name);
        const Context ctx = TestContext();
        const Status created = co_await client.Create(ctx, cm);
        if (!created.Ok() && !IsAlreadyExists(created))
            co_return created;
    }
    co_return OkStatus();
}

// Runs `lanes` CreateEvery at once on the calling coroutine's executor: the first error.
Task<Status> CreateInLanes(client::Client& client, std::string ns, int n, int lanes) {
    struct State {
        std::mutex mu;
        int left = 0;
        Status first;
        Notification done;
    };
    const auto state = std::make_shared<State>();
    state->left = lanes;
    const boost::asio::any_io_executor executor = co_await boost::asio::this_coro::executor;
    for (int lane = 0; lane < lanes; ++lane)
        boost::asio::co_spawn(executor, CreateEvery(client, ns, lane, lanes, n),
                              [state](const std::exception_ptr& error, Status status) {
                                  std::lock_guard lock(state->mu);
                                  if (state->first.Ok())
                                      state->first = error ? InternalError("a lane threw") : status;
                                  if (--state->left == 0)
                                      state->done.Notify();
                              });
    const Context ctx = Context::WithTimeout(Context::Background(), std::chrono::minutes(30));
    const Status waited = co_await state->done.Wait(ctx);
    std::lock_guard lock(state->mu);
    co_return waited.Ok() ? state->first : waited;
}

}  // namespace

void ManagerProcessTest::CreateConfigMaps(int n) {
    // 16 requests at a time: 50,000 one after the other take minutes.
    const Status created = Run(CreateInLanes(*client_, namespace_, n, 16));
    ASSERT_TRUE(created.Ok()) << created;
}

}  // namespace ctrl::testing
