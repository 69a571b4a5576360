#include "test/e2e/sgp_expectation.hpp"

#include <algorithm>
#include <map>
#include <optional>

#include "test/e2e/kubectl_admin.hpp"

namespace ctrl::e2e {
namespace {

using LabelMap = std::map<std::string, std::string>;

struct Expression {
    std::string key;
    std::string op;
    std::vector<std::string> values;
};

// A label selector as the policy spells it.
struct Selector {
    LabelMap match_labels;
    std::vector<Expression> expressions;
};

std::string StringAt(const Object& object, FieldPath path) {
    StatusOr<std::string> value = object.NestedString(path);
    return value.Ok() ? *value : std::string();
}

std::vector<std::string> StringsAt(const Object& object, FieldPath path) {
    StatusOr<std::vector<std::string>> values = object.NestedStringSlice(path);
    return values.Ok() ? *values : std::vector<std::string>();
}

// The selector at spec.<field>: nullopt when absent.
std::optional<Selector> SelectorAt(const Object& policy, std::string_view field) {
    if (!policy.HasNestedField({"spec", field}))
        return std::nullopt;
    Selector selector;
    StatusOr<LabelMap> labels = policy.NestedStringMap({"spec", field, "matchLabels"});
    if (labels.Ok())
        selector.match_labels = *labels;
    StatusOr<std::vector<Object>> expressions = policy.NestedSlice({"spec", field, "matchExpressions"});
    if (expressions.Ok()) {
        for (const Object& e : *expressions)
            selector.expressions.push_back({StringAt(e, {"key"}), StringAt(e, {"operator"}), StringsAt(e, {"values"})});
    }
    return selector;
}

bool ExpressionValid(const Expression& e) {
    if (e.op == "In" || e.op == "NotIn")
        return !e.values.empty();
    if (e.op == "Exists" || e.op == "DoesNotExist")
        return e.values.empty();
    return false;
}

bool SelectorValid(const std::optional<Selector>& selector) {
    if (!selector)
        return true;
    return std::all_of(selector->expressions.begin(), selector->expressions.end(), ExpressionValid);
}

bool Contains(const std::vector<std::string>& values, const std::string& value) {
    return std::find(values.begin(), values.end(), value) != values.end();
}

bool SelectorMatches(const Selector& selector, const LabelMap& labels) {
    for (const auto& [key, value] : selector.match_labels) {
        auto found = labels.find(key);
        if (found == labels.end() || found->second != value)
            return false;
    }
    for (const Expression& e : selector.expressions) {
        auto found = labels.find(e.key);
        const bool has = found != labels.end();
        if (e.op == "In" && !(has && Contains(e.values, found->second)))
            return false;
        if (e.op == "NotIn" && has && Contains(e.values, found->second))
            return false;
        if (e.op == "Exists" && !has)
            return false;
        if (e.op == "DoesNotExist" && has)
            return false;
    }
    return true;
}

// The labels of the pod's ServiceAccount; nullopt when that ServiceAccount does not exist.
std::optional<LabelMap> ServiceAccountLabels(const Object& pod, const ClusterSnapshot& snapshot) {
    std::string name = StringAt(pod, {"spec", "serviceAccountName"});
    if (name.empty())
        name = "default";
    for (const Object& account : snapshot.service_accounts) {
        if (account.Namespace() == pod.Namespace() && account.Name() == name)
            return account.Labels();
    }
    return std::nullopt;
}

const Object* Find(const std::vector<Object>& objects, const std::string& namespace_name, const std::string& name) {
    for (const Object& object : objects) {
        if (object.Namespace() == namespace_name && object.Name() == name)
            return &object;
    }
    return nullptr;
}

}  // namespace

StatusOr<ClusterSnapshot> ReadSnapshot(const std::vector<std::string>& namespaces, bool with_policies) {
    ClusterSnapshot snapshot;
    const std::string kinds =
        with_policies ? "pods,serviceaccounts,securitygrouppolicies.vpcresources.k8s.aws" : "pods,serviceaccounts";
    for (const std::string& ns : namespaces) {
        CTRL_ASSIGN_OR_RETURN(std::vector<Object> items, KubectlItems({"get", kinds, "-n", ns}));
        for (Object& item : items) {
            if (item.Kind() == "Pod")
                snapshot.pods.push_back(std::move(item));
            else if (item.Kind() == "ServiceAccount")
                snapshot.service_accounts.push_back(std::move(item));
            else if (item.Kind() == "SecurityGroupPolicy")
                snapshot.policies.push_back(std::move(item));
        }
    }
    return snapshot;
}

std::string InvalidReason(const Object& policy) {
    const std::optional<Selector> pods = SelectorAt(policy, "podSelector");
    const std::optional<Selector> accounts = SelectorAt(policy, "serviceAccountSelector");
    if (!pods && !accounts)
        return "NoSelector";
    if (!SelectorValid(pods) || !SelectorValid(accounts))
        return "InvalidSelector";
    if (StringsAt(policy, {"spec", "securityGroups", "groupIds"}).empty())
        return "NoGroupIds";
    return "";
}

bool PolicySelects(const Object& policy, const Object& pod, const ClusterSnapshot& snapshot) {
    if (policy.Namespace() != pod.Namespace() || !InvalidReason(policy).empty())
        return false;
    const std::optional<Selector> pods = SelectorAt(policy, "podSelector");
    if (pods && !SelectorMatches(*pods, pod.Labels()))
        return false;
    const std::optional<Selector> accounts = SelectorAt(policy, "serviceAccountSelector");
    if (accounts) {
        const std::optional<LabelMap> labels = ServiceAccountLabels(pod, snapshot);
        if (!labels || !SelectorMatches(*accounts, *labels))
            return false;
    }
    return true;
}

std::string ExpectedAnnotation(const Object& pod, const ClusterSnapshot& snapshot) {
    std::vector<const Object*> policies;
    for (const Object& policy : snapshot.policies)
        policies.push_back(&policy);
    std::sort(policies.begin(), policies.end(), [](const Object* a, const Object* b) { return a->Name() < b->Name(); });
    std::vector<std::string> groups;
    for (const Object* policy : policies) {
        if (!PolicySelects(*policy, pod, snapshot))
            continue;
        for (const std::string& group : StringsAt(*policy, {"spec", "securityGroups", "groupIds"})) {
            if (!Contains(groups, group))
                groups.push_back(group);
        }
    }
    std::string joined;
    for (const std::string& group : groups)
        joined += (joined.empty() ? "" : ",") + group;
    return joined;
}

int ExpectedMatchedPods(const Object& policy, const ClusterSnapshot& snapshot) {
    int matched = 0;
    for (const Object& pod : snapshot.pods)
        matched += PolicySelects(policy, pod, snapshot) ? 1 : 0;
    return matched;
}

std::string ActualAnnotation(const Object& pod) {
    return std::string(pod.Annotation(kSecurityGroupsAnnotation).value_or(""));
}

std::string AnnotationMismatches(const ClusterSnapshot& snapshot) {
    std::string mismatches;
    for (const Object& pod : snapshot.pods) {
        const std::string expected = ExpectedAnnotation(pod, snapshot);
        const std::string actual = ActualAnnotation(pod);
        if (expected != actual) {
            mismatches += "pod " + std::string(pod.Namespace()) + "/" + std::string(pod.Name()) + ": expected \"" +
                          expected + "\", has \"" + actual + "\"\n";
        }
    }
    return mismatches;
}

const Object* FindPod(const ClusterSnapshot& snapshot, const std::string& namespace_name, const std::string& name) {
    return Find(snapshot.pods, namespace_name, name);
}

const Object* FindPolicy(const ClusterSnapshot& snapshot, const std::string& namespace_name, const std::string& name) {
    return Find(snapshot.policies, namespace_name, name);
}

}  // namespace ctrl::e2e
