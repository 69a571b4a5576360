#pragma once

// The cases of testdata/patch_golden.jsonl: random edits of Pods, Deployments, Nodes and Services
// with the patches Go computes for them (apimachinery v0.37.2 strategicpatch.CreateTwoWayMergePatch
// with the k8s.io/api v0.37.2 types; evanphx/json-patch v4.13.0 CreateMergePatch), written by
// testdata/oracle (see its README).

#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include "ctrl/core/object.hpp"
#include "test/support/repo_path.hpp"

namespace ctrl::client::test {

struct GoldenCase {
    int line = 0;
    std::string kind;
    Object original;
    Object modified;
    std::string strategic;  // Go's strategic merge patch, byte for byte
    std::string merge;      // Go's JSON merge patch, byte for byte
};

inline std::vector<GoldenCase> ReadGoldenCases(const std::string& file) {
    std::vector<GoldenCase> cases;
    std::ifstream in(::ctrl::testing::RepoPath(CTRL_TESTDATA_DIR) + "/" + file);
    std::string text;
    int line = 0;
    while (std::getline(in, text)) {
        ++line;
        StatusOr<Object> parsed = Object::Parse(text);
        EXPECT_TRUE(parsed.Ok()) << file << ":" << line << ": " << parsed.GetStatus();
        if (!parsed.Ok())
            continue;
        const Object& entry = parsed.Value();
        GoldenCase golden;
        golden.line = line;
        golden.kind = entry.NestedString({"kind"}).Value();
        golden.original = entry.NestedMap({"original"}).Value();
        golden.modified = entry.NestedMap({"modified"}).Value();
        golden.strategic = entry.NestedString({"strategic"}).Value();
        golden.merge = entry.NestedString({"merge"}).Value();
        cases.push_back(std::move(golden));
    }
    EXPECT_FALSE(cases.empty()) << "testdata " << file << " is missing or empty";
    return cases;
}

}  // namespace ctrl::client::test
