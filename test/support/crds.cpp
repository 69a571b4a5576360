#include "test/support/crds.hpp"
#include "test/support/repo_path.hpp"

namespace ctrl::testing {

StatusOr<std::string> ManifestJson(std::string_view repo_path) {
    const std::string path = RepoPath(repo_path);
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
