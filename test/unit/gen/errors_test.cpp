// ctrl-gen's errors name the file, the document and the schema path of what is wrong.
#include <gtest/gtest.h>

#include <string>

#include "tools/ctrl-gen/generator.hpp"

namespace ctrl::gen {
namespace {

std::string ErrorFor(const std::string& text) {
    auto files = Generate({InputFile{"dir/in.yaml", text}}, Options{});
    EXPECT_FALSE(files.Ok());
    EXPECT_TRUE(IsBadRequest(files.GetStatus())) << files.GetStatus();
    return files.GetStatus().Message();
}

std::string Crd(const std::string& spec_schema) {
    return "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: xs.g.io\n"
           "spec:\n  group: g.io\n  names: {kind: X, plural: xs}\n  scope: Namespaced\n  versions:\n"
           "    - name: v1\n      served: true\n      storage: true\n      schema:\n        openAPIV3Schema:\n"
           "          type: object\n          properties:\n            spec:\n" +
           spec_schema;
}

TEST(ErrorsTest, NotYaml) {
    EXPECT_EQ(ErrorFor("a: [1, 2\nb: c"), "in.yaml: not YAML: line 2, column 2: end of sequence flow not found");
}

TEST(ErrorsTest, NotACrd) {
    EXPECT_EQ(ErrorFor("---\n---\napiVersion: v1\nkind: ConfigMap\n"),
              "in.yaml, document 2: is not a CustomResourceDefinition (kind: \"ConfigMap\")");
    EXPECT_EQ(ErrorFor("- 1\n"), "in.yaml, document 1: is not a mapping, so not a CustomResourceDefinition");
}

TEST(ErrorsTest, OldApiVersion) {
    EXPECT_NE(ErrorFor("apiVersion: apiextensions.k8s.io/v1beta1\nkind: CustomResourceDefinition\n")
                  .find("convert the CRD to apiextensions.k8s.io/v1"),
              std::string::npos);
}

TEST(ErrorsTest, UnsupportedSchemaConstructsNameTheirPath) {
    const std::string prefix = "in.yaml, document 1: spec.versions[0].schema.openAPIV3Schema.properties.spec";
    EXPECT_EQ(ErrorFor(Crd("              $ref: '#/definitions/x'\n")),
              prefix + ": $ref is not supported (a CRD schema must be structural, without references)");
    EXPECT_EQ(ErrorFor(Crd("              type: array\n")), prefix + ": an array needs an items schema");
    EXPECT_EQ(ErrorFor(Crd("              type: object\n              properties:\n                x:\n"
                           "                  description: no type\n")),
              prefix +
                  ".properties.x: has no type (only x-kubernetes-int-or-string or "
                  "x-kubernetes-preserve-unknown-fields may omit it)");
    EXPECT_EQ(ErrorFor(Crd("              type: thing\n")), prefix + ".type: unknown type \"thing\"");
    EXPECT_EQ(ErrorFor(Crd("              type: string\n              maxLength: lots\n")),
              prefix + ".maxLength: is not an integer");
    EXPECT_EQ(ErrorFor(Crd("              type: object\n              properties:\n                level:\n"
                           "                  type: integer\n                  enum: [1, 1.5]\n")),
              prefix + ".properties.level: the enum value \"1.5\" of an integer schema is not a decimal integer");
}

}  // namespace
}  // namespace ctrl::gen
