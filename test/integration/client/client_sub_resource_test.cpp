// The status and other subresources through the direct client, on a CRD with status and scale
// subresources and on built-in pods and service accounts; and a CRD deleted under the client
// (issue 5, acceptance 1 and 4).

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <thread>

#include "ctrl/api/pod.hpp"
#include "ctrl/api/service_account.hpp"
#include "test/integration/client/client_fixture.hpp"
#include "test/support/client_conformance.hpp"
#include "test/support/eventually.hpp"

namespace ctrl::client::test {
namespace {

using namespace std::chrono_literals;

// The test.ctrl.dev/v1 Widget CRD of the conformance table: namespaced, status and scale subresources.
const GroupVersionKind kWidget = ctrl::testing::WidgetKind();

class SubResourceTest : public ClientTest {
  protected:
    // Creates the Widget CRD (through the client, as an unstructured object) and waits until
    // widgets can be listed.
    void InstallWidgets() {
        StatusOr<Object> crd = Object::Parse(ctrl::testing::WidgetCrdJson());
        ASSERT_TRUE(crd.Ok());
        Status created = Run(client_->Create(Ctx(), *crd));
        ASSERT_TRUE(created.Ok() || IsAlreadyExists(created)) << created;
        const auto served = [&] {
            ObjectList widgets;
            widgets.SetItemGroupVersionKind(kWidget);
            return Run(client_->List(Ctx(), widgets, InNamespace(ns_))).Ok();
        };
        EXPECT_TRUE(ctrl::testing::Eventually(served, ctrl::testing::kTestWait, 100ms))
            << "widgets are not served after the CRD was created";
    }

    Object NewWidget(const std::string& name) {
        Object widget;
        widget.SetGroupVersionKind(kWidget);
        widget.SetNamespace(ns_);
        widget.SetName(name);
        EXPECT_TRUE(widget.SetNestedString({"spec", "color"}, "blue").Ok());
        EXPECT_TRUE(widget.SetNestedInt({"spec", "replicas"}, 1).Ok());
        return widget;
    }
};

TEST_F(SubResourceTest, UpdateLeavesStatusAndStatusUpdateLeavesSpec) {
    InstallWidgets();
    Object widget = NewWidget("w1");
    ASSERT_TRUE(widget.SetNestedString({"status", "phase"}, "Ignored").Ok());
    ASSERT_TRUE(Run(client_->Create(Ctx(), widget)).Ok());
    EXPECT_FALSE(widget.HasNestedField({"status", "phase"})) << "create drops status";

    ASSERT_TRUE(widget.SetNestedString({"status", "phase"}, "Ready").Ok());
    ASSERT_TRUE(widget.SetNestedString({"spec", "color"}, "red").Ok());
    ASSERT_TRUE(Run(client_->Status().Update(Ctx(), widget)).Ok());
    EXPECT_EQ(widget.NestedString({"status", "phase"}).ValueOr(""), "Ready");
    EXPECT_EQ(widget.NestedString({"spec", "color"}).ValueOr(""), "blue") << "Status().Update kept spec";

    ASSERT_TRUE(widget.SetNestedString({"status", "phase"}, "Broken").Ok());
    ASSERT_TRUE(widget.SetNestedString({"spec", "color"}, "green").Ok());
    ASSERT_TRUE(Run(client_->Update(Ctx(), widget)).Ok());
    EXPECT_EQ(widget.NestedString({"spec", "color"}).ValueOr(""), "green");
    EXPECT_EQ(widget.NestedString({"status", "phase"}).ValueOr(""), "Ready") << "Update kept status";

    Patch status_patch = RawPatch(PatchType::kMergePatch, R"({"status":{"phase":"Patched"},"spec":{"color":"x"}})");
    ASSERT_TRUE(Run(client_->Status().Patch(Ctx(), widget, status_patch)).Ok());
    EXPECT_EQ(widget.NestedString({"status", "phase"}).ValueOr(""), "Patched");
    EXPECT_EQ(widget.NestedString({"spec", "color"}).ValueOr(""), "green");

    Object read;
    read.SetGroupVersionKind(kWidget);
    ASSERT_TRUE(Run(client_->Get(Ctx(), {ns_, "w1"}, read)).Ok());
    EXPECT_EQ(read.NestedString({"status", "phase"}).ValueOr(""), "Patched");
    EXPECT_EQ(read.NestedString({"spec", "color"}).ValueOr(""), "green");
}

TEST_F(SubResourceTest, ScaleIsReadAndWrittenThroughItsSubresource) {
    InstallWidgets();
    Object widget = NewWidget("scaled");
    ASSERT_TRUE(Run(client_->Create(Ctx(), widget)).Ok());
    Object scale;
    ASSERT_TRUE(Run(client_->SubResource("scale").Get(Ctx(), widget, scale)).Ok());
    EXPECT_EQ(scale.Kind(), "Scale");
    EXPECT_EQ(scale.NestedInt({"spec", "replicas"}).ValueOr(-1), 1);

    ASSERT_TRUE(scale.SetNestedInt({"spec", "replicas"}, 5).Ok());
    ASSERT_TRUE(Run(client_->SubResource("scale").Update(Ctx(), widget, scale)).Ok());
    EXPECT_EQ(scale.NestedInt({"spec", "replicas"}).ValueOr(-1), 5);
    Object read;
    read.SetGroupVersionKind(kWidget);
    ASSERT_TRUE(Run(client_->Get(Ctx(), {ns_, "scaled"}, read)).Ok());
    EXPECT_EQ(read.NestedInt({"spec", "replicas"}).ValueOr(-1), 5);

    Patch scale_patch = RawPatch(PatchType::kMergePatch, R"({"spec":{"replicas":2}})");
    ASSERT_TRUE(Run(client_->SubResource("scale").Patch(Ctx(), read, scale_patch)).Ok());
    EXPECT_EQ(read.Kind(), "Widget") << "an answer of another kind (a Scale) leaves the object as it was";
    ASSERT_TRUE(Run(client_->Get(Ctx(), {ns_, "scaled"}, read)).Ok());
    EXPECT_EQ(read.NestedInt({"spec", "replicas"}).ValueOr(-1), 2);

    Object scale_body;
    Patch to_three = RawPatch(PatchType::kMergePatch, R"({"spec":{"replicas":3}})");
    ASSERT_TRUE(Run(client_->SubResource("scale").Patch(Ctx(), read, scale_body, to_three)).Ok());
    EXPECT_EQ(scale_body.Kind(), "Scale");
    EXPECT_EQ(scale_body.NestedInt({"spec", "replicas"}).ValueOr(-1), 3);
}

TEST_F(SubResourceTest, EvictionAndTokenRequestsAreCreatedOnTheirSubresources) {
    StatusOr<api::Pod> pod = api::Pod::Parse(R"({"spec":{"containers":[{"name":"app","image":"busybox:1.36"}]}})");
    ASSERT_TRUE(pod.Ok());
    pod->SetNamespace(ns_);
    pod->SetName("evictee");
    ASSERT_TRUE(Run(client_->Create(Ctx(), *pod)).Ok());
    StatusOr<Object> eviction = Object::Parse(R"({"apiVersion":"policy/v1","kind":"Eviction"})");
    ASSERT_TRUE(eviction.Ok());
    eviction->SetNamespace(ns_);
    eviction->SetName("evictee");
    Status evicted = Run(client_->SubResource("eviction").Create(Ctx(), *pod, *eviction));
    ASSERT_TRUE(evicted.Ok()) << evicted;
    api::Pod gone;
    EXPECT_TRUE(IsNotFound(Run(client_->Get(Ctx(), {ns_, "evictee"}, gone)))) << "an unscheduled pod goes at once";

    api::ServiceAccount sa;
    sa.SetNamespace(ns_);
    sa.SetName("robot");
    ASSERT_TRUE(Run(client_->Create(Ctx(), sa)).Ok());
    StatusOr<Object> request = Object::Parse(
        R"({"apiVersion":"authentication.k8s.io/v1","kind":"TokenRequest","spec":{"expirationSeconds":600}})");
    ASSERT_TRUE(request.Ok());
    Status token = Run(client_->SubResource("token").Create(Ctx(), sa, *request));
    ASSERT_TRUE(token.Ok()) << token;
    EXPECT_FALSE(request->NestedString({"status", "token"}).ValueOr("").empty());
}

TEST_F(SubResourceTest, ACrdDeletedUnderTheClientBecomesNoMatch) {
    InstallWidgets();
    Object widget = NewWidget("short-lived");
    ASSERT_TRUE(Run(client_->Create(Ctx(), widget)).Ok());
    ASSERT_TRUE(client_->RESTMapper().CachedMapping(kWidget).has_value());

    Object crd;
    crd.SetApiVersion("apiextensions.k8s.io/v1");
    crd.SetKind("CustomResourceDefinition");
    crd.SetName("widgets.test.ctrl.dev");
    ASSERT_TRUE(Run(client_->Delete(Ctx(), crd)).Ok());
    // The first call after the group version went away answers 404 for the path; the client then
    // drops what the mapper knew, and the next call is NoMatch.
    Status last;
    const auto no_match = [&] {
        Object read;
        read.SetGroupVersionKind(kWidget);
        last = Run(client_->Get(Ctx(), {ns_, "short-lived"}, read));
        return IsNoMatch(last);
    };
    EXPECT_TRUE(ctrl::testing::Eventually(no_match, ctrl::testing::kTestWait, 100ms)) << last;
    EXPECT_FALSE(client_->RESTMapper().CachedMapping(kWidget).has_value());
}

}  // namespace
}  // namespace ctrl::client::test
