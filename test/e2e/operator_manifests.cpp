#include "test/e2e/operator_manifests.hpp"

#include <fstream>
#include <set>
#include <sstream>
#include <vector>

#include "ctrl/core/json_string.hpp"
#include "ctrl/core/object.hpp"
#include "test/e2e/kubectl_admin.hpp"
#include "test/support/repo_path.hpp"

namespace ctrl::e2e {
namespace {

const std::string& kRepo = testing::RepoRoot();

// The documents of a YAML stream.
std::vector<std::string> SplitDocuments(const std::string& yaml) {
    std::vector<std::string> documents;
    std::string current;
    std::istringstream in(yaml);
    for (std::string line; std::getline(in, line);) {
        if (line == "---") {
            documents.push_back(std::move(current));
            current.clear();
            continue;
        }
        current += line + "\n";
    }
    documents.push_back(std::move(current));
    return documents;
}

bool IsSgpCrd(const std::string& document) {
    return document.find("kind: CustomResourceDefinition") != std::string::npos &&
           document.find("name: " + std::string(kSgpCrdName)) != std::string::npos;
}

// Whether a document of a kustomize build is an admission webhook configuration.
bool IsWebhookConfiguration(const std::string& document) {
    std::istringstream lines(document);
    for (std::string line; std::getline(lines, line);) {
        if (line == "kind: ValidatingWebhookConfiguration" || line == "kind: MutatingWebhookConfiguration")
            return true;
    }
    return false;
}

StatusOr<std::string> ReadRepoFile(const std::string& path) {
    std::ifstream in(kRepo + "/" + path);
    if (!in)
        return NotFoundError("cannot read " + kRepo + "/" + path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

std::string StringAt(const Object& object, FieldPath path) {
    StatusOr<std::string> value = object.NestedString(path);
    return value.Ok() ? *value : std::string();
}

std::vector<std::string> StringsAt(const Object& object, FieldPath path) {
    StatusOr<std::vector<std::string>> values = object.NestedStringSlice(path);
    return values.Ok() ? *values : std::vector<std::string>();
}

bool HasString(const Object& object, FieldPath path, const std::string& value) {
    for (const std::string& v : StringsAt(object, path)) {
        if (v == value)
            return true;
    }
    return false;
}

// Whether a (Cluster)RoleBinding binds ServiceAccount ctrl-system/ctrl-operator.
bool BindsOperator(const Object& binding) {
    StatusOr<std::vector<Object>> subjects = binding.NestedSlice({"subjects"});
    if (!subjects.Ok())
        return false;
    for (const Object& subject : *subjects) {
        if (StringAt(subject, {"kind"}) == "ServiceAccount" && StringAt(subject, {"name"}) == kOperatorServiceAccount &&
            StringAt(subject, {"namespace"}) == kOperatorNamespace)
            return true;
    }
    return false;
}

std::string Quoted(std::string_view text) {
    std::string out;
    AppendJsonString(out, text);
    return out;
}

// The rules of a ClusterRole with `verb` taken out where it applies to `resource` (a rule naming
// other resources too is split in two).
StatusOr<std::vector<std::string>> RulesWithout(const Object& role, std::string_view resource, std::string_view verb) {
    std::vector<std::string> rules;
    if (!role.HasNestedField({"rules"}))
        return rules;
    CTRL_ASSIGN_OR_RETURN(std::vector<Object> original, role.NestedSlice({"rules"}));
    for (Object& rule : original) {
        const bool applies =
            HasString(rule, {"resources"}, std::string(resource)) && HasString(rule, {"verbs"}, std::string(verb));
        if (!applies) {
            rules.push_back(rule.ToJson());
            continue;
        }
        std::vector<std::string> others;
        for (const std::string& r : StringsAt(rule, {"resources"})) {
            if (r != resource)
                others.push_back(r);
        }
        if (!others.empty()) {
            Object rest = rule.DeepCopy();
            CTRL_RETURN_IF_ERROR(rest.SetNestedStringSlice({"resources"}, others));
            rules.push_back(rest.ToJson());
        }
        std::vector<std::string> verbs;
        for (const std::string& v : StringsAt(rule, {"verbs"})) {
            if (v != verb)
                verbs.push_back(v);
        }
        if (!verbs.empty()) {
            CTRL_RETURN_IF_ERROR(rule.SetNestedStringSlice({"resources"}, {std::string(resource)}));
            CTRL_RETURN_IF_ERROR(rule.SetNestedStringSlice({"verbs"}, verbs));
            rules.push_back(rule.ToJson());
        }
    }
    return rules;
}

}  // namespace

Status InstallOperatorManifests(SgpCrd crd) {
    if (crd == SgpCrd::kAws)
        CTRL_RETURN_IF_ERROR(InstallAwsCrds());
    const std::string dir = crd == SgpCrd::kAws ? "/manifests" : "/manifests/overlays/bare";
    CTRL_ASSIGN_OR_RETURN(std::string rendered, KubectlOut({"kustomize", kRepo + dir}));
    std::string selected;
    for (const std::string& document : SplitDocuments(rendered)) {
        if ((crd == SgpCrd::kNone && IsSgpCrd(document)) || IsWebhookConfiguration(document))
            continue;
        selected += "---\n" + document;
    }
    CTRL_RETURN_IF_ERROR(KubectlApply(selected));
    return KubectlOut({"wait", "--for=condition=Established", "--timeout=60s", "crd", "--all"}).GetStatus();
}

Status DeleteWebhookConfigurations() {
    return KubectlOut({"delete", "--ignore-not-found", "validatingwebhookconfiguration/ctrl-operator-sgp-rules",
                       "mutatingwebhookconfiguration/ctrl-operator-sgp-defaults"})
        .GetStatus();
}

Status InstallAwsCrds() {
    for (const char* file : {"vpcresources.k8s.aws_securitygrouppolicies.yaml", "vpcresources.k8s.aws_cninodes.yaml"})
        CTRL_RETURN_IF_ERROR(KubectlOut({"create", "-f", kRepo + "/test/e2e/testdata/aws/" + file}).GetStatus());
    return KubectlOut({"wait", "--for=condition=Established", "--timeout=60s", "crd", "--all"}).GetStatus();
}

Status InstallSgpCrd() {
    CTRL_ASSIGN_OR_RETURN(std::string crd, ReadRepoFile("manifests/crd/" + std::string(kSgpCrdName) + ".yaml"));
    CTRL_RETURN_IF_ERROR(KubectlApply(crd));
    return KubectlOut({"wait", "--for=condition=Established", "--timeout=60s", "crd/" + std::string(kSgpCrdName)})
        .GetStatus();
}

StatusOr<std::string> ServiceAccountToken(std::string_view service_account) {
    CTRL_ASSIGN_OR_RETURN(std::string token, KubectlOut({"create", "token", std::string(service_account), "-n",
                                                         std::string(kOperatorNamespace), "--duration=1h"}));
    while (!token.empty() && (token.back() == '\n' || token.back() == ' '))
        token.pop_back();
    if (token.empty())
        return InternalError("kubectl create token printed nothing");
    return token;
}

Status CreateServiceAccountWithout(std::string_view service_account, std::string_view resource, std::string_view verb) {
    const std::string sa(service_account);
    const std::string ns(kOperatorNamespace);
    const std::string subjects =
        R"([{"kind":"ServiceAccount","name":)" + Quoted(sa) + R"(,"namespace":)" + Quoted(ns) + "}]";
    std::vector<std::string> items{R"({"apiVersion":"v1","kind":"ServiceAccount","metadata":{"name":)" + Quoted(sa) +
                                   R"(,"namespace":)" + Quoted(ns) + "}}"};

    CTRL_ASSIGN_OR_RETURN(std::vector<Object> cluster_bindings, KubectlItems({"get", "clusterrolebindings"}));
    std::set<std::string> roles;
    for (const Object& binding : cluster_bindings) {
        if (BindsOperator(binding) && StringAt(binding, {"roleRef", "kind"}) == "ClusterRole")
            roles.insert(StringAt(binding, {"roleRef", "name"}));
    }
    if (roles.empty())
        return NotFoundError("no ClusterRoleBinding binds ServiceAccount ctrl-system/ctrl-operator");
    for (const std::string& role_name : roles) {
        CTRL_ASSIGN_OR_RETURN(Object role, KubectlJson({"get", "clusterrole", role_name}));
        CTRL_ASSIGN_OR_RETURN(std::vector<std::string> rules, RulesWithout(role, resource, verb));
        std::string rules_json = "[";
        for (size_t i = 0; i < rules.size(); ++i)
            rules_json += (i == 0 ? "" : ",") + rules[i];
        rules_json += "]";
        const std::string copy = sa + "-" + role_name;
        items.push_back(R"({"apiVersion":"rbac.authorization.k8s.io/v1","kind":"ClusterRole","metadata":{"name":)" +
                        Quoted(copy) + R"(},"rules":)" + rules_json + "}");
        items.push_back(
            R"({"apiVersion":"rbac.authorization.k8s.io/v1","kind":"ClusterRoleBinding","metadata":{"name":)" +
            Quoted(copy) + R"(},"roleRef":{"apiGroup":"rbac.authorization.k8s.io","kind":"ClusterRole","name":)" +
            Quoted(copy) + R"(},"subjects":)" + subjects + "}");
    }
    // Namespaced Roles (leader election) are bound as they are.
    CTRL_ASSIGN_OR_RETURN(std::vector<Object> role_bindings, KubectlItems({"get", "rolebindings", "-A"}));
    for (const Object& binding : role_bindings) {
        if (!BindsOperator(binding))
            continue;
        StatusOr<Object> role_ref = binding.NestedMap({"roleRef"});
        if (!role_ref.Ok())
            return role_ref.GetStatus();
        items.push_back(R"({"apiVersion":"rbac.authorization.k8s.io/v1","kind":"RoleBinding","metadata":{"name":)" +
                        Quoted(sa + "-" + std::string(binding.Name())) + R"(,"namespace":)" +
                        Quoted(binding.Namespace()) + R"(},"roleRef":)" + role_ref->ToJson() + R"(,"subjects":)" +
                        subjects + "}");
    }
    std::string list = R"({"apiVersion":"v1","kind":"List","items":[)";
    for (size_t i = 0; i < items.size(); ++i)
        list += (i == 0 ? "" : ",") + items[i];
    list += "]}";
    return KubectlApply(list);
}

}  // namespace ctrl::e2e
