// The client conformance table against the fake client: the same cases, and the same Status codes,
// as test/integration/client/client_conformance_test.cpp gets from the real API server.
#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>

#include "ctrl/api/namespace.hpp"
#include "ctrl/core/run_sync.hpp"
#include "ctrl/fake/client_builder.hpp"
#include "test/support/client_conformance.hpp"
#include "test/support/eventually.hpp"

namespace ctrl::fake {
namespace {

using ctrl::testing::TestContext;

using ctrl::testing::ClientConformanceCase;

class FakeClientConformanceTest : public ::testing::TestWithParam<ClientConformanceCase> {
  protected:
    void SetUp() override {
        StatusOr<Object> crd = Object::Parse(ctrl::testing::WidgetCrdJson());
        ASSERT_TRUE(crd.Ok()) << crd.GetStatus();
        StatusOr<std::unique_ptr<FakeClient>> built = NewClientBuilder().WithCustomResourceDefinition(*crd).Build();
        ASSERT_TRUE(built.Ok()) << built.GetStatus();
        client_ = std::move(built).Value();
        for (const std::string& name : {ns_, std::string("default")}) {
            api::Namespace ns;
            ns.SetName(name);
            ASSERT_TRUE(RunSync(io_, client_->Create(TestContext(), ns)).Ok());
        }
    }

    boost::asio::io_context io_;
    std::unique_ptr<FakeClient> client_;
    std::string ns_ = "conformance";
};

TEST_P(FakeClientConformanceTest, Run) {
    EXPECT_TRUE(RunSync(io_, ctrl::testing::RunConformanceCase(GetParam(), *client_, ns_)));
}

INSTANTIATE_TEST_SUITE_P(Cases, FakeClientConformanceTest, ::testing::ValuesIn(ctrl::testing::ClientConformanceCases()),
                         ctrl::testing::ConformanceCaseName);

}  // namespace
}  // namespace ctrl::fake
