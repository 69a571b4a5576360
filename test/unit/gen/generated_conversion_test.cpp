// The hub and spokes ctrl-gen declares for a CRD converted by webhook (testdata/crds/conversion.yaml:
// Lamp v1 is the hub, v1alpha1 and v1beta1 its spokes), compiled in: the concepts hold, the spokes'
// ConvertTo and ConvertFrom (defined here, as an author does) convert through the hub, and the
// stubs ctrl-gen writes for the author.
#include <gtest/gtest.h>

#include "ctrl/webhook/conversion/convertible.hpp"
#include "ctrl/webhook/conversion/copy_field.hpp"
#include "gen/lamp_v1alpha1.hpp"  // brings the hub and the other spoke
#include "test/support/read_file.hpp"
#include "test/support/repo_path.hpp"
#include "tools/ctrl-gen/generator.hpp"

namespace gentest::conversion {

using ctrl::webhook::conversion::CopyField;

// v1alpha1 says spec.watts; the hub says spec.power.watts.
ctrl::Status v1alpha1::Lamp::ConvertTo(ConversionHub& hub) const {
    if (std::optional<int64_t> watts = Spec().Watts())
        hub.MutableSpec().MutablePower().SetWatts(*watts);
    return ctrl::OkStatus();
}

ctrl::Status v1alpha1::Lamp::ConvertFrom(const ConversionHub& hub) {
    if (std::optional<int64_t> watts = hub.Spec().Power().Watts())
        MutableSpec().SetWatts(*watts);
    return ctrl::OkStatus();
}

// v1beta1 says spec.power as a number of watts.
ctrl::Status v1beta1::Lamp::ConvertTo(ConversionHub& hub) const {
    return CopyField(*this, {"spec", "power"}, hub, {"spec", "power", "watts"});
}

ctrl::Status v1beta1::Lamp::ConvertFrom(const ConversionHub& hub) {
    return CopyField(hub, {"spec", "power", "watts"}, *this, {"spec", "power"});
}

}  // namespace gentest::conversion

namespace ctrl::gen {
namespace {

namespace lamps = gentest::conversion;
using webhook::conversion::Convertible;
using webhook::conversion::Hub;

static_assert(Hub<lamps::v1::Lamp> && !Convertible<lamps::v1::Lamp>);
static_assert(Convertible<lamps::v1alpha1::Lamp> && !Hub<lamps::v1alpha1::Lamp>);
static_assert(std::is_same_v<lamps::v1beta1::Lamp::ConversionHub, lamps::v1::Lamp>);
static_assert(
    std::is_same_v<lamps::v1::Lamp::ConversionSpokes, scheme::KindList<lamps::v1alpha1::Lamp, lamps::v1beta1::Lamp>>);

TEST(GeneratedConversionTest, TheSpokesConvertThroughTheHub) {
    StatusOr<webhook::conversion::Converter> converter = webhook::conversion::HubConverter<lamps::v1::Lamp>();
    ASSERT_TRUE(converter.Ok()) << converter.GetStatus();
    EXPECT_EQ(converter->Versions(), (std::vector<std::string>{"v1", "v1alpha1", "v1beta1"}));
    lamps::v1alpha1::Lamp lamp;
    lamp.SetName("desk");
    lamp.MutableSpec().SetWatts(40);
    StatusOr<Object> beta = converter->Convert(lamp, "v1beta1");
    ASSERT_TRUE(beta.Ok()) << beta.GetStatus();
    EXPECT_EQ(beta->ToJson(),
              R"({"apiVersion":"conversion.gen.example.com/v1beta1","kind":"Lamp","metadata":{"name":"desk"},)"
              R"("spec":{"power":40}})");
}

TEST(GeneratedConversionTest, StubsAreWrittenForTheSpokesOnly) {
    Options options;
    options.cpp_namespace = "gentest::{group}::{version}";
    options.include_prefix = "gen";
    options.conversion_stubs = true;
    const std::string crd =
        ctrl::testing::ReadFile(::ctrl::testing::RepoPath(CTRL_GEN_TESTDATA_DIR) + "/crds/conversion.yaml");
    StatusOr<std::vector<GeneratedFile>> stubs = Generate({InputFile{"conversion.yaml", crd}}, options);
    ASSERT_TRUE(stubs.Ok()) << stubs.GetStatus();
    ASSERT_EQ(stubs->size(), 2u);
    EXPECT_EQ((*stubs)[0].path, "lamp_v1alpha1_conversion.cpp");
    EXPECT_EQ((*stubs)[1].path, "lamp_v1beta1_conversion.cpp");
    EXPECT_EQ((*stubs)[0].content, ctrl::testing::ReadFile(::ctrl::testing::RepoPath(CTRL_GEN_TESTDATA_DIR) +
                                                           "/stubs/lamp_v1alpha1_conversion.cpp.golden"));

    const std::string versions =
        ctrl::testing::ReadFile(::ctrl::testing::RepoPath(CTRL_GEN_TESTDATA_DIR) + "/crds/versions.yaml");
    StatusOr<std::vector<GeneratedFile>> none = Generate({InputFile{"versions.yaml", versions}}, options);
    ASSERT_FALSE(none.Ok()) << "a CRD that does not convert by webhook has no stubs";
    EXPECT_NE(none.GetStatus().Message().find("no conversion to write stubs for"), std::string::npos);
}

TEST(GeneratedConversionTest, AnUngeneratedStorageVersionDeclaresNoConversion) {
    Options options;
    options.cpp_namespace = "x::{version}";
    options.versions = {"v1alpha1", "v1beta1"};
    const std::string crd =
        ctrl::testing::ReadFile(::ctrl::testing::RepoPath(CTRL_GEN_TESTDATA_DIR) + "/crds/conversion.yaml");
    std::vector<std::string> warnings;
    StatusOr<std::vector<GeneratedFile>> files = Generate({InputFile{"conversion.yaml", crd}}, options, &warnings);
    ASSERT_TRUE(files.Ok()) << files.GetStatus();
    for (const GeneratedFile& file : *files)
        EXPECT_EQ(file.content.find("Conversion"), std::string::npos) << file.path;
    ASSERT_EQ(warnings.size(), 1u);
    EXPECT_NE(warnings[0].find("the storage version, the conversion hub, is not generated"), std::string::npos);
}

}  // namespace
}  // namespace ctrl::gen
