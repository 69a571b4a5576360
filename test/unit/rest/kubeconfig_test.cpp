#include "ctrl/rest/kubeconfig.hpp"

#include <gtest/gtest.h>

#include <map>
#include <string>

#include "ctrl/core/base64.hpp"
#include "test/unit/rest/kubeconfig_test_util.hpp"

namespace ctrl::rest {
namespace {

using testing::TempDir;
using testing::TestData;

// A kubeconfig with one context "dev" -> cluster "c", user "u"; extra text is appended to the user.
std::string OneContext(const std::string& user_fields = "    token: abc\n",
                       const std::string& cluster_fields = "    server: https://10.0.0.1:6443\n") {
    return "apiVersion: v1\nkind: Config\ncurrent-context: dev\n"
           "clusters:\n- name: c\n  cluster:\n" +
           cluster_fields + "users:\n- name: u\n  user:\n" + user_fields +
           "contexts:\n- name: dev\n  context:\n    cluster: c\n    user: u\n";
}

KubeconfigOptions Explicit(const std::string& path) {
    return KubeconfigOptions{.explicit_path = path, .environment = std::map<std::string, std::string>{}};
}

TEST(Base64Test, EncodesAndDecodesLikeGo) {
    EXPECT_EQ(Base64Encode("alice:s3cret"), "YWxpY2U6czNjcmV0");
    EXPECT_EQ(Base64Encode("ab"), "YWI=");
    EXPECT_EQ(*Base64Decode("YWxp\r\nY2U6czNjcmV0"), "alice:s3cret");
    EXPECT_EQ(*Base64Decode("YWI="), "ab");
    EXPECT_EQ(Base64Decode("YW*=").GetStatus().Message(),
              "illegal base64 data at input byte 2: not a base64 character");
    EXPECT_FALSE(Base64Decode("YWI").Ok());
    EXPECT_FALSE(Base64Decode("YQ==YQ==").Ok());
}

TEST(KubeconfigTest, ReadsClusterUserAndContextFields) {
    TempDir dir;
    const std::string path = dir.Write("config", OneContext("    client-certificate-data: " + Base64Encode("CERT") +
                                                                "\n"
                                                                "    client-key-data: " +
                                                                Base64Encode("KEY") + "\n",
                                                            "    server: https://10.0.0.1:6443\n"
                                                            "    certificate-authority-data: " +
                                                                Base64Encode("CA") +
                                                                "\n"
                                                                "    tls-server-name: api.internal\n") +
                                                     "    namespace: team-a\n");
    auto config = LoadKubeconfig(Explicit(path));
    ASSERT_TRUE(config.Ok()) << config.GetStatus();
    EXPECT_EQ(config->host, "https://10.0.0.1:6443");
    EXPECT_EQ(config->tls.ca_pem, "CA");
    EXPECT_EQ(config->tls.client_cert_pem, "CERT");
    EXPECT_EQ(config->tls.client_key_pem, "KEY");
    EXPECT_EQ(config->tls.server_name, "api.internal");
    EXPECT_FALSE(config->tls.insecure_skip_verify);
    EXPECT_EQ(config->default_namespace, "team-a");
    EXPECT_EQ(config->source, "kubeconfig " + path + ", context \"dev\"");
}

TEST(KubeconfigTest, MergesKubeconfigListFirstFileWinsAndResolvesPathsPerFile) {
    const std::string team = TestData("kubeconfig/team/config");
    const std::string personal = TestData("kubeconfig/personal/config");
    KubeconfigOptions options{.environment = std::map<std::string, std::string>{
                                  {"KUBECONFIG", team + "::/nonexistent/config:" + personal + ":" + team}}};
    auto config = LoadKubeconfig(options);
    ASSERT_TRUE(config.Ok()) << config.GetStatus();
    // current-context and the "shared" cluster come whole from the first file.
    EXPECT_EQ(config->host, "https://team.example:6443");
    EXPECT_EQ(config->tls.server_name, "");
    EXPECT_EQ(config->tls.ca_pem, "-----BEGIN CERTIFICATE-----\nteam-ca\n-----END CERTIFICATE-----\n");
    // The user comes from the second file, its relative paths resolved against that file's directory.
    EXPECT_EQ(config->tls.client_cert_pem, "-----BEGIN CERTIFICATE-----\nalice-cert\n-----END CERTIFICATE-----\n");
    EXPECT_EQ(config->tls.client_key_pem, "-----BEGIN PRIVATE KEY-----\nalice-key\n-----END PRIVATE KEY-----\n");
    EXPECT_EQ(config->default_namespace, "team-ns");

    options.context = "mine";
    auto mine = LoadKubeconfig(options);
    ASSERT_TRUE(mine.Ok()) << mine.GetStatus();
    EXPECT_EQ(mine->host, "https://personal.example:6443");
    EXPECT_TRUE(mine->tls.insecure_skip_verify);
    EXPECT_EQ(mine->default_namespace, "default");
    EXPECT_EQ(mine->source, "kubeconfig " + personal + ", context \"mine\"");
}

TEST(KubeconfigTest, CurrentContextComesFromTheFirstFileThatSetsIt) {
    TempDir dir;
    const std::string first = dir.Write("a", "clusters:\n- name: x\n  cluster:\n    server: https://x\n");
    const std::string second = dir.Write("b", OneContext());
    auto config =
        LoadKubeconfig({.environment = std::map<std::string, std::string>{{"KUBECONFIG", first + ":" + second}}});
    ASSERT_TRUE(config.Ok()) << config.GetStatus();
    EXPECT_EQ(config->host, "https://10.0.0.1:6443");
    EXPECT_EQ(config->bearer_token, "abc");
}

TEST(KubeconfigTest, RelativePathsResolveAgainstTheFileDirectory) {
    TempDir dir;
    dir.Write("kube/certs/ca.crt", "CA-FILE");
    dir.Write("kube/token", " file-token\n");
    const std::string path = dir.Write(
        "kube/config",
        OneContext("    tokenFile: token\n"
                   "    exec:\n      apiVersion: client.authentication.k8s.io/v1beta1\n      command: ./bin/plugin\n",
                   "    server: https://10.0.0.1:6443\n    certificate-authority: certs/ca.crt\n"));
    auto config = LoadKubeconfig(Explicit(path));
    ASSERT_TRUE(config.Ok()) << config.GetStatus();
    EXPECT_EQ(config->tls.ca_pem, "CA-FILE");
    EXPECT_EQ(config->bearer_token_file, dir.Path("kube/token"));
    EXPECT_EQ(config->bearer_token, "file-token");
    ASSERT_TRUE(config->exec.has_value());
    EXPECT_EQ(config->exec->command, dir.Path("kube/bin/plugin"));
    EXPECT_EQ(config->exec->interactive_mode, "IfAvailable");
}

TEST(KubeconfigTest, ReadsExecStanza) {
    TempDir dir;
    const std::string path = dir.Write("config", OneContext("    exec:\n"
                                                            "      apiVersion: client.authentication.k8s.io/v1\n"
                                                            "      command: aws\n"
                                                            "      args: [eks, get-token, --cluster-name, prod]\n"
                                                            "      env:\n      - name: AWS_PROFILE\n        value: ci\n"
                                                            "      installHint: install the AWS CLI\n"
                                                            "      provideClusterInfo: true\n"
                                                            "      interactiveMode: Never\n",
                                                            "    server: https://10.0.0.1:6443\n"
                                                            "    extensions:\n"
                                                            "    - name: client.authentication.k8s.io/exec\n"
                                                            "      extension:\n        audience: sts\n        retries: "
                                                            "3\n        verbose: false\n        tag: \"7\"\n"));
    auto config = LoadKubeconfig(Explicit(path));
    ASSERT_TRUE(config.Ok()) << config.GetStatus();
    ASSERT_TRUE(config->exec.has_value());
    const ExecConfig& exec = *config->exec;
    EXPECT_EQ(exec.command, "aws");
    EXPECT_EQ(exec.args, (std::vector<std::string>{"eks", "get-token", "--cluster-name", "prod"}));
    ASSERT_EQ(exec.env.size(), 1u);
    EXPECT_EQ(exec.env[0], (std::pair<std::string, std::string>{"AWS_PROFILE", "ci"}));
    EXPECT_EQ(exec.install_hint, "install the AWS CLI");
    EXPECT_TRUE(exec.provide_cluster_info);
    EXPECT_EQ(exec.interactive_mode, "Never");
    EXPECT_EQ(exec.cluster_config_json, R"({"audience":"sts","retries":3,"verbose":false,"tag":"7"})");
}

TEST(KubeconfigTest, ReadsJsonAndAddsASchemeToABareServer) {
    TempDir dir;
    const std::string path = dir.Write("config.json", R"({"current-context":"dev",
        "clusters":[{"name":"c","cluster":{"server":"10.0.0.1:6443","insecure-skip-tls-verify":true}}],
        "users":[{"name":"u","user":{"username":"alice","password":"s3cret"}}],
        "contexts":[{"name":"dev","context":{"cluster":"c","user":"u"}}]})");
    auto config = LoadKubeconfig(Explicit(path));
    ASSERT_TRUE(config.Ok()) << config.GetStatus();
    EXPECT_EQ(config->host, "https://10.0.0.1:6443");
    EXPECT_EQ(config->username, "alice");
    EXPECT_EQ(config->password, "s3cret");
}

TEST(KubeconfigTest, UsesHomeKubeConfigWhenKubeconfigIsUnset) {
    TempDir dir;
    dir.Write(".kube/config", OneContext());
    auto config = LoadKubeconfig({.environment = std::map<std::string, std::string>{{"HOME", dir.Path()}}});
    ASSERT_TRUE(config.Ok()) << config.GetStatus();
    EXPECT_EQ(config->source, "kubeconfig " + dir.Path(".kube/config") + ", context \"dev\"");
}

TEST(KubeconfigTest, ExplicitPathWinsOverKubeconfigAndMustExist) {
    TempDir dir;
    const std::string explicit_path = dir.Write("explicit", OneContext("    token: explicit\n"));
    const std::string listed = dir.Write("listed", OneContext("    token: listed\n"));
    auto config = LoadKubeconfig(
        {.explicit_path = explicit_path, .environment = std::map<std::string, std::string>{{"KUBECONFIG", listed}}});
    ASSERT_TRUE(config.Ok()) << config.GetStatus();
    EXPECT_EQ(config->bearer_token, "explicit");

    auto missing = LoadKubeconfig(Explicit(dir.Path("missing")));
    EXPECT_TRUE(IsNotFound(missing.GetStatus()));
    EXPECT_EQ(missing.GetStatus().Message(), "kubeconfig " + dir.Path("missing") + ": No such file or directory");
}

TEST(KubeconfigTest, NoFileFoundIsNotFound) {
    auto none = LoadKubeconfig({.environment = std::map<std::string, std::string>{{"KUBECONFIG", "/nonexistent/a"}}});
    EXPECT_TRUE(IsNotFound(none.GetStatus()));
    EXPECT_EQ(none.GetStatus().Message(),
              "no kubeconfig found: none of the files in $KUBECONFIG exist (/nonexistent/a)");
    TempDir dir;
    auto home = LoadKubeconfig({.environment = std::map<std::string, std::string>{{"HOME", dir.Path()}}});
    EXPECT_TRUE(IsNotFound(home.GetStatus()));
    EXPECT_EQ(home.GetStatus().Message(), "no kubeconfig found: " + dir.Path(".kube/config") + " does not exist");
}

// A malformed or incomplete kubeconfig and the exact error; "{file}" stands for its path.
struct MalformedCase {
    std::string name;
    std::string text;
    std::string message;
    std::string context = "";
};

class MalformedKubeconfigTest : public ::testing::TestWithParam<MalformedCase> {};

TEST_P(MalformedKubeconfigTest, IsBadRequestNamingFileAndField) {
    TempDir dir;
    const std::string path = dir.Write("config", GetParam().text);
    KubeconfigOptions options = Explicit(path);
    options.context = GetParam().context;
    auto config = LoadKubeconfig(options);
    ASSERT_FALSE(config.Ok());
    EXPECT_TRUE(IsBadRequest(config.GetStatus())) << config.GetStatus();
    std::string expected = GetParam().message;
    for (std::size_t at; (at = expected.find("{dir}")) != std::string::npos;)
        expected.replace(at, 5, dir.Path());
    for (std::size_t at; (at = expected.find("{file}")) != std::string::npos;)
        expected.replace(at, 6, path);
    EXPECT_EQ(config.GetStatus().Message(), expected);
}

const std::string kUserIsBob = "contexts:\n- name: dev\n  context:\n    cluster: c\n    user: bob\n";

INSTANTIATE_TEST_SUITE_P(
    Cases, MalformedKubeconfigTest,
    ::testing::Values(
        MalformedCase{"BadYaml", "clusters:\n- name: c\n  cluster: [unclosed\n",
                      "kubeconfig {file}: invalid YAML: end of sequence flow not found (line 4, column 1)"},
        MalformedCase{"NotAMap", "- just\n- a list\n",
                      "kubeconfig {file}: expected a map at the top level (line 1, column 1)"},
        MalformedCase{"ClustersNotAList", "clusters: oops\n",
                      "kubeconfig {file}: clusters: expected a list (line 1, column 11)"},
        MalformedCase{"ArgsNotAList",
                      OneContext("    exec:\n      apiVersion: client.authentication.k8s.io/v1\n      command: x\n"
                                 "      args: nope\n"),
                      "kubeconfig {file}: users[0].user.exec.args: expected a list (line 14, column 13)"},
        MalformedCase{"BoolNotABool",
                      OneContext("    token: t\n", "    server: https://x\n    insecure-skip-tls-verify: maybe\n"),
                      "kubeconfig {file}: clusters[0].cluster.insecure-skip-tls-verify: expected true or false (line "
                      "8, column 31)"},
        MalformedCase{"UnnamedEntry", "users:\n- user:\n    token: t\n",
                      "kubeconfig {file}: users[0]: missing name (line 2, column 3)"},
        MalformedCase{"DuplicateName", "clusters:\n- name: c\n- name: c\n",
                      "kubeconfig {file}: clusters[1]: duplicate name \"c\" (line 3, column 3)"},
        MalformedCase{"Empty", "# nothing here\n",
                      "kubeconfig {file}: no configuration: no contexts, clusters or users are defined"},
        MalformedCase{"NoCurrentContext", "clusters:\n- name: c\n  cluster:\n    server: https://x\n",
                      "kubeconfig {file}: no context selected: current-context is not set"},
        MalformedCase{"CurrentContextMissing",
                      "current-context: ghost\n" + OneContext().substr(OneContext().find("clusters")),
                      "kubeconfig {file}: context \"ghost\" not found"},
        MalformedCase{"OverrideContextMissing", OneContext(), "kubeconfig {file}: context \"prod\" not found", "prod"},
        MalformedCase{"UserMissing", OneContext().substr(0, OneContext().find("contexts")) + kUserIsBob,
                      "kubeconfig {file}: context \"dev\": user \"bob\" not found"},
        MalformedCase{"NoUser", "current-context: dev\ncontexts:\n- name: dev\n  context:\n    cluster: c\n",
                      "kubeconfig {file}: context \"dev\": no user set"},
        MalformedCase{"ClusterMissing",
                      "current-context: dev\nusers:\n- name: u\n  user: {}\ncontexts:\n- name: dev\n  context:\n    "
                      "cluster: nope\n    user: u\n",
                      "kubeconfig {file}: context \"dev\": cluster \"nope\" not found"},
        MalformedCase{"NoServer", OneContext("    token: t\n", "    insecure-skip-tls-verify: true\n"),
                      "kubeconfig {file}: cluster \"c\": no server set"},
        MalformedCase{"InvalidNamespace", OneContext() + "    namespace: Team_A\n",
                      "kubeconfig {file}: context \"dev\": namespace \"Team_A\" is not a valid DNS-1123 label"},
        MalformedCase{
            "UnreadableCaFile",
            OneContext("    token: t\n", "    server: https://x\n    certificate-authority: ca.crt\n"),
            "kubeconfig {file}: cluster \"c\": certificate-authority {dir}/ca.crt: No such file or directory"},
        MalformedCase{"UnreadableClientCert",
                      OneContext("    client-certificate: certs/u.crt\n    client-key-data: S0VZ\n"),
                      "kubeconfig {file}: user \"u\": client-certificate {dir}/certs/u.crt: No such file or directory"},
        MalformedCase{"MissingTokenFile", OneContext("    tokenFile: /nonexistent/token\n"),
                      "kubeconfig {file}: user \"u\": tokenFile /nonexistent/token: No such file or directory"},
        MalformedCase{"InvalidBase64",
                      OneContext("    token: t\n", "    server: https://x\n    certificate-authority-data: QUJD$$$$\n"),
                      "kubeconfig {file}: cluster \"c\": certificate-authority-data: illegal base64 data at input byte "
                      "4: not a base64 character"},
        MalformedCase{
            "CaFileAndData",
            OneContext("    token: t\n",
                       "    server: https://x\n    certificate-authority: a\n    certificate-authority-data: QUJD\n"),
            "kubeconfig {file}: cluster \"c\": certificate-authority and certificate-authority-data are both set"},
        MalformedCase{
            "InsecureWithCa",
            OneContext(
                "    token: t\n",
                "    server: https://x\n    insecure-skip-tls-verify: true\n    certificate-authority-data: QUJD\n"),
            "kubeconfig {file}: cluster \"c\": insecure-skip-tls-verify and a certificate authority are both set"},
        MalformedCase{"CertWithoutKey", OneContext("    client-certificate-data: QUJD\n"),
                      "kubeconfig {file}: user \"u\": client-certificate is set without client-key"},
        MalformedCase{
            "TokenAndBasic", OneContext("    token: t\n    username: alice\n    password: p\n"),
            "kubeconfig {file}: user \"u\": more than one authentication method: a token and username/password"},
        MalformedCase{
            "AuthProvider", OneContext("    auth-provider:\n      name: oidc\n"),
            "kubeconfig {file}: user \"u\": auth-provider \"oidc\" is not supported; use an exec credential plugin"},
        MalformedCase{
            "Impersonation", OneContext("    token: t\n    as: admin\n"),
            "kubeconfig {file}: user \"u\": impersonation (as, as-uid, as-groups, as-user-extra) is not supported"},
        MalformedCase{"ProxyUrl",
                      OneContext("    token: t\n", "    server: https://x\n    proxy-url: http://proxy:3128\n"),
                      "kubeconfig {file}: cluster \"c\": proxy-url is not supported"},
        MalformedCase{
            "ExecV1WithoutInteractiveMode",
            OneContext("    exec:\n      apiVersion: client.authentication.k8s.io/v1\n      command: aws\n"),
            "kubeconfig {file}: user \"u\": exec: interactiveMode must be set for client.authentication.k8s.io/v1"},
        MalformedCase{
            "ExecBadApiVersion",
            OneContext("    exec:\n      apiVersion: client.authentication.k8s.io/v1alpha1\n      command: aws\n"
                       "      interactiveMode: Never\n"),
            "kubeconfig {file}: user \"u\": exec: apiVersion \"client.authentication.k8s.io/v1alpha1\" is not "
            "supported (use client.authentication.k8s.io/v1 or client.authentication.k8s.io/v1beta1)"},
        MalformedCase{"ExecNoCommand",
                      OneContext("    exec:\n      apiVersion: client.authentication.k8s.io/v1beta1\n"),
                      "kubeconfig {file}: user \"u\": exec: command is not set"},
        MalformedCase{"ExecBadInteractiveMode",
                      OneContext("    exec:\n      apiVersion: client.authentication.k8s.io/v1\n      command: x\n"
                                 "      interactiveMode: Sometimes\n"),
                      "kubeconfig {file}: user \"u\": exec: invalid interactiveMode \"Sometimes\" (use Never, "
                      "IfAvailable or Always)"},
        MalformedCase{"ExecEnvWithoutName",
                      OneContext("    exec:\n      apiVersion: client.authentication.k8s.io/v1beta1\n      command: x\n"
                                 "      env:\n      - value: v\n"),
                      "kubeconfig {file}: users[0].user.exec.env[0]: missing name (line 15, column 9)"}),
    [](const ::testing::TestParamInfo<MalformedCase>& info) { return info.param.name; });

}  // namespace
}  // namespace ctrl::rest
