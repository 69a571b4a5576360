#include "ctrl/client/internal/strategic_merge_schema.hpp"
#include "test/support/repo_path.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <string>

namespace ctrl::client::internal {
namespace {

// Lists every field of schema with patch metadata as "<prefix>.<path> strategy=... key=...", the
// format of testdata/patch_merge_fields.txt.
void Describe(const PatchSchema* schema, const std::string& prefix, std::set<std::string>& out) {
    if (schema == nullptr)
        return;
    for (const PatchField& field : schema->fields) {
        const std::string path = prefix + "." + std::string(field.name);
        if (field.merge || field.retain_keys) {
            std::string strategy = field.merge ? "merge" : "";
            if (field.retain_keys)
                strategy += strategy.empty() ? "retainKeys" : ",retainKeys";
            out.insert(path + " strategy=" + strategy + " key=" + std::string(field.merge_key));
        }
        Describe(field.schema, path, out);
    }
}

// The table matches the tags of k8s.io/api v0.37.2 field for field: a merge field the table
// missed would be sent whole, and the server would merge it, keeping elements meant to go.
TEST(StrategicMergeSchemaTest, MatchesTheTagsOfTheGoTypes) {
    std::ifstream in(::ctrl::testing::RepoPath(CTRL_TESTDATA_DIR) + "/patch_merge_fields.txt");
    std::set<std::string> go;
    std::string line;
    while (std::getline(in, line)) {
        if (!line.empty() && line[0] != '#')
            go.insert(line);
    }
    ASSERT_GT(go.size(), 200u) << "testdata patch_merge_fields.txt is missing or short";
    std::set<std::string> table;
    for (const KindPatchSchema& kind : KnownPatchSchemas())
        Describe(kind.schema, std::string(kind.kind), table);
    EXPECT_EQ(table, go);
}

TEST(StrategicMergeSchemaTest, FindsBuiltinKindsOnly) {
    EXPECT_NE(FindPatchSchema({"", "v1", "Pod"}), nullptr);
    EXPECT_NE(FindPatchSchema({"coordination.k8s.io", "v1", "Lease"}), nullptr);
    EXPECT_NE(FindPatchSchema({"apps", "v1", "Deployment"}), nullptr);
    EXPECT_EQ(FindPatchSchema({"apps", "v1beta1", "Deployment"}), nullptr);
    EXPECT_EQ(FindPatchSchema({"vpcresources.k8s.aws", "v1beta1", "SecurityGroupPolicy"}), nullptr);
    EXPECT_EQ(FindPatchSchema({"", "v1", "Pods"}), nullptr);
}

TEST(StrategicMergeSchemaTest, FindsFieldsByName) {
    const PatchSchema* pod = FindPatchSchema({"", "v1", "Pod"});
    const PatchField* spec = FindPatchField(pod, "spec");
    ASSERT_NE(spec, nullptr);
    const PatchField* containers = FindPatchField(spec->schema, "containers");
    ASSERT_NE(containers, nullptr);
    EXPECT_TRUE(containers->merge);
    EXPECT_EQ(containers->merge_key, "name");
    EXPECT_EQ(FindPatchField(spec->schema, "tolerations"), nullptr);
    EXPECT_EQ(FindPatchField(nullptr, "spec"), nullptr);
}

}  // namespace
}  // namespace ctrl::client::internal
