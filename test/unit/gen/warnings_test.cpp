// What real CRDs showed ctrl-gen (docs/crd-compatibility.md): a pattern std::regex cannot compile is a
// warning naming the CRD and the field, not silence, and so are CEL rules (counted per version); a
// long string literal is never split across lines; a kind named as its group's label, in several
// versions, does not collide with the group version's registration file.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "tools/ctrl-gen/generator.hpp"

namespace ctrl::gen {
namespace {

std::string Crd(const std::string& group, const std::string& kind, const std::vector<std::string>& versions,
                const std::string& spec_properties) {
    std::string text = "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: xs." +
                       group + "\nspec:\n  group: " + group + "\n  names: {kind: " + kind +
                       ", plural: xs}\n  scope: Namespaced\n  versions:\n";
    for (const std::string& version : versions) {
        text += "    - name: " + version +
                "\n      served: true\n      storage: " + (version == versions.front() ? "true" : "false") +
                "\n      schema:\n        openAPIV3Schema:\n          type: object\n          properties:\n"
                "            spec:\n              type: object\n              properties:\n" +
                spec_properties;
    }
    return text;
}

// Whether every line of text closes the string literals it opens.
bool LiteralsClosedOnEachLine(const std::string& text, std::string& bad_line) {
    std::size_t start = 0;
    while (start < text.size()) {
        const std::size_t end = std::min(text.find('\n', start), text.size());
        const std::string line = text.substr(start, end - start);
        bool inside = false;
        for (std::size_t i = 0; i < line.size(); ++i) {
            if (inside && line[i] == '\\')
                ++i;
            else if (line[i] == '"' && (inside || line.find("//") > i))
                inside = !inside;
        }
        if (inside) {
            bad_line = line;
            return false;
        }
        start = end + 1;
    }
    return true;
}

TEST(WarningsTest, APatternStdRegexCannotCompileIsAWarningNamingTheField) {
    const std::string crd = Crd("g.io", "X", {"v1"},
                                "                months:\n                  type: array\n"
                                "                  items:\n                    type: string\n"
                                "                    pattern: \"^((?s)january|february)$\"\n"
                                "                code:\n                  type: string\n"
                                "                  pattern: \"^[a-z]+$\"\n");
    std::vector<std::string> warnings;
    auto files = Generate({InputFile{"dir/in.yaml", crd}}, Options{}, &warnings);
    ASSERT_TRUE(files.Ok()) << files.GetStatus();
    ASSERT_EQ(warnings.size(), 1u);
    EXPECT_EQ(
        warnings[0].rfind("in.yaml, document 1: xs.g.io: field spec.months[]: pattern \"^((?s)january|february)$\" "
                          "is not an ECMAScript regular expression (",
                          0),
        0u)
        << warnings[0];
    EXPECT_NE(
        warnings[0].find("so Validate() does not check it (spec.versions[0].schema.openAPIV3Schema.properties.spec"
                         ".properties.months.items.pattern)"),
        std::string::npos)
        << warnings[0];
}

TEST(WarningsTest, CelRulesInTheSubsetAreCheckedWithoutAWord) {
    const std::string crd = Crd("g.io", "X", {"v1", "v2"},
                                "                name:\n                  type: string\n"
                                "                  x-kubernetes-validations:\n"
                                "                    - rule: self.size() > 1\n"
                                "                    - rule: self != 'x'\n"
                                "                      message: not x\n"
                                "                      reason: FieldValueForbidden\n");
    std::vector<std::string> warnings;
    auto files = Generate({InputFile{"in.yaml", crd}}, Options{}, &warnings);
    ASSERT_TRUE(files.Ok()) << files.GetStatus();
    EXPECT_EQ(warnings, std::vector<std::string>{});
    bool emitted = false;
    for (const GeneratedFile& file : *files) {
        emitted = emitted || file.content.find(
                                 "{.rule = \"self != 'x'\", .message = \"not x\", .reason = "
                                 "\"FieldValueForbidden\"},") != std::string::npos;
    }
    EXPECT_TRUE(emitted);
}

TEST(WarningsTest, CelRulesValidateCannotCheckAreNamedWithTheirPlace) {
    const std::string crd = Crd("g.io", "X", {"v1"},
                                "                url:\n                  type: string\n"
                                "                  x-kubernetes-validations:\n"
                                "                    - rule: url(self).getScheme() == 'https'\n"
                                "                    - rule: self == oldSelf\n");
    std::vector<std::string> warnings;
    ASSERT_TRUE(Generate({InputFile{"in.yaml", crd}}, Options{}, &warnings).Ok());
    const std::string at =
        " (spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.url.x-kubernetes-validations";
    EXPECT_EQ(warnings, (std::vector<std::string>{
                            "in.yaml, document 1: xs.g.io: field spec.url: CEL rule \"url(self).getScheme() == "
                            "'https'\" is not checked by Validate(): unsupported function url() at column 1" +
                                at + "[0])",
                            "in.yaml, document 1: xs.g.io: field spec.url: CEL rule \"self == oldSelf\" is not "
                            "checked by Validate(): a transition rule (it reads oldSelf; Validate() has no old "
                            "object)" +
                                at + "[1])"}));
}

TEST(WarningsTest, ALongPatternStaysOneLiteral) {
    const std::string pattern = R"(^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?)"
                                R"((([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$)";
    const std::string crd = Crd("g.io", "X", {"v1"},
                                "                quantity:\n                  type: string\n"
                                "                  pattern: \"" +
                                    pattern + "\"\n");
    auto files = Generate({InputFile{"in.yaml", crd}}, Options{});
    ASSERT_TRUE(files.Ok()) << files.GetStatus();
    for (const GeneratedFile& file : *files) {
        std::string bad_line;
        EXPECT_TRUE(LiteralsClosedOnEachLine(file.content, bad_line)) << file.path << ": " << bad_line;
    }
}

TEST(WarningsTest, AKindNamedAsItsGroupInSeveralVersionsMovesTheRegistrationAside) {
    const std::string crd = Crd("gateway.example.com", "Gateway", {"v1", "v1beta1"},
                                "                name:\n                  type: string\n");
    auto files = Generate({InputFile{"in.yaml", crd}}, Options{});
    ASSERT_TRUE(files.Ok()) << files.GetStatus();
    std::vector<std::string> paths;
    for (const GeneratedFile& file : *files)
        paths.push_back(file.path);
    EXPECT_EQ(paths, (std::vector<std::string>{"gateway_v1.cpp", "gateway_v1.hpp", "gateway_v1_scheme.cpp",
                                               "gateway_v1_scheme.hpp", "gateway_v1beta1.cpp", "gateway_v1beta1.hpp",
                                               "gateway_v1beta1_scheme.cpp", "gateway_v1beta1_scheme.hpp"}));
}

}  // namespace
}  // namespace ctrl::gen
