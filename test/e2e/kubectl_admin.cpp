#include "test/e2e/kubectl_admin.hpp"

#include <chrono>

#include "test/support/control_plane_environment.hpp"
#include "test/support/kubectl.hpp"

namespace ctrl::e2e {

const std::string& AdminKubeconfig() {
    return testing::SharedControlPlane().KubeconfigPath();
}

StatusOr<std::string> KubectlOut(const std::vector<std::string>& args, const std::string& stdin_data) {
    return testing::KubectlOutput(AdminKubeconfig(), args, std::chrono::seconds(60), stdin_data);
}

Status KubectlApply(const std::string& yaml, const std::string& namespace_name) {
    std::vector<std::string> args{"apply", "-f", "-"};
    if (!namespace_name.empty()) {
        args.push_back("-n");
        args.push_back(namespace_name);
    }
    return KubectlOut(args, yaml).GetStatus();
}

StatusOr<Object> KubectlJson(const std::vector<std::string>& args) {
    std::vector<std::string> with_output = args;
    with_output.push_back("-o");
    with_output.push_back("json");
    CTRL_ASSIGN_OR_RETURN(std::string out, KubectlOut(with_output));
    return Object::Parse(out);
}

StatusOr<std::vector<Object>> KubectlItems(const std::vector<std::string>& args) {
    CTRL_ASSIGN_OR_RETURN(Object list, KubectlJson(args));
    if (!list.HasNestedField({"items"}))
        return std::vector<Object>{};
    return list.NestedSlice({"items"});
}

}  // namespace ctrl::e2e
