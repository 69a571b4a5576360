#pragma once

// The e2e tests' fixture: each test gets its own namespaces and its own operator processes (the
// built ctrl-operator, run as ServiceAccount ctrl-system/ctrl-operator with the RBAC of manifests/,
// installed once per test binary); on failure the end of every operator's log is printed.

#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "test/e2e/kubectl_admin.hpp"
#include "test/e2e/operator_manifests.hpp"
#include "test/e2e/operator_process.hpp"
#include "test/e2e/sgp_expectation.hpp"
#include "test/support/metrics_text.hpp"

namespace ctrl::e2e {

// The /metrics readers (test/support/metrics_text.hpp).
using ctrl::testing::MetricLines;
using ctrl::testing::MetricSum;
using ctrl::testing::MetricValue;

// The acceptance bounds: a matching change shows on the pods within 5 s; once the CRD is
// installed, pods get their groups within 15 s. Used as Eventually deadlines, nothing else.
inline constexpr std::chrono::seconds kMatchingBound{5};
inline constexpr std::chrono::seconds kLateCrdBound{15};

// Registers the control plane and, after it, the installation of the operator with those CRDs
// (InstallOperatorManifests) as gtest environments; call from main before RUN_ALL_TESTS.
void InstallE2eEnvironment(SgpCrd crd);
// The same with more kube-apiserver flags for this binary's control plane.
void InstallE2eEnvironment(SgpCrd crd, const std::vector<std::string>& apiserver_flags);

// From here on, every operator the tests start is the operator image run as a container
// (OperatorOptions::container); registers, as the first gtest environment, the check that podman
// runs and the image is there (a test binary without them fails, it does not skip). Call from main
// before InstallE2eEnvironment.
void RunOperatorsAsContainers();

class OperatorTest : public ::testing::Test {
  protected:
    void TearDown() override;

    // Creates a namespace named after the test (kebab-case), with "-<suffix>" when given, and
    // returns its name.
    std::string MakeNamespace(const std::string& suffix = "");
    // Starts an operator (in a container after RunOperatorsAsContainers); nullptr (and a test
    // failure) when it does not come up.
    OperatorProcess* StartOperator(OperatorOptions options);
    // Waits (kTestWait) until the operator's /readyz answers 200.
    ::testing::AssertionResult WaitReady(const OperatorProcess& process);
    // Waits up to `bound` until every pod of the namespaces carries what the rules give, read
    // afresh each time; the failure names the pods that differ.
    ::testing::AssertionResult AnnotationsConverge(const std::vector<std::string>& namespaces,
                                                   std::chrono::steady_clock::duration bound = kMatchingBound);
    // Every policy of the namespaces gets the status the contract says (ExpectedPolicyStatus), every
    // invalid one a Warning Event InvalidPolicy, every pod with groups an Event SecurityGroupsChanged
    // (deadline kTestWait each); then, a second later, the annotations still agree with the rules.
    void ExpectStatusesAndEvents(const std::vector<std::string>& namespaces);
    // YAML documents without a namespace, applied to ns (a failure fails the test).
    static void Apply(const std::string& ns, const std::string& yaml);
    // The end of every operator's log, for failure messages.
    std::string Logs() const;

    std::vector<std::unique_ptr<OperatorProcess>> operators_;
};

// A minimal pod (Pending forever: no scheduler) with labels ("k=v,k2=v2", may be empty) and a
// ServiceAccount name (none when empty), as YAML.
std::string PodYaml(const std::string& name, const std::string& labels, const std::string& service_account = "");

// A SecurityGroupPolicy whose podSelector matches labels ("k=v,...") and which gives the groups
// ("sg-1, sg-2"), as YAML.
std::string PodSelectorPolicyYaml(const std::string& name, const std::string& labels, const std::string& group_ids);

// A SecurityGroupPolicy whose serviceAccountSelector matches labels ("k=v,...") and which gives the
// groups ("sg-1, sg-2"), as YAML.
std::string ServiceAccountSelectorPolicyYaml(const std::string& name, const std::string& labels,
                                             const std::string& group_ids);

// A ServiceAccount with labels ("k=v,...", may be empty), as YAML.
std::string ServiceAccountYaml(const std::string& name, const std::string& labels);

// Every Event of the namespace with `reason` about the object named `name`.
StatusOr<std::vector<Object>> EventsAbout(const std::string& ns, const std::string& name, const std::string& reason);

// Whether an Event with `reason` (and `type` when given) is about the object `name` of ns.
bool HasEvent(const std::string& ns, const std::string& name, const std::string& reason, const std::string& type = "");

// The Ready condition of a policy's status as "<status>/<reason>" ("True/Valid"); "" when absent.
std::string ReadyCondition(const Object& policy);

// A policy's status read afresh, as "observedGeneration 2 of 2, matchedPods 1, Ready True/Valid"
// (absent fields as "-").
std::string PolicyStatus(const std::string& ns, const std::string& name);
// The same, of a policy already read.
std::string PolicyStatusOf(const Object& policy);
// What it must be per the contract, for a policy of the snapshot: observedGeneration its
// generation, matchedPods what the rules select, Ready True/Valid or False/<InvalidReason>.
std::string ExpectedPolicyStatus(const Object& policy, const ClusterSnapshot& snapshot);

}  // namespace ctrl::e2e
