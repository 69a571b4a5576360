#include "test/support/crds.hpp"

namespace ctrl::testing {

StatusOr<std::string> ManifestJson(std::string_view repo_path) {
    const std::string path = std::string(CTRL_REPO_ROOT) + "/" + std::string(repo_path);
    CTRL_ASSIGN_OR_RETURN(std::vector<std::string> documents, envtest::YamlFileDocumentsToJson(path));
    if (documents.size() != 1)
        return BadRequestError(path + ": want one YAML document, found " + std::to_string(documents.size()));
    return std::move(documents.front());
}

StatusOr<std::string> SecurityGroupPolicyCrdJson() {
    return ManifestJson(kSecurityGroupPolicyCrdPath);
}

StatusOr<std::string> CniNodeCrdJson() {
    return ManifestJson(kCniNodeCrdPath);
}

}  // namespace ctrl::testing
