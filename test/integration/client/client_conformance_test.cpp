// The client conformance table against the real API server through the direct client: the oracle
// the fake client (test/unit/fake) must match, Status codes included (issue 11, acceptance 4).
#include <gtest/gtest.h>

#include <thread>

#include "test/integration/client/client_fixture.hpp"
#include "test/support/client_conformance.hpp"

namespace ctrl::client::test {
namespace {

using ctrl::testing::ClientConformanceCase;

class ClientConformanceTest : public ClientTest, public ::testing::WithParamInterface<ClientConformanceCase> {
  protected:
    void SetUp() override {
        ClientTest::SetUp();
        if (HasFatalFailure())
            return;
        InstallWidgets();
    }

    // Creates the Widget CRD once per process and waits until widgets are served.
    void InstallWidgets() {
        static bool installed = false;
        if (installed)
            return;
        StatusOr<Object> crd = Object::Parse(ctrl::testing::WidgetCrdJson());
        ASSERT_TRUE(crd.Ok());
        const Status created = Run(client_->Create(Ctx(), *crd));
        ASSERT_TRUE(created.Ok() || IsAlreadyExists(created)) << created;
        for (int i = 0; i < 100; ++i) {
            ObjectList widgets;
            widgets.SetItemGroupVersionKind(ctrl::testing::WidgetKind());
            ListOptions in_ns;
            in_ns.namespace_name = ns_;
            if (Run(client_->List(Ctx(), widgets, in_ns)).Ok()) {
                installed = true;
                return;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
        }
        FAIL() << "widgets are not served 10 s after the CRD was created";
    }
};

TEST_P(ClientConformanceTest, Run) {
    EXPECT_TRUE(Run(ctrl::testing::RunConformanceCase(GetParam(), *client_, ns_)));
}

INSTANTIATE_TEST_SUITE_P(Cases, ClientConformanceTest, ::testing::ValuesIn(ctrl::testing::ClientConformanceCases()),
                         ctrl::testing::ConformanceCaseName);

}  // namespace
}  // namespace ctrl::client::test
