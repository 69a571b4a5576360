#include "test/e2e/manifests_objects.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "test/support/command.hpp"
#include "test/support/crds.hpp"
#include "test/support/repo_path.hpp"

namespace ctrl::testing {

StatusOr<std::vector<Object>> ParseYamlDocuments(std::string_view yaml) {
    std::vector<Object> objects;
    std::string document;
    std::istringstream lines{std::string(yaml)};
    auto flush = [&]() -> Status {
        const bool blank = document.find_first_not_of(" \t\n") == std::string::npos;
        if (!blank) {
            StatusOr<std::string> json = YamlToJson(document);
            if (!json.Ok())
                return json.GetStatus();
            StatusOr<Object> object = Object::Parse(*json);
            if (!object.Ok())
                return object.GetStatus();
            objects.push_back(std::move(object).Value());
        }
        document.clear();
        return OkStatus();
    };
    for (std::string line; std::getline(lines, line);) {
        if (line == "---") {
            if (Status flushed = flush(); !flushed.Ok())
                return flushed;
            continue;
        }
        document += line;
        document += '\n';
    }
    if (Status flushed = flush(); !flushed.Ok())
        return flushed;
    return objects;
}

StatusOr<std::vector<Object>> KustomizeBuild(const std::string& dir) {
    StatusOr<CommandResult> built = RunCommand(Command{.argv = {"kubectl", "kustomize", dir}});
    if (!built.Ok())
        return built.GetStatus();
    if (built->exit_code != 0)
        return BadRequestError("kubectl kustomize " + dir + " failed: " + built->err);
    return ParseYamlDocuments(built->out);
}

StatusOr<std::string> ReadRepoFile(std::string_view relative) {
    std::ifstream in(RepoPath(relative), std::ios::binary);
    if (!in)
        return NotFoundError("cannot read " + RepoPath(relative));
    std::ostringstream content;
    content << in.rdbuf();
    return content.str();
}

const Object* FindObject(const std::vector<Object>& objects, std::string_view kind, std::string_view name) {
    for (const Object& object : objects) {
        if (object.Kind() == kind && object.Name() == name)
            return &object;
    }
    return nullptr;
}

std::string StringAt(const Object& object, FieldPath path, std::string fallback) {
    StatusOr<std::string> value = object.NestedString(path);
    return value.Ok() ? std::move(value).Value() : fallback;
}

int64_t IntAt(const Object& object, FieldPath path, int64_t fallback) {
    return object.NestedInt(path).ValueOr(fallback);
}

bool BoolAt(const Object& object, FieldPath path, bool fallback) {
    return object.NestedBool(path).ValueOr(fallback);
}

std::vector<std::string> StringsAt(const Object& object, FieldPath path) {
    StatusOr<std::vector<std::string>> value = object.NestedStringSlice(path);
    return value.Ok() ? std::move(value).Value() : std::vector<std::string>{};
}

std::map<std::string, std::string> StringMapAt(const Object& object, FieldPath path) {
    StatusOr<std::map<std::string, std::string>> value = object.NestedStringMap(path);
    return value.Ok() ? std::move(value).Value() : std::map<std::string, std::string>{};
}

std::vector<Object> ObjectsAt(const Object& object, FieldPath path) {
    StatusOr<std::vector<Object>> value = object.NestedSlice(path);
    return value.Ok() ? std::move(value).Value() : std::vector<Object>{};
}

std::vector<std::string> ObjectIds(const std::vector<Object>& objects) {
    std::vector<std::string> ids;
    for (const Object& object : objects) {
        std::string id = std::string(object.Kind()) + "/";
        if (!object.Namespace().empty())
            id += std::string(object.Namespace()) + "/";
        ids.push_back(id + std::string(object.Name()));
    }
    std::sort(ids.begin(), ids.end());
    return ids;
}

std::vector<std::string> KustomizationDirs() {
    namespace fs = std::filesystem;
    const fs::path root(RepoRoot());
    std::vector<std::string> dirs;
    for (const fs::directory_entry& entry : fs::recursive_directory_iterator(root / "manifests")) {
        if (entry.is_regular_file() && entry.path().filename() == "kustomization.yaml")
            dirs.push_back(fs::relative(entry.path().parent_path(), root).string());
    }
    std::sort(dirs.begin(), dirs.end());
    return dirs;
}

const std::vector<std::string>& OperatorObjectIds() {
    static const std::vector<std::string> kIds = {
        "ClusterRole/ctrl-operator",
        "ClusterRole/ctrl-operator-webhook-ca-injection",
        "ClusterRole/metrics-reader",
        "ClusterRoleBinding/ctrl-operator",
        "ClusterRoleBinding/ctrl-operator-auth-delegator",
        "ClusterRoleBinding/ctrl-operator-webhook-ca-injection",
        "Deployment/ctrl-system/ctrl-operator",
        "MutatingWebhookConfiguration/ctrl-operator-sgp-defaults",
        "Namespace/ctrl-system",
        "Role/ctrl-system/ctrl-operator-leader-election",
        "Role/ctrl-system/ctrl-operator-webhook-certs",
        "RoleBinding/ctrl-system/ctrl-operator-leader-election",
        "RoleBinding/ctrl-system/ctrl-operator-webhook-certs",
        "Service/ctrl-system/ctrl-operator-metrics",
        "Service/ctrl-system/ctrl-operator-webhook",
        "ServiceAccount/ctrl-system/ctrl-operator",
        "ValidatingWebhookConfiguration/ctrl-operator-sgp-rules",
    };
    return kIds;
}

std::set<std::string> RoleGrants(const Object& role) {
    std::set<std::string> grants;
    StatusOr<std::vector<Object>> rules = role.NestedSlice({"rules"});
    if (!rules.Ok())
        return grants;
    for (const Object& rule : *rules) {
        const std::vector<std::string> verbs = StringsAt(rule, {"verbs"});
        for (const std::string& url : StringsAt(rule, {"nonResourceURLs"})) {
            for (const std::string& verb : verbs)
                grants.insert(url + ":" + verb);
        }
        std::vector<std::string> names;
        for (const std::string& name : StringsAt(rule, {"resourceNames"}))
            names.push_back("/" + name);
        if (names.empty())
            names.emplace_back();
        for (const std::string& group : StringsAt(rule, {"apiGroups"})) {
            for (const std::string& resource : StringsAt(rule, {"resources"})) {
                for (const std::string& name : names) {
                    for (const std::string& verb : verbs)
                        grants.insert(group + "/" + resource + name + ":" + verb);
                }
            }
        }
    }
    return grants;
}

Object ManagerContainer(const std::vector<Object>& objects) {
    const Object* deployment = FindObject(objects, "Deployment", "ctrl-operator");
    if (deployment == nullptr)
        return Object();
    std::vector<Object> containers = ObjectsAt(*deployment, {"spec", "template", "spec", "containers"});
    for (Object& container : containers) {
        if (StringAt(container, {"name"}) == "manager")
            return std::move(container);
    }
    return Object();
}

std::vector<Object> BuildOrFail(const std::string& relative_dir) {
    StatusOr<std::vector<Object>> built = KustomizeBuild(RepoPath(relative_dir));
    EXPECT_TRUE(built.Ok()) << built.GetStatus();
    return built.Ok() ? std::move(built).Value() : std::vector<Object>{};
}

}  // namespace ctrl::testing
