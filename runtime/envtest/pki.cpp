#include "ctrl/envtest/pki.hpp"

#include <fstream>
#include <random>

#include "ctrl/envtest/command.hpp"

namespace ctrl::envtest {
namespace {

constexpr char kDays[] = "30";

// One config for every call: openssl then never reads the system's openssl.cnf.
constexpr char kConfig[] = R"([req]
distinguished_name = dn
prompt = no
[dn]
CN = ctrl-envtest-ca
[ca_ext]
basicConstraints = critical,CA:TRUE
keyUsage = critical,keyCertSign,cRLSign,digitalSignature
subjectKeyIdentifier = hash
[server_ext]
basicConstraints = critical,CA:FALSE
keyUsage = critical,digitalSignature
extendedKeyUsage = serverAuth
subjectAltName = IP:127.0.0.1,DNS:localhost
authorityKeyIdentifier = keyid
[client_ext]
basicConstraints = critical,CA:FALSE
keyUsage = critical,digitalSignature
extendedKeyUsage = clientAuth
authorityKeyIdentifier = keyid
)";

Status OpenSsl(std::vector<std::string> args) {
    args.insert(args.begin(), "openssl");
    CTRL_ASSIGN_OR_RETURN(CommandResult result, RunCommand({.argv = args, .timeout = std::chrono::seconds(30)}));
    if (result.exit_code != 0) {
        std::string joined;
        for (const auto& arg : args)
            joined += " " + arg;
        return InternalError("openssl failed (exit " + std::to_string(result.exit_code) + "):" + joined + "\n" +
                             result.err);
    }
    return OkStatus();
}

// openssl's -subj syntax: /type=value/..., with '/' and '\' in a value escaped.
std::string SubjectPart(std::string_view type, std::string_view value) {
    std::string out = "/" + std::string(type) + "=";
    for (char c : value) {
        if (c == '/' || c == '\\')
            out += '\\';
        out += c;
    }
    return out;
}

std::string RandomSerial() {
    std::random_device random;
    std::uniform_int_distribution<uint64_t> dist(1, UINT64_MAX >> 1);
    char buffer[32];
    snprintf(buffer, sizeof(buffer), "0x%016llx", static_cast<unsigned long long>(dist(random)));
    return buffer;
}

}  // namespace

StatusOr<Pki> Pki::Create(const std::string& dir) {
    Pki pki;
    pki.dir_ = dir;
    pki.config_ = dir + "/openssl.cnf";
    {
        std::ofstream out(pki.config_);
        out << kConfig;
        if (!out.flush())
            return InternalError("writing " + pki.config_);
    }
    pki.ca_ = {.cert = dir + "/ca.crt", .key = dir + "/ca.key"};
    CTRL_RETURN_IF_ERROR(OpenSsl({"req", "-x509", "-new", "-nodes", "-newkey", "ec", "-pkeyopt",
                                  "ec_paramgen_curve:prime256v1", "-keyout", pki.ca_.key, "-out", pki.ca_.cert, "-days",
                                  kDays, "-config", pki.config_, "-extensions", "ca_ext"})
                             .Annotate("creating the CA"));
    return pki;
}

StatusOr<Pki> Pki::Open(const std::string& dir) {
    Pki pki;
    pki.dir_ = dir;
    pki.config_ = dir + "/openssl.cnf";
    pki.ca_ = {.cert = dir + "/ca.crt", .key = dir + "/ca.key"};
    for (const std::string& file : {pki.config_, pki.ca_.cert, pki.ca_.key}) {
        if (!std::ifstream(file))
            return NotFoundError("no CA in " + dir + ": " + file + " is missing");
    }
    return pki;
}

StatusOr<KeyPairFiles> Pki::Issue(const std::string& name, const std::string& subject,
                                  const std::string& extensions) const {
    KeyPairFiles files{.cert = dir_ + "/" + name + ".crt", .key = dir_ + "/" + name + ".key"};
    std::string csr = dir_ + "/" + name + ".csr";
    CTRL_RETURN_IF_ERROR(
        OpenSsl({"genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", files.key}));
    CTRL_RETURN_IF_ERROR(
        OpenSsl({"req", "-new", "-key", files.key, "-subj", subject, "-config", config_, "-out", csr}));
    CTRL_RETURN_IF_ERROR(
        OpenSsl({"x509", "-req", "-in", csr, "-CA", ca_.cert, "-CAkey", ca_.key, "-set_serial", RandomSerial(), "-days",
                 kDays, "-extfile", config_, "-extensions", extensions, "-out", files.cert}));
    return files;
}

StatusOr<KeyPairFiles> Pki::IssueServing(const std::string& name, std::string_view common_name) const {
    auto files = Issue(name, SubjectPart("CN", common_name), "server_ext");
    if (!files.Ok())
        return files.GetStatus().Annotate("issuing the serving certificate " + name);
    return files;
}

StatusOr<KeyPairFiles> Pki::IssueClient(const std::string& name, std::string_view user,
                                        const std::vector<std::string>& groups) const {
    std::string subject;
    for (const auto& group : groups) {
        if (!group.empty())
            subject += SubjectPart("O", group);
    }
    subject += SubjectPart("CN", user);
    auto files = Issue(name, subject, "client_ext");
    if (!files.Ok())
        return files.GetStatus().Annotate("issuing a client certificate for " + std::string(user));
    return files;
}

StatusOr<KeyPairFiles> Pki::CreateKeyPair(const std::string& name) const {
    KeyPairFiles files{.cert = dir_ + "/" + name + ".pub", .key = dir_ + "/" + name + ".key"};
    CTRL_RETURN_IF_ERROR(
        OpenSsl({"genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", files.key}));
    CTRL_RETURN_IF_ERROR(OpenSsl({"pkey", "-in", files.key, "-pubout", "-out", files.cert}));
    return files;
}

}  // namespace ctrl::envtest
