#include "test/integration/client/client_fixture.hpp"

#include <algorithm>
#include <cctype>

#include "controllers/sgp/api/vpcresources.hpp"
#include "ctrl/api/builtins.hpp"
#include "ctrl/api/namespace.hpp"
#include "ctrl/rest/authenticator.hpp"
#include "ctrl/rest/rest_client.hpp"
#include "test/support/control_plane_environment.hpp"
#include "test/support/kubeconfig_config.hpp"

namespace ctrl::client::test {
namespace {

// "t-<test name>-<n>", lower case, at most 63 characters.
std::string NamespaceForTest() {
    static std::atomic<int> counter{0};
    const ::testing::TestInfo* info = ::testing::UnitTest::GetInstance()->current_test_info();
    std::string name = "t-" + std::string(info->name()).substr(0, 40) + "-" + std::to_string(++counter);
    std::transform(name.begin(), name.end(), name.begin(),
                   [](unsigned char c) { return std::isalnum(c) ? static_cast<char>(std::tolower(c)) : '-'; });
    return name;
}

std::shared_ptr<const scheme::Scheme> TestScheme() {
    auto scheme = std::make_shared<scheme::Scheme>();
    EXPECT_TRUE(api::AddAllBuiltinsToScheme(*scheme).Ok());
    EXPECT_TRUE(vpcresources::vpcresourcesv1beta1::AddToScheme(*scheme).Ok());
    return scheme;
}

}  // namespace

using ctrl::testing::SharedAdminConfig;

void ClientTest::SetUp() {
    const rest::Config config = SharedAdminConfig();
    StatusOr<std::unique_ptr<rest::Transport>> transport = rest::NewTransport(config, io_.get_executor());
    ASSERT_TRUE(transport.Ok()) << transport.GetStatus();
    auto counting = std::make_unique<CountingTransport>(std::move(transport).Value());
    counter_ = counting.get();
    auto auth = rest::NewAuthenticator(config);
    ASSERT_TRUE(auth.Ok()) << auth.GetStatus();
    rest_ = std::make_shared<rest::RestClient>(config, std::move(counting), std::move(auth).Value(), registry_);
    Options options;
    options.scheme = TestScheme();
    options.registry = &registry_;
    StatusOr<std::unique_ptr<Client>> client = NewForRestClient(rest_, std::move(options));
    ASSERT_TRUE(client.Ok()) << client.GetStatus();
    client_ = std::move(client).Value();

    ns_ = NamespaceForTest();
    api::Namespace ns;
    ns.SetName(ns_);
    Status created = Run(client_->Create(Ctx(), ns));
    ASSERT_TRUE(created.Ok()) << created;
}

void ClientTest::TearDown() {
    if (client_ == nullptr || ns_.empty())
        return;
    api::Namespace ns;
    ns.SetName(ns_);
    // Envtest runs no namespace controller: the namespace stays Terminating, which is harmless.
    (void)Run(client_->Delete(Ctx(), ns));
}

std::unique_ptr<Client> ClientTest::NewClient(boost::asio::io_context& io, Options options) {
    if (options.scheme == nullptr)
        options.scheme = TestScheme();
    StatusOr<std::unique_ptr<Client>> client = New(SharedAdminConfig(), io.get_executor(), std::move(options));
    EXPECT_TRUE(client.Ok()) << client.GetStatus();
    return client.Ok() ? std::move(client).Value() : nullptr;
}

Object ClientTest::CreateConfigMap(const std::string& name, const std::map<std::string, std::string>& labels,
                                   const std::map<std::string, std::string>& data) {
    Object cm;
    cm.SetApiVersion("v1");
    cm.SetKind("ConfigMap");
    cm.SetNamespace(ns_);
    cm.SetName(name);
    if (!labels.empty())
        cm.SetLabels(labels);
    if (!data.empty()) {
        EXPECT_TRUE(cm.SetNestedStringMap({"data"}, data).Ok());
    }
    Status created = Run(client_->Create(Ctx(), cm));
    EXPECT_TRUE(created.Ok()) << created;
    return cm;
}

}  // namespace ctrl::client::test
