#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "ctrl/core/object.hpp"
#include "ctrl/core/status_or.hpp"
#include "test/support/repo_path.hpp"

namespace ctrl::testing {

// What the e2e tests of manifests/ read: kustomize builds and YAML or JSON files of the
// repository, as ctrl::Objects.

// `kubectl kustomize <dir>` (no server needed): every object it prints, in its order. A failed
// build is an error carrying kustomize's message.
StatusOr<std::vector<Object>> KustomizeBuild(const std::string& dir);

// KustomizeBuild of a directory under the repository root for a test: a failed build fails the
// test (with kustomize's message) and yields no objects.
std::vector<Object> BuildOrFail(const std::string& relative_dir);

// Every document of a multi-document YAML stream (separated by `---` lines), empty ones skipped.
StatusOr<std::vector<Object>> ParseYamlDocuments(std::string_view yaml);

// A file of the repository, read whole; NotFound when it cannot be read.
StatusOr<std::string> ReadRepoFile(std::string_view relative);

// The object of that kind and name, or nullptr.
const Object* FindObject(const std::vector<Object>& objects, std::string_view kind, std::string_view name);

// Reads of a field that fall back when it is missing or of another type (a test then fails on
// the value, which is clearer than on a status).
std::string StringAt(const Object& object, FieldPath path, std::string fallback = "");
int64_t IntAt(const Object& object, FieldPath path, int64_t fallback = 0);
bool BoolAt(const Object& object, FieldPath path, bool fallback);
std::vector<std::string> StringsAt(const Object& object, FieldPath path);
std::map<std::string, std::string> StringMapAt(const Object& object, FieldPath path);
std::vector<Object> ObjectsAt(const Object& object, FieldPath path);

// "Kind/name" (or "Kind/namespace/name") of each object, sorted: a readable identity of a build.
std::vector<std::string> ObjectIds(const std::vector<Object>& objects);

// The directories under manifests/ holding a kustomization.yaml, relative to the repository root.
std::vector<std::string> KustomizationDirs();

// The ObjectIds of what manifests/ builds: the operator's contract (sorted).
const std::vector<std::string>& OperatorObjectIds();

// "apiGroup/resource:verb" for every combination a (Cluster)Role's rules grant ("*" kept as
// written), "apiGroup/resource/name:verb" for each of a rule's resourceNames, "/url:verb" for its
// nonResourceURLs. Empty for a role without rules.
std::set<std::string> RoleGrants(const Object& role);

// The container named "manager" of the Deployment ctrl-operator among objects; an empty Object
// when there is none (a test then fails on its values).
Object ManagerContainer(const std::vector<Object>& objects);

}  // namespace ctrl::testing
