#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "ctrl/envtest/crd_install.hpp"

namespace ctrl::envtest {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

std::string Crd(const std::string& plural, const std::string& api_version = "apiextensions.k8s.io/v1") {
    return "apiVersion: " + api_version + "\nkind: CustomResourceDefinition\nmetadata:\n  name: " + plural +
           ".example.ctrl.io\nspec:\n  group: example.ctrl.io\n  scope: Namespaced\n  names:\n    plural: " + plural +
           "\n    kind: K" + plural + "\n  versions:\n  - name: v1\n    served: true\n    storage: true\n";
}

class CrdReadTest : public ::testing::Test {
  protected:
    void SetUp() override {
        dir_ = fs::temp_directory_path() / ("ctrl-envtest-crd-" + std::to_string(::getpid()));
        fs::create_directories(dir_);
    }
    void TearDown() override { fs::remove_all(dir_); }
    void Write(const std::string& name, const std::string& text) { std::ofstream(dir_ / name) << text; }

    fs::path dir_;
};

TEST_F(CrdReadTest, ReadsADirectorysManifestsInNameOrderSkippingOtherKinds) {
    Write("b.yaml",
          Crd("bees") + "---\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: other\n---\n" + Crd("cats"));
    Write("a.yml", Crd("ants"));
    Write("notes.txt", Crd("ignored"));
    auto crds = ReadCRDs({.paths = {dir_.string()}});
    ASSERT_TRUE(crds.Ok()) << crds.GetStatus();
    ASSERT_EQ(crds->size(), 3u);
    EXPECT_EQ((*crds)[0].Names().plural, "ants");
    EXPECT_EQ((*crds)[1].Names().plural, "bees");
    EXPECT_EQ((*crds)[2].Names().plural, "cats");
}

TEST_F(CrdReadTest, ReadsFilesAndManifestText) {
    Write("one.yaml", Crd("ones"));
    auto crds = ReadCRDs({.paths = {(dir_ / "one.yaml").string()}, .manifests = {Crd("twos")}});
    ASSERT_TRUE(crds.Ok()) << crds.GetStatus();
    ASSERT_EQ(crds->size(), 2u);
    EXPECT_EQ((*crds)[1].Name(), "twos.example.ctrl.io");
}

TEST_F(CrdReadTest, AMissingPathIsNotFoundUnlessAllowed) {
    const std::string missing = (dir_ / "nope").string();
    auto crds = ReadCRDs({.paths = {missing}});
    EXPECT_TRUE(IsNotFound(crds.GetStatus())) << crds.GetStatus();
    EXPECT_THAT(crds.GetStatus().Message(), HasSubstr(missing));
    auto allowed = ReadCRDs({.paths = {missing}, .error_if_path_missing = false});
    ASSERT_TRUE(allowed.Ok()) << allowed.GetStatus();
    EXPECT_TRUE(allowed->empty());
}

TEST_F(CrdReadTest, RefusesMalformedYamlAndOldCrdVersionsNamingTheFile) {
    Write("bad.yaml", "a: [1, 2");
    auto bad = ReadCRDs({.paths = {(dir_ / "bad.yaml").string()}});
    EXPECT_TRUE(IsBadRequest(bad.GetStatus())) << bad.GetStatus();
    EXPECT_THAT(bad.GetStatus().ToString(), HasSubstr("bad.yaml"));
    Write("old.yaml", Crd("olds", "apiextensions.k8s.io/v1beta1"));
    auto old = ReadCRDs({.paths = {(dir_ / "old.yaml").string()}});
    EXPECT_TRUE(IsBadRequest(old.GetStatus())) << old.GetStatus();
    EXPECT_THAT(old.GetStatus().ToString(), HasSubstr("v1beta1"));
}

TEST(PointConversionAtTest, PointsAWebhookConversionAtTheLocalServerAndLeavesOthersAlone) {
    const std::string converted = Crd("dogs") +
                                  "  conversion:\n    strategy: Webhook\n    webhook:\n"
                                  "      clientConfig: {service: {name: s, namespace: n, path: /convert}}\n";
    auto crds = ReadCRDs({.manifests = {converted, Crd("cows")}});
    ASSERT_TRUE(crds.Ok()) << crds.GetStatus();
    ASSERT_EQ(crds->size(), 2u);
    const ConversionWebhookClient client{"https://127.0.0.1:9443/convert", "-----BEGIN CERTIFICATE-----\n"};
    for (api::CustomResourceDefinition& crd : *crds)
        ASSERT_TRUE(PointConversionAt(crd, client).Ok());
    const api::CustomResourceDefinition& dogs = (*crds)[0];
    EXPECT_EQ(*dogs.NestedString({"spec", "conversion", "webhook", "clientConfig", "url"}), client.url);
    EXPECT_EQ(*dogs.NestedString({"spec", "conversion", "webhook", "clientConfig", "caBundle"}),
              "LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCg==");
    EXPECT_FALSE(dogs.HasNestedField({"spec", "conversion", "webhook", "clientConfig", "service"}));
    EXPECT_EQ(*dogs.NestedStringSlice({"spec", "conversion", "webhook", "conversionReviewVersions"}),
              (std::vector<std::string>{"v1", "v1beta1"}));
    EXPECT_FALSE((*crds)[1].HasNestedField({"spec", "conversion"})) << "a CRD that does not convert is left alone";
}

}  // namespace
}  // namespace ctrl::envtest
