#include "ctrl/core/gvk.hpp"

#include <gtest/gtest.h>

#include <unordered_set>

namespace ctrl {
namespace {

TEST(GroupVersionTest, ParsesCoreAndGroupForms) {
    StatusOr<GroupVersion> core = GroupVersion::Parse("v1");
    ASSERT_TRUE(core.Ok());
    EXPECT_EQ(core->group, "");
    EXPECT_EQ(core->version, "v1");
    EXPECT_EQ(core->String(), "v1");

    StatusOr<GroupVersion> apps = GroupVersion::Parse("vpcresources.k8s.aws/v1beta1");
    ASSERT_TRUE(apps.Ok());
    EXPECT_EQ(apps->group, "vpcresources.k8s.aws");
    EXPECT_EQ(apps->version, "v1beta1");
    EXPECT_EQ(apps->String(), "vpcresources.k8s.aws/v1beta1");
}

TEST(GroupVersionTest, RejectsMalformedApiVersions) {
    for (const char* bad : {"", "/v1", "apps/", "a/b/c", "/"}) {
        StatusOr<GroupVersion> parsed = GroupVersion::Parse(bad);
        EXPECT_FALSE(parsed.Ok()) << bad;
        EXPECT_TRUE(IsBadRequest(parsed.GetStatus())) << bad;
    }
    EXPECT_EQ(GroupVersion::Parse("a/b/c").GetStatus().Message(),
              "apiVersion \"a/b/c\" is not of the form \"version\" or \"group/version\"");
}

TEST(GroupVersionKindTest, BuildsFromApiVersionAndKindAndPrintsLikeGo) {
    StatusOr<GroupVersionKind> gvk = GroupVersionKind::FromApiVersionKind("apps/v1", "Deployment");
    ASSERT_TRUE(gvk.Ok());
    EXPECT_EQ(*gvk, (GroupVersionKind{"apps", "v1", "Deployment"}));
    EXPECT_EQ(gvk->String(), "apps/v1, Kind=Deployment");
    EXPECT_EQ(gvk->ApiVersion(), "apps/v1");
    EXPECT_EQ(gvk->ToGroupKind().String(), "Deployment.apps");
    EXPECT_EQ((GroupVersionKind{"", "v1", "Pod"}).String(), "/v1, Kind=Pod");  // Go prints the empty group too
    EXPECT_FALSE(GroupVersionKind::FromApiVersionKind("v1", "").Ok());
    EXPECT_FALSE(GroupVersionKind::FromApiVersionKind("", "Pod").Ok());
}

TEST(GroupVersionResourceTest, PrintsLikeGo) {
    GroupVersionResource gvr{"vpcresources.k8s.aws", "v1beta1", "securitygrouppolicies"};
    EXPECT_EQ(gvr.String(), "vpcresources.k8s.aws/v1beta1, Resource=securitygrouppolicies");
    EXPECT_EQ(gvr.ToGroupResource().String(), "securitygrouppolicies.vpcresources.k8s.aws");
    EXPECT_EQ((GroupResource{"", "pods"}).String(), "pods");
}

TEST(ObjectKeyTest, PrintsNamespaceSlashName) {
    EXPECT_EQ((ObjectKey{"kube-system", "coredns"}).String(), "kube-system/coredns");
    EXPECT_EQ((ObjectKey{"", "node-1"}).String(), "node-1");
}

TEST(GvkHashTest, EqualValuesHashEquallyAndDistinctOnesAreKeptApart) {
    std::unordered_set<GroupVersionKind> set;
    set.insert({"a", "v1", "K"});
    set.insert({"a", "v1", "K"});
    set.insert({"a", "v2", "K"});
    set.insert({"", "v1", "K"});
    EXPECT_EQ(set.size(), 3u);
    std::unordered_set<ObjectKey> keys{{"ns", "a"}, {"ns", "a"}, {"", "ns/a"}};
    EXPECT_EQ(keys.size(), 2u);
}

TEST(GvkOrderTest, OrdersByGroupThenVersionThenKind) {
    EXPECT_LT((GroupVersionKind{"a", "v1", "Z"}), (GroupVersionKind{"b", "v1", "A"}));
    EXPECT_LT((GroupVersionKind{"a", "v1", "Z"}), (GroupVersionKind{"a", "v2", "A"}));
}

}  // namespace
}  // namespace ctrl
