#include "test/integration/controller/controller_fixture.hpp"

#include <algorithm>
#include <cctype>
#include <future>

#include <boost/asio/co_spawn.hpp>

#include "controllers/sgp/api/vpcresources.hpp"
#include "ctrl/api/builtins.hpp"
#include "ctrl/api/namespace.hpp"
#include "test/support/counted_rest_client.hpp"
#include "test/support/kubeconfig_config.hpp"

namespace ctrl::testing {

void ReconcileLog::Begin(const std::string& key) {
    std::lock_guard lock(mu_);
    calls_.push_back(Call{key, std::chrono::steady_clock::now(), {}});
    if (++in_flight_[key] > 1)
        overlapped_ = true;
}

void ReconcileLog::End(const std::string& key) {
    std::lock_guard lock(mu_);
    --in_flight_[key];
    for (auto it = calls_.rbegin(); it != calls_.rend(); ++it) {
        if (it->key == key && it->end == std::chrono::steady_clock::time_point{}) {
            it->end = std::chrono::steady_clock::now();
            break;
        }
    }
}

int ReconcileLog::Count(const std::string& key) const {
    return static_cast<int>(Calls(key).size());
}

std::vector<ReconcileLog::Call> ReconcileLog::Calls(const std::string& key) const {
    std::lock_guard lock(mu_);
    std::vector<Call> out;
    std::copy_if(calls_.begin(), calls_.end(), std::back_inserter(out), [&](const Call& c) { return c.key == key; });
    return out;
}

std::vector<std::string> ReconcileLog::Keys() const {
    std::lock_guard lock(mu_);
    std::vector<std::string> keys;
    for (const Call& call : calls_) {
        if (std::find(keys.begin(), keys.end(), call.key) == keys.end())
            keys.push_back(call.key);
    }
    return keys;
}

bool ReconcileLog::Overlapped() const {
    std::lock_guard lock(mu_);
    return overlapped_;
}

void ControllerFixture::SetUp() {
    namespace_ = ::testing::UnitTest::GetInstance()->current_test_info()->name();
    std::transform(namespace_.begin(), namespace_.end(), namespace_.begin(),
                   [](unsigned char c) { return std::isalnum(c) ? static_cast<char>(std::tolower(c)) : '-'; });
    namespace_ = "ctl-" + namespace_.substr(0, 50);
    for (int i = 0; i < 2; ++i)
        loops_.emplace_back([this] { io_.run(); });
    rest::Config config = SharedAdminConfig();
    ConfigureRestConfig(config);
    cluster::Options options;
    // Namespaced kinds are cached in the test's namespace only: other tests' objects stay out.
    options.cache.default_namespaces = {namespace_};
    // The built-in kinds and the SecurityGroupPolicy.
    auto scheme = std::make_shared<scheme::Scheme>();
    ASSERT_TRUE(api::AddAllBuiltinsToScheme(*scheme).Ok());
    ASSERT_TRUE(vpcresources::vpcresourcesv1beta1::AddToScheme(*scheme).Ok());
    options.scheme = scheme;
    ConfigureCluster(options);
    StatusOr<CountedCluster> counted = NewCountedCluster(config, io_.get_executor(), registry_, std::move(options));
    ASSERT_TRUE(counted.Ok()) << counted.GetStatus();
    transport_ = counted->transport;
    cluster_ = std::move(counted->cluster);
    controller::Options defaults;
    defaults.skip_name_validation = true;
    host_ = std::make_unique<ClusterHost>(*cluster_, registry_, defaults);

    api::Namespace ns;
    ns.SetName(namespace_);
    const Status created = Run(Direct().Create(TestContext(), ns));
    ASSERT_TRUE(created.Ok() || IsAlreadyExists(created)) << created;
}

Status ControllerFixture::CreateConfigMaps(int count, const std::function<api::ConfigMap(int)>& make) {
    constexpr int kThreads = 10;
    std::vector<std::future<Status>> makers;
    for (int t = 0; t < kThreads; ++t) {
        makers.push_back(std::async(std::launch::async, [this, t, count, &make] {
            for (int i = t; i < count; i += kThreads) {
                api::ConfigMap cm = make(i);
                const Status made = Run(Direct().Create(TestContext(), cm));
                if (!made.Ok() && !IsAlreadyExists(made))
                    return made;
            }
            return OkStatus();
        }));
    }
    Status first = OkStatus();
    for (auto& maker : makers)
        if (Status made = maker.get(); first.Ok())
            first = made;
    return first;
}

void ControllerFixture::StartHost() {
    host_done_ = std::make_shared<std::promise<Status>>();
    boost::asio::co_spawn(io_.get_executor(), host_->Run(stop_),
                          [done = host_done_](std::exception_ptr error, Status status) {
                              done->set_value(error ? InternalError("the host threw") : status);
                          });
}

void ControllerFixture::TearDown() {
    stop_.Cancel();
    if (host_done_) {
        std::future<Status> done = host_done_->get_future();
        EXPECT_EQ(done.wait_for(kTestWait), std::future_status::ready) << "the host did not stop";
    }
    host_.reset();
    cluster_.reset();
    work_.reset();
    io_.stop();
    for (std::thread& loop : loops_)
        loop.join();
}

}  // namespace ctrl::testing
