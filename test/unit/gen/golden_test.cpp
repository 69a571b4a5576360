// ctrl-gen's output for each testdata/crds/<name>.yaml equals testdata/golden/<name>/*.golden, and
// is byte-identical when generated again. CTRL_UPDATE_GOLDEN=1 rewrites the golden files.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "test/support/read_file.hpp"
#include "test/support/repo_path.hpp"
#include "tools/ctrl-gen/generator.hpp"

namespace ctrl::gen {
namespace {

const std::filesystem::path kTestdata = ::ctrl::testing::RepoPath(CTRL_GEN_TESTDATA_DIR);

using ctrl::testing::ReadFile;

std::vector<std::string> CrdNames() {
    std::vector<std::string> names;
    for (const auto& entry : std::filesystem::directory_iterator(kTestdata / "crds"))
        names.push_back(entry.path().stem().string());
    std::sort(names.begin(), names.end());
    return names;
}

StatusOr<std::vector<GeneratedFile>> GenerateFor(const std::string& name) {
    Options options;
    options.cpp_namespace = "gentest::{group}::{version}";
    options.include_prefix = "gen";
    // Given by a path elsewhere: only the base name shows in the output.
    return Generate({InputFile{"/some/where/" + name + ".yaml", ReadFile(kTestdata / "crds" / (name + ".yaml"))}},
                    options);
}

class GoldenTest : public ::testing::TestWithParam<std::string> {};

TEST_P(GoldenTest, MatchesTheGoldenFiles) {
    const std::string name = GetParam();
    auto files = GenerateFor(name);
    ASSERT_TRUE(files.Ok()) << files.GetStatus();
    const std::filesystem::path dir = kTestdata / "golden" / name;
    if (std::getenv("CTRL_UPDATE_GOLDEN") != nullptr) {
        std::filesystem::remove_all(dir);
        std::filesystem::create_directories(dir);
        for (const GeneratedFile& file : *files)
            std::ofstream(dir / (file.path + ".golden"), std::ios::binary) << file.content;
    }
    std::vector<std::string> expected_names;
    for (const auto& entry : std::filesystem::directory_iterator(dir))
        expected_names.push_back(entry.path().filename().string());
    std::sort(expected_names.begin(), expected_names.end());
    std::vector<std::string> names;
    for (const GeneratedFile& file : *files) {
        names.push_back(file.path + ".golden");
        EXPECT_EQ(file.content, ReadFile(dir / (file.path + ".golden")))
            << file.path << " differs from its golden file; CTRL_UPDATE_GOLDEN=1 regenerates them";
    }
    EXPECT_EQ(names, expected_names);
}

TEST_P(GoldenTest, IsDeterministic) {
    auto first = GenerateFor(GetParam());
    auto second = GenerateFor(GetParam());
    ASSERT_TRUE(first.Ok() && second.Ok());
    ASSERT_EQ(first->size(), second->size());
    for (std::size_t i = 0; i < first->size(); ++i) {
        EXPECT_EQ((*first)[i].path, (*second)[i].path);
        EXPECT_EQ((*first)[i].content, (*second)[i].content);
    }
}

TEST_P(GoldenTest, LinesFitTheHouseStyle) {
    auto files = GenerateFor(GetParam());
    ASSERT_TRUE(files.Ok());
    for (const GeneratedFile& file : *files) {
        std::istringstream lines(file.content);
        int number = 0;
        for (std::string line; std::getline(lines, line);) {
            ++number;
            EXPECT_LE(line.size(), 120u) << file.path << ":" << number << ": " << line;
            EXPECT_TRUE(line.empty() || line.back() != ' ') << file.path << ":" << number << " ends in a space";
            EXPECT_EQ(line.find('\t'), std::string::npos) << file.path << ":" << number;
        }
    }
}

TEST(GoldenStyleTest, RealAndProjectCrdsFitTheHouseStyle) {
    std::vector<std::filesystem::path> crds;
    for (const auto& entry : std::filesystem::directory_iterator(kTestdata / "real"))
        crds.push_back(entry.path());
    crds.push_back(kTestdata / "../../../../manifests/crd/securitygrouppolicies.vpcresources.k8s.aws.yaml");
    crds.push_back(kTestdata / "../../../../manifests/crd/cninodes.vpcresources.k8s.aws.yaml");
    for (const std::filesystem::path& crd : crds) {
        Options options;
        options.cpp_namespace = "ctrl::api";
        auto files = Generate({InputFile{crd.string(), ReadFile(crd)}}, options);
        ASSERT_TRUE(files.Ok()) << crd << ": " << files.GetStatus();
        for (const GeneratedFile& file : *files) {
            std::istringstream lines(file.content);
            int number = 0;
            for (std::string line; std::getline(lines, line);)
                EXPECT_LE(line.size(), 120u) << file.path << ":" << ++number << ": " << line;
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Crds, GoldenTest, ::testing::ValuesIn(CrdNames()),
                         [](const auto& info) { return info.param; });

TEST(GeneratorTest, FiltersVersionsAndKinds) {
    Options options;
    options.cpp_namespace = "x::{version}";
    options.versions = {"v1beta1"};
    auto files = Generate({InputFile{"versions.yaml", ReadFile(kTestdata / "crds" / "versions.yaml")}}, options);
    ASSERT_TRUE(files.Ok()) << files.GetStatus();
    std::vector<std::string> paths;
    for (const GeneratedFile& file : *files)
        paths.push_back(file.path);
    EXPECT_EQ(paths,
              (std::vector<std::string>{"shelf.cpp", "shelf.hpp", "versions_v1beta1.cpp", "versions_v1beta1.hpp"}));
    options.kinds = {"Nothing"};
    EXPECT_FALSE(Generate({InputFile{"versions.yaml", ReadFile(kTestdata / "crds" / "versions.yaml")}}, options).Ok());
}

TEST(GeneratorTest, TwoVersionsInOneNamespaceIsAnError) {
    Options options;
    options.cpp_namespace = "x";
    auto files = Generate({InputFile{"versions.yaml", ReadFile(kTestdata / "crds" / "versions.yaml")}}, options);
    ASSERT_FALSE(files.Ok());
    EXPECT_NE(files.GetStatus().Message().find("put {version} in the namespace"), std::string::npos)
        << files.GetStatus();
}

TEST(GeneratorTest, ExtensionsAddABaseAndTheirRules) {
    Options options;
    options.cpp_namespace = "x";
    options.extensions = {"Widget=WidgetRules:my/widget_rules.hpp"};
    auto files = Generate({InputFile{"nested.yaml", ReadFile(kTestdata / "crds" / "nested.yaml")}}, options);
    ASSERT_TRUE(files.Ok()) << files.GetStatus();
    for (const GeneratedFile& file : *files) {
        if (file.path == "widget.hpp") {
            EXPECT_NE(file.content.find("#include \"my/widget_rules.hpp\""), std::string::npos);
            EXPECT_NE(file.content.find("public WidgetRules<Widget> {"), std::string::npos);
            EXPECT_NE(file.content.find("public WidgetRules<WidgetView> {"), std::string::npos);
        }
        if (file.path == "widget.cpp") {
            EXPECT_NE(file.content.find("ValidateRules(validation);"), std::string::npos);
        }
    }
    options.extensions = {"Gadget=GadgetRules:g.hpp"};
    auto unknown = Generate({InputFile{"nested.yaml", ReadFile(kTestdata / "crds" / "nested.yaml")}}, options);
    EXPECT_EQ(unknown.GetStatus().Message(), "extension for Gadget: no such kind is generated");
    options.extensions = {"Widget"};
    EXPECT_FALSE(Generate({InputFile{"nested.yaml", ReadFile(kTestdata / "crds" / "nested.yaml")}}, options).Ok());
}

TEST(GeneratorTest, BundleIncludesEveryFile) {
    Options options;
    options.bundle = "all";
    options.include_prefix = "p";
    auto files = Generate({InputFile{"nested.yaml", ReadFile(kTestdata / "crds" / "nested.yaml")}}, options);
    ASSERT_TRUE(files.Ok());
    for (const GeneratedFile& file : *files) {
        if (file.path == "all.cpp") {
            EXPECT_NE(file.content.find("#include \"p/widget.cpp\""), std::string::npos);
            EXPECT_NE(file.content.find("#include \"p/nested_v1.cpp\""), std::string::npos);
        }
    }
}

}  // namespace
}  // namespace ctrl::gen
