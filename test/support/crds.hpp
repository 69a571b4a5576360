#pragma once

#include <string>
#include <string_view>

#include "ctrl/core/status_or.hpp"
#include "ctrl/envtest/yaml_json.hpp"

namespace ctrl::testing {

// The manifests under manifests/ are the one source of truth for the CRDs tests install: these
// helpers read them at run time from the repository (RepoRoot()) and hand them over as JSON,
// ready for a client's Create or a raw POST.
inline constexpr std::string_view kSecurityGroupPolicyCrdPath =
    "manifests/crd/securitygrouppolicies.vpcresources.k8s.aws.yaml";
inline constexpr std::string_view kCniNodeCrdPath = "manifests/crd/cninodes.vpcresources.k8s.aws.yaml";

// The SecurityGroupPolicy CRD (vpcresources.k8s.aws/v1beta1, namespaced) as compact JSON.
StatusOr<std::string> SecurityGroupPolicyCrdJson();
// The CNINode CRD (vpcresources.k8s.aws/v1alpha1, cluster-scoped) as compact JSON.
StatusOr<std::string> CniNodeCrdJson();
// A one-document YAML manifest, by its path from the repository root, as compact JSON. NotFound
// when the file cannot be read; BadRequest for malformed YAML or more than one document.
StatusOr<std::string> ManifestJson(std::string_view repo_path);
// One YAML document as compact JSON (runtime/envtest/yaml_json.hpp).
using envtest::YamlToJson;

}  // namespace ctrl::testing
