#include "test/e2e/audit_log.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "ctrl/core/object.hpp"
#include "test/e2e/operator_fixture.hpp"

namespace ctrl::e2e {
namespace {

constexpr char kAuditPolicy[] = R"(apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: [RequestReceived]
rules:
  - level: Metadata
    resources:
      - group: vpcresources.k8s.aws
        resources: [securitygrouppolicies, securitygrouppolicies/status]
  - level: None
)";

std::filesystem::path& AuditDir() {
    static std::filesystem::path dir;
    return dir;
}

// Removes the audit directory when the binary ends.
class AuditDirCleanup final : public ::testing::Environment {
  public:
    void TearDown() override {
        if (std::getenv("CTRL_KEEP_CONTROL_PLANE_DIR") == nullptr)
            std::filesystem::remove_all(AuditDir());
    }
};

std::string StringOf(const Object& event, FieldPath path) {
    StatusOr<std::string> value = event.NestedString(path);
    return value.Ok() ? *value : std::string();
}

}  // namespace

void InstallAuditedE2eEnvironment(SgpCrd crd) {
    std::string dir_template = (std::filesystem::temp_directory_path() / "ctrl-e2e-audit-XXXXXX").string();
    if (mkdtemp(dir_template.data()) == nullptr) {
        std::perror("mkdtemp");
        std::exit(1);
    }
    AuditDir() = dir_template;
    std::ofstream(AuditDir() / "policy.yaml") << kAuditPolicy;
    ::testing::AddGlobalTestEnvironment(new AuditDirCleanup());
    InstallE2eEnvironment(crd, {"--audit-policy-file=" + (AuditDir() / "policy.yaml").string(),
                                "--audit-log-path=" + (AuditDir() / "audit.log").string(), "--audit-log-format=json",
                                "--audit-log-mode=blocking"});
}

StatusOr<SgpRequests> AuditedSgpRequests(const std::string& user, const std::string& ns) {
    std::ifstream in(AuditDir() / "audit.log");
    if (!in)
        return NotFoundError("no audit log at " + (AuditDir() / "audit.log").string());
    SgpRequests requests;
    for (std::string line; std::getline(in, line);) {
        if (line.empty())
            continue;
        CTRL_ASSIGN_OR_RETURN(Object event, Object::Parse(line));
        if (StringOf(event, {"user", "username"}) != user || StringOf(event, {"objectRef", "namespace"}) != ns ||
            StringOf(event, {"objectRef", "resource"}) != "securitygrouppolicies")
            continue;
        ++requests.all;
        if (StringOf(event, {"objectRef", "subresource"}) == "status")
            ++requests.status;
    }
    return requests;
}

}  // namespace ctrl::e2e
