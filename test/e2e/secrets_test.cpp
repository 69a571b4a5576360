// Issue 17, part 4: secrets, with the built operator against the real control plane.
// - At the highest verbosity (--v=10), operators authenticating with a known bearer token, an exec
//   plugin (whose first credential is refused: a 401 and a retry), a client certificate, a refused
//   token (401s) and the token of an account without rights (403s), next to a Secret in the watched
//   namespace, print none of those credentials nor the Secret's data (plain or base64) on stdout or
//   stderr (one file), in /metrics, or in the errors a failed start returns.
// - TLS verification is on: a kubeconfig whose CA did not sign the server's certificate is refused
//   with a clear error; the same with insecure-skip-tls-verify: true works.
// - With --metrics-secure, plain HTTP to the metrics port gets no metrics, even with a good token.

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "ctrl/core/base64.hpp"
#include "test/e2e/operator_fixture.hpp"
#include "test/support/control_plane_environment.hpp"
#include "test/support/eventually.hpp"
#include "test/support/repo_path.hpp"

namespace ctrl::e2e {
namespace {

using namespace std::chrono_literals;
using testing::Eventually;

std::string RandomHex(int n) {
    std::random_device random;
    std::string out;
    for (int i = 0; i < n; ++i)
        out += "0123456789abcdef"[random() % 16];
    return out;
}

std::string ReadFile(const std::string& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

void WriteFile(const std::string& path, const std::string& text) {
    std::ofstream out(path, std::ios::trunc);
    out << text;
    ASSERT_TRUE(out.flush()) << "writing " << path;
}

// The value of the first "<key>: value" line of a YAML text ("" when absent).
std::string YamlValue(const std::string& yaml, const std::string& key) {
    const size_t at = yaml.find(key + ": ");
    if (at == std::string::npos)
        return "";
    const size_t from = at + key.size() + 2;
    return yaml.substr(from, yaml.find('\n', from) - from);
}

// The longest line of a PEM text: a full line of its base64 body, found nowhere else.
std::string DistinctiveLine(const std::string& pem) {
    std::istringstream in(pem);
    std::string longest;
    for (std::string line; std::getline(in, line);) {
        if (line.find("-----") == std::string::npos && line.size() > longest.size())
            longest = line;
    }
    return longest;
}

// A kubeconfig with one cluster (the control plane; its lines under `cluster:` given) and one user (its
// lines under `user:` given), each line indented by four spaces.
std::string Kubeconfig(const std::string& cluster_lines, const std::string& user_lines) {
    return "apiVersion: v1\nkind: Config\ncurrent-context: e2e\nclusters:\n- name: e2e\n  cluster:\n    server: " +
           testing::SharedControlPlane().Host() + "\n" + cluster_lines +
           "contexts:\n- name: e2e\n  context:\n    cluster: e2e\n    user: e2e\nusers:\n- name: e2e\n  user:\n" +
           user_lines;
}

std::string CaLines(const std::string& ca_file) {
    return "    certificate-authority-data: " + Base64Encode(ReadFile(ca_file)) + "\n";
}

// A CA that signed nothing the control plane serves.
std::string OtherCaFile(const std::string& dir) {
    const std::string cmd =
        "openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 1 -subj /CN=not-the-cluster-ca "
        "-keyout " +
        dir + "/other-ca.key -out " + dir + "/other-ca.crt 2>/dev/null";
    EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
    return dir + "/other-ca.crt";
}

class SecretsTest : public OperatorTest {
  protected:
    void SetUp() override {
        char pattern[] = "/tmp/ctrl-e2e-secrets-XXXXXX";
        ASSERT_NE(mkdtemp(pattern), nullptr);
        dir_ = pattern;
    }
    void TearDown() override {
        OperatorTest::TearDown();
        if (!HasFailure())
            std::filesystem::remove_all(dir_);
    }

    // Writes a kubeconfig into the test's directory and returns its path.
    std::string WriteKubeconfigFile(const std::string& name, const std::string& yaml) {
        const std::string path = dir_ + "/" + name + ".kubeconfig";
        WriteFile(path, yaml);
        return path;
    }

    std::string dir_;
};

TEST_F(SecretsTest, NoCredentialOrSecretDataInAnyOutputAtTheHighestVerbosity) {
    const std::string ns = MakeNamespace();
    testing::ControlPlane& plane = testing::SharedControlPlane();
    const std::string ca = CaLines(plane.CaFile());

    // A Secret in the watched namespace, with a data value and a stringData value.
    const std::string data_value = "data-value-" + RandomHex(24);
    const std::string string_value = "string-value-" + RandomHex(24);
    Apply(ns, "apiVersion: v1\nkind: Secret\nmetadata:\n  name: db-credentials\ndata:\n  password: " +
                  Base64Encode(data_value) + "\nstringData:\n  apiKey: " + string_value + "\n");

    // The operator's ServiceAccount token, through an exec plugin whose first credential is refused.
    StatusOr<std::string> token = ServiceAccountToken();
    ASSERT_TRUE(token.Ok()) << token.GetStatus();
    const std::string revoked_token = "revoked-token-" + RandomHex(24);
    const std::string exec_kubeconfig = WriteKubeconfigFile(
        "exec", Kubeconfig(ca, "    exec:\n      apiVersion: client.authentication.k8s.io/v1\n      command: " +
                                   testing::RepoPath("test/integration/rest/testdata/exec-plugin.sh") +
                                   "\n      interactiveMode: Never\n"
                                   "      env:\n      - {name: COUNT_FILE, value: " +
                                   dir_ + "/exec-count}\n      - {name: FIRST_TOKEN, value: " + revoked_token +
                                   "}\n      - {name: LATER_TOKEN, value: " + *token +
                                   "}\n      - {name: EXPIRY_SECONDS, value: \"3600\"}\n"));
    // A client certificate of system:masters (its key is embedded in the kubeconfig).
    StatusOr<std::string> cert_kubeconfig = plane.AddUser("e2e-cert-operator", {"system:masters"});
    ASSERT_TRUE(cert_kubeconfig.Ok()) << cert_kubeconfig.GetStatus();
    const std::string key_data = YamlValue(ReadFile(*cert_kubeconfig), "client-key-data");
    StatusOr<std::string> key_pem = Base64Decode(key_data);
    ASSERT_TRUE(key_pem.Ok() && key_pem->find("PRIVATE KEY") != std::string::npos) << "no client key in the kubeconfig";
    // A token the server does not know (401s), and one of an account without rights (403s).
    const std::string refused_token = "refused-token-" + RandomHex(24);
    const std::string refused_kubeconfig =
        WriteKubeconfigFile("refused", Kubeconfig(ca, "    token: " + refused_token + "\n"));
    ASSERT_TRUE(KubectlOut({"create", "serviceaccount", "e2e-nobody", "-n", std::string(kOperatorNamespace)}).Ok());
    StatusOr<std::string> nobody_token = ServiceAccountToken("e2e-nobody");
    ASSERT_TRUE(nobody_token.Ok()) << nobody_token.GetStatus();
    const std::string nobody_kubeconfig =
        WriteKubeconfigFile("nobody", Kubeconfig(ca, "    token: " + *nobody_token + "\n"));

    const std::vector<std::string> v10 = {"--v=10"};
    std::vector<OperatorProcess*> working;
    for (const auto& [name, kubeconfig] : std::vector<std::pair<std::string, std::string>>{
             {"token", ""}, {"exec", exec_kubeconfig}, {"cert", *cert_kubeconfig}}) {
        OperatorProcess* op =
            StartOperator({.name = name, .watch_namespaces = {ns}, .args = v10, .kubeconfig = kubeconfig});
        ASSERT_NE(op, nullptr) << name;
        working.push_back(op);
    }
    // The refused ones may exit or keep retrying: either way their output is searched.
    std::string start_errors;
    std::vector<std::unique_ptr<OperatorProcess>> refused;
    for (const auto& [name, kubeconfig] : std::vector<std::pair<std::string, std::string>>{
             {"refused", refused_kubeconfig}, {"nobody", nobody_kubeconfig}}) {
        StatusOr<std::unique_ptr<OperatorProcess>> started =
            OperatorProcess::Start({.name = name, .watch_namespaces = {ns}, .args = v10, .kubeconfig = kubeconfig});
        if (started.Ok())
            refused.push_back(std::move(started).Value());
        else
            start_errors += started.GetStatus().ToString() + "\n";
    }

    Apply(ns, PodSelectorPolicyYaml("web", "app=web", "sg-web-1") + PodYaml("web-1", "app=web") +
                  PodYaml("db-1", "app=db"));
    EXPECT_TRUE(AnnotationsConverge({ns}, testing::kTestWait));
    for (OperatorProcess* op : working) {
        EXPECT_TRUE(Eventually([&] {
            return op->LogLinesWith({"rest", "\"request\"", "status=200"}) > 0;
        })) << op->Name()
            << " made no request that succeeded" << op->LogTail();
    }
    for (const auto& op : refused) {
        const std::string code = op->Name() == "refused" ? "401" : "403";
        EXPECT_TRUE(Eventually([&] { return op->LogLinesWith({code}) > 0; }))
            << op->Name() << " logged no " << code << op->LogTail();
    }

    // Every output: each process's stdout and stderr (one file), its /metrics, the start errors.
    std::vector<std::pair<std::string, std::string>> outputs;
    for (OperatorProcess* op : working)
        outputs.emplace_back("/metrics of " + op->Name(), op->MetricsText());
    for (const auto& op : refused)
        outputs.emplace_back("/metrics of " + op->Name(), op->MetricsText());
    for (const auto& op : refused)
        op->Process().Stop(std::chrono::seconds(15));
    for (OperatorProcess* op : working)
        op->Process().Stop(std::chrono::seconds(15));
    for (OperatorProcess* op : working)
        outputs.emplace_back("stdout/stderr of " + op->Name(), op->Log());
    for (const auto& op : refused)
        outputs.emplace_back("stdout/stderr of " + op->Name(), op->Log());
    outputs.emplace_back("the errors of failed starts", start_errors);

    const std::vector<std::pair<std::string, std::string>> secrets = {
        {"the bearer token of the token operator (its kubeconfig's)", working[0]->Token()},
        {"the exec plugin's credential", *token},
        {"the exec plugin's refused credential", revoked_token},
        {"the refused bearer token", refused_token},
        {"the bearer token of the account without rights", *nobody_token},
        {"the client key (a line of its PEM)", DistinctiveLine(*key_pem)},
        {"the client key (its base64 in the kubeconfig)", key_data.substr(key_data.size() / 2, 60)},
        {"the Secret's data value", data_value},
        {"the Secret's data value, base64", Base64Encode(data_value)},
        {"the Secret's stringData value", string_value},
        {"the Secret's stringData value, base64", Base64Encode(string_value)},
    };
    for (const auto& [what, value] : secrets) {
        ASSERT_GE(value.size(), 20u) << what;
        for (const auto& [where, text] : outputs) {
            const size_t at = text.find(value);
            EXPECT_EQ(at, std::string::npos)
                << what << " appears in " << where << ": ..." << text.substr(at < 100 ? 0 : at - 100, 200) << "...";
        }
    }
    // The search ran over output that says what it did.
    size_t bytes = 0;
    for (const auto& [where, text] : outputs)
        bytes += text.size();
    std::printf("[ e2e ] searched %zu bytes of output (%zu outputs) for %zu secret values\n", bytes, outputs.size(),
                secrets.size());
    for (OperatorProcess* op : working)
        EXPECT_GT(op->LogLinesWith({"\"request headers\""}), 0) << op->Name() << ": no request headers at V(7)";
    for (OperatorProcess* op : {working[0], working[1]}) {  // the certificate sends no Authorization header
        EXPECT_GT(op->LogLinesWith({"Authorization=\"<redacted>\""}), 0) << op->Name() << ": no redacted header";
    }
    EXPECT_GT(working[1]->LogLinesWith({"running the exec credential plugin"}), 0);
    EXPECT_GT(working[1]->LogLinesWith({"unauthorized: dropping cached credentials and retrying once"}), 0);
}

TEST_F(SecretsTest, ACaThatDidNotSignTheServerIsRefusedUnlessTheKubeconfigSaysInsecure) {
    const std::string ns = MakeNamespace();
    StatusOr<std::string> token = ServiceAccountToken();
    ASSERT_TRUE(token.Ok()) << token.GetStatus();
    const std::string user = "    token: " + *token + "\n";
    const std::string wrong_ca = WriteKubeconfigFile("wrong-ca", Kubeconfig(CaLines(OtherCaFile(dir_)), user));
    const std::string insecure =
        WriteKubeconfigFile("insecure", Kubeconfig("    insecure-skip-tls-verify: true\n", user));

    // Refused: its log (or its start error, if it gave up) says why, naming the server.
    const std::string host = testing::SharedControlPlane().Host();
    StatusOr<std::unique_ptr<OperatorProcess>> refused =
        OperatorProcess::Start({.name = "wrong-ca", .watch_namespaces = {ns}, .kubeconfig = wrong_ca});
    std::string said;
    if (refused.Ok()) {
        EXPECT_TRUE(Eventually([&] {
            said = (*refused)->Log();
            return said.find("certificate verify failed") != std::string::npos;
        })) << (*refused)->LogTail();
    } else {
        said = refused.GetStatus().ToString();
    }
    EXPECT_NE(said.find("certificate verify failed"), std::string::npos) << said;
    EXPECT_NE(said.find(host), std::string::npos) << "the error names the server " << host << ": " << said;
    const size_t at = said.find("certificate verify failed");
    if (at != std::string::npos)
        std::printf("[ e2e ] with a CA that did not sign the server: ...%s\n",
                    said.substr(at < 150 ? 0 : at - 150, 300).c_str());

    // Accepted with insecure-skip-tls-verify: it works.
    OperatorProcess* op = StartOperator({.name = "insecure", .watch_namespaces = {ns}, .kubeconfig = insecure});
    ASSERT_NE(op, nullptr);
    ASSERT_TRUE(WaitReady(*op));
    Apply(ns, PodSelectorPolicyYaml("web", "app=web", "sg-web-1") + PodYaml("web-1", "app=web"));
    EXPECT_TRUE(AnnotationsConverge({ns}, testing::kTestWait));
}

TEST_F(SecretsTest, SecureMetricsRefusePlainHttp) {
    const std::string ns = MakeNamespace();
    const std::string scraper = "e2e-secrets-scraper";
    ASSERT_TRUE(KubectlOut({"create", "serviceaccount", scraper, "-n", std::string(kOperatorNamespace)}).Ok());
    ASSERT_TRUE(KubectlOut({"create", "clusterrolebinding", scraper, "--clusterrole=cluster-admin",
                            "--serviceaccount=" + std::string(kOperatorNamespace) + ":" + scraper})
                    .Ok());
    StatusOr<std::string> token = ServiceAccountToken(scraper);
    ASSERT_TRUE(token.Ok()) << token.GetStatus();
    OperatorProcess* op = StartOperator({.name = "secure", .watch_namespaces = {ns}, .args = {"--metrics-secure"}});
    ASSERT_NE(op, nullptr);
    const std::string https = op->MetricsUrl();
    ASSERT_EQ(https.rfind("https://", 0), 0u) << https;
    testing::CurlResult scraped;
    ASSERT_TRUE(Eventually([&] {
        scraped = op->Metrics(*token);
        return scraped.status == 200;
    })) << "HTTPS with the token: "
        << scraped.status << " " << scraped.body.substr(0, 300);
    ASSERT_NE(scraped.body.find("# TYPE"), std::string::npos);

    const std::string http = "http://" + https.substr(std::string("https://").size());
    for (const std::string& bearer : {std::string(), *token}) {
        const testing::CurlResult plain = testing::Curl(http, bearer);
        EXPECT_NE(plain.status, 200) << http << (bearer.empty() ? "" : " with the token");
        EXPECT_EQ(plain.body.find("# TYPE"), std::string::npos)
            << "metrics over plain HTTP: " << plain.body.substr(0, 300);
        std::printf("[ e2e ] plain HTTP to the HTTPS metrics port%s: status %d, %zu bytes\n",
                    bearer.empty() ? "" : " with a good token", plain.status, plain.body.size());
    }
    EXPECT_TRUE(op->Running());
    EXPECT_EQ(op->Metrics(*token).status, 200) << "HTTPS still serves after the plain requests";
}

}  // namespace
}  // namespace ctrl::e2e
