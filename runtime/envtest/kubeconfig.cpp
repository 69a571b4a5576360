#include "ctrl/envtest/kubeconfig.hpp"

#include <sys/stat.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "ctrl/core/internal/read_file.hpp"
#include "ctrl/core/status_or.hpp"
#include "ctrl/rest/kubeconfig.hpp"

namespace ctrl::envtest {
namespace {

std::string Base64(const std::string& in) {
    static constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    out.reserve((in.size() + 2) / 3 * 4);
    size_t i = 0;
    for (; i + 2 < in.size(); i += 3) {
        uint32_t n = (static_cast<uint8_t>(in[i]) << 16) | (static_cast<uint8_t>(in[i + 1]) << 8) |
                     static_cast<uint8_t>(in[i + 2]);
        for (int shift : {18, 12, 6, 0})
            out += kAlphabet[(n >> shift) & 63];
    }
    if (i < in.size()) {
        uint32_t n = static_cast<uint8_t>(in[i]) << 16;
        if (i + 1 < in.size())
            n |= static_cast<uint8_t>(in[i + 1]) << 8;
        out += kAlphabet[(n >> 18) & 63];
        out += kAlphabet[(n >> 12) & 63];
        out += i + 1 < in.size() ? kAlphabet[(n >> 6) & 63] : '=';
        out += '=';
    }
    return out;
}

// A YAML double-quoted scalar.
std::string Quoted(const std::string& value) {
    std::string out = "\"";
    for (char c : value) {
        if (c == '"' || c == '\\')
            out += '\\';
        out += c;
    }
    return out + "\"";
}

}  // namespace

Status WriteKubeconfig(const std::string& path, const KubeconfigSpec& spec) {
    CTRL_ASSIGN_OR_RETURN(std::string ca, ctrl::internal::ReadFile(spec.ca_file));
    std::ostringstream yaml;
    yaml << "apiVersion: v1\nkind: Config\nclusters:\n- name: ctrl-envtest\n  cluster:\n    server: "
         << Quoted(spec.server) << "\n    certificate-authority-data: " << Base64(ca)
         << "\nusers:\n- name: " << Quoted(spec.user) << "\n  user:\n";
    if (!spec.client_cert_file.empty()) {
        CTRL_ASSIGN_OR_RETURN(std::string cert, ctrl::internal::ReadFile(spec.client_cert_file));
        CTRL_ASSIGN_OR_RETURN(std::string key, ctrl::internal::ReadFile(spec.client_key_file));
        yaml << "    client-certificate-data: " << Base64(cert) << "\n    client-key-data: " << Base64(key) << "\n";
    }
    if (!spec.token.empty())
        yaml << "    token: " << Quoted(spec.token) << "\n";
    yaml << "contexts:\n- name: ctrl-envtest\n  context:\n    cluster: ctrl-envtest\n    user: " << Quoted(spec.user)
         << "\ncurrent-context: ctrl-envtest\n";

    std::string tmp = path + ".tmp";
    {
        std::ofstream out(tmp, std::ios::trunc);
        out << yaml.str();
        if (!out.flush())
            return InternalError("writing " + tmp);
    }
    chmod(tmp.c_str(), 0600);
    if (std::rename(tmp.c_str(), path.c_str()) != 0)
        return InternalError("renaming " + tmp + " to " + path);
    return OkStatus();
}

StatusOr<rest::Config> ConfigFromKubeconfigFile(const std::string& path) {
    rest::KubeconfigOptions options;
    options.explicit_path = path;
    return rest::LoadKubeconfig(options);
}

}  // namespace ctrl::envtest
