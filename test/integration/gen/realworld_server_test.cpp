// The real-world CRDs as the API server judges them: installed from test/unit/gen/testdata/realworld
// as published, each sample is accepted (a dry-run create), and each invalid case of
// realworld_cases.cpp is refused naming the same fields as the generated kind's Validate(), except
// the cases marked as gaps (CEL rules, a pattern std::regex cannot read), which Validate() accepts.
// Values at the edges the server accepts (an integer written 2.0, int32's largest, an RFC 3339 time)
// Validate() accepts too. Prints one line per case: the server's fields and ours.

#include <gtest/gtest.h>

#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <boost/asio/io_context.hpp>

#include "ctrl/client/client.hpp"
#include "ctrl/core/run_sync.hpp"
#include "ctrl/envtest/environment.hpp"
#include "test/support/eventually.hpp"
#include "test/unit/gen/realworld/realworld_cases.hpp"

namespace ctrl::realworld {
namespace {

std::string Join(const std::vector<std::string>& items) {
    std::string out;
    for (const std::string& item : items)
        out += (out.empty() ? "" : ", ") + item;
    return out.empty() ? "(none)" : out;
}

// One control plane with the real-world CRDs and the samples' namespaces.
class RealWorldEnvironment final : public ::testing::Environment {
  public:
    void SetUp() override {
        envtest::EnvironmentOptions options;
        options.crd_paths = {CTRL_REALWORLD_DIR};
        env_ = std::make_unique<envtest::Environment>(std::move(options));
        StatusOr<rest::Config> config = env_->Start();
        ASSERT_TRUE(config.Ok()) << config.GetStatus();
        std::cout << "control plane: kube-apiserver " << env_->GetControlPlane().Version() << ", "
                  << env_->CRDs().size() << " CRDs installed" << std::endl;
        boost::asio::io_context io;
        auto client = client::New(*config, io.get_executor());
        ASSERT_TRUE(client.Ok()) << client.GetStatus();
        for (const char* name : {"shop", "infra", "monitoring", "flux-system", "velero", "argocd"}) {
            auto ns = Object::Parse(std::string(R"({"apiVersion":"v1","kind":"Namespace","metadata":{"name":")") +
                                    name + R"("}})");
            ASSERT_TRUE(ns.Ok());
            const Status created = RunSync(io, (*client)->Create(ctrl::testing::TestContext(), *ns));
            ASSERT_TRUE(created.Ok()) << created;
        }
    }
    void TearDown() override { env_->Stop(); }
    static envtest::Environment& Get() { return *env_; }

  private:
    static inline std::unique_ptr<envtest::Environment> env_;
};

// The fields of the server's causes, sorted: without the cause it adds when a schema error kept it
// from running CEL rules (field "<nil>", "some validation rules were not checked because the
// object was invalid"), and with the path of a cause that names it only in its message (a format
// int32 error: field "<nil>", "Checked value must be of type integer with format int32 in
// spec.replicas").
std::vector<std::string> ServerFields(const Status& status) {
    std::vector<StatusCause> causes;
    for (StatusCause cause : status.Causes()) {
        if (cause.field == "<nil>" && cause.message.find("some validation rules were not checked") != std::string::npos)
            continue;
        if (const std::size_t in = cause.message.rfind(" in "); cause.field == "<nil>" && in != std::string::npos)
            cause.field = cause.message.substr(in + 4);
        causes.push_back(std::move(cause));
    }
    return CauseFields(status.WithCauses(std::move(causes)));
}

// The server's verdict on json: OK, or the status of the refused dry-run create.
Status DryRunCreate(const std::string& json) {
    boost::asio::io_context io;
    auto client = client::New(RealWorldEnvironment::Get().Config(), io.get_executor());
    if (!client.Ok())
        return client.GetStatus();
    auto object = Object::Parse(json);
    if (!object.Ok())
        return object.GetStatus();
    return RunSync(io, (*client)->Create(ctrl::testing::TestContext(), *object, client::DryRunAll()));
}

TEST(RealWorldServerTest, EverySampleIsAcceptedByServerAndValidate) {
    for (const RealCrd& crd : RealCrds()) {
        const std::string sample = Sample(crd.name);
        const Status server = DryRunCreate(sample);
        EXPECT_TRUE(server.Ok()) << crd.name << ": " << server;
        EXPECT_EQ(crd.validate(sample), std::vector<std::string>{}) << crd.name;
        std::cout << "sample " << crd.name << ": server " << (server.Ok() ? "accepts" : "refuses") << std::endl;
    }
}

TEST(RealWorldServerTest, EveryInvalidCaseIsRefusedNamingTheFieldsValidateNames) {
    for (const InvalidCase& invalid : InvalidCases()) {
        const RealCrd* crd = FindCrd(invalid.crd);
        ASSERT_NE(crd, nullptr) << invalid.crd;
        const std::string json = InvalidObject(invalid);
        const Status server = DryRunCreate(json);
        const std::vector<std::string> server_fields = ServerFields(server);
        const std::vector<std::string> ours = crd->validate(json);
        EXPECT_TRUE(IsInvalid(server)) << invalid.crd << ": " << invalid.what << ": " << server;
        EXPECT_EQ(server_fields, invalid.fields) << invalid.crd << ": " << invalid.what << ": " << server;
        if (invalid.gap.empty())
            EXPECT_EQ(ours, server_fields) << invalid.crd << ": " << invalid.what;
        else
            EXPECT_EQ(ours, std::vector<std::string>{}) << invalid.crd << ": " << invalid.what;
        std::cout << invalid.crd << ": " << invalid.what << ": server [" << Join(server_fields) << "], Validate() ["
                  << Join(ours) << "]" << (invalid.gap.empty() ? "" : " gap: " + invalid.gap) << std::endl;
        std::cout << "    server says: " << server.Message().substr(0, 300) << std::endl;
    }
}

TEST(RealWorldServerTest, ValuesAtTheEdgesTheServerAcceptsValidateAcceptsToo) {
    for (const AcceptedCase& accepted : AcceptedCases()) {
        const RealCrd* crd = FindCrd(accepted.crd);
        ASSERT_NE(crd, nullptr) << accepted.crd;
        const std::string json = AcceptedObject(accepted);
        const Status server = DryRunCreate(json);
        const std::vector<std::string> ours = crd->validate(json);
        EXPECT_TRUE(server.Ok()) << accepted.crd << ": " << accepted.what << ": " << server;
        EXPECT_EQ(ours, std::vector<std::string>{}) << accepted.crd << ": " << accepted.what;
        std::cout << accepted.crd << ": " << accepted.what << ": server "
                  << (server.Ok() ? "accepts" : "refuses [" + Join(ServerFields(server)) + "]") << ", Validate() ["
                  << Join(ours) << "]" << std::endl;
    }
}

}  // namespace
}  // namespace ctrl::realworld

int main(int argc, char** argv) {
    ::testing::InitGoogleTest(&argc, argv);
    ::testing::AddGlobalTestEnvironment(new ctrl::realworld::RealWorldEnvironment());
    return RUN_ALL_TESTS();
}
