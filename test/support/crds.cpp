#include "test/support/crds.hpp"

#include <fstream>
#include <sstream>

namespace ctrl::testing {
namespace {

StatusOr<std::string> ReadFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return NotFoundError("cannot read " + path);
    std::stringstream content;
    content << in.rdbuf();
    return content.str();
}

}  // namespace

StatusOr<std::string> ManifestJson(std::string_view repo_path) {
    const std::string path = std::string(CTRL_REPO_ROOT) + "/" + std::string(repo_path);
    CTRL_ASSIGN_OR_RETURN(std::string yaml, ReadFile(path));
    StatusOr<std::string> json = YamlToJson(yaml);
    if (!json.Ok())
        return json.GetStatus().Annotate(path);
    return json;
}

StatusOr<std::string> SecurityGroupPolicyCrdJson() {
    return ManifestJson(kSecurityGroupPolicyCrdPath);
}

StatusOr<std::string> CniNodeCrdJson() {
    return ManifestJson(kCniNodeCrdPath);
}

}  // namespace ctrl::testing
