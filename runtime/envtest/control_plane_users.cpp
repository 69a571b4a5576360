#include "ctrl/envtest/control_plane.hpp"

#include <cctype>
#include <fstream>
#include <random>

#include "ctrl/envtest/kubeconfig.hpp"

// The users of a ControlPlane: client-certificate users added while it runs, static-token users
// declared before start.

namespace ctrl::envtest {
namespace {

// A name usable in a file name.
std::string FileNameFor(std::string_view name) {
    std::string out;
    for (char c : name) {
        out += (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.') ? c : '_';
    }
    return out;
}

std::string RandomToken() {
    std::random_device random;
    static constexpr char kHex[] = "0123456789abcdef";
    std::string token;
    for (int i = 0; i < 32; ++i)
        token += kHex[random() % 16];
    return token;
}

}  // namespace

Status ControlPlane::WriteTokenFile() {
    std::ofstream out(work_dir_ + "/tokens.csv", std::ios::trunc);
    std::lock_guard lock(mu_);
    for (const auto& [name, entry] : tokens_) {
        std::string groups;
        for (const auto& group : entry.groups)
            groups += (groups.empty() ? "" : ",") + group;
        out << entry.token << "," << name << "," << name << ",\"" << groups << "\"\n";
    }
    if (!out.flush())
        return InternalError("writing " + work_dir_ + "/tokens.csv");
    return OkStatus();
}

StatusOr<std::string> ControlPlane::AddUser(std::string_view name, const std::vector<std::string>& groups) {
    std::lock_guard lock(mu_);
    if (!running_ || !pki_)
        return BadRequestError("AddUser needs a started control plane");
    std::string file = "user-" + FileNameFor(name) + "-" + std::to_string(++user_serial_);
    CTRL_ASSIGN_OR_RETURN(KeyPairFiles cert, pki_->IssueClient(file, name, groups));
    std::string path = work_dir_ + "/users/" + file + ".kubeconfig";
    CTRL_RETURN_IF_ERROR(WriteKubeconfig(path, {.server = host_,
                                                .ca_file = pki_->CaCert(),
                                                .user = std::string(name),
                                                .client_cert_file = cert.cert,
                                                .client_key_file = cert.key}));
    return path;
}

StatusOr<std::string> ControlPlane::AddTokenUser(std::string_view name, const std::vector<std::string>& groups) {
    std::lock_guard lock(mu_);
    if (running_) {
        return BadRequestError("AddTokenUser(" + std::string(name) +
                               ") after Start: kube-apiserver reads its token file only at start; declare the user "
                               "in ControlPlane::Options::token_users or add it before Start");
    }
    auto bad = [](std::string_view s) { return s.empty() || s.find_first_of(",\"\n\r") != std::string_view::npos; };
    if (bad(name))
        return BadRequestError("a token user name must be non-empty without , \" or newlines");
    for (const auto& group : groups) {
        if (bad(group))
            return BadRequestError("a token user group must be non-empty without , \" or newlines");
    }
    std::string token = RandomToken();
    tokens_[std::string(name)] = {groups, token};
    return token;
}

StatusOr<std::string> ControlPlane::Token(std::string_view name) const {
    std::lock_guard lock(mu_);
    auto it = tokens_.find(name);
    if (it == tokens_.end())
        return NotFoundError("no token user named " + std::string(name));
    return it->second.token;
}

StatusOr<std::string> ControlPlane::TokenUserKubeconfig(std::string_view name) {
    CTRL_ASSIGN_OR_RETURN(std::string token, Token(name));
    std::lock_guard lock(mu_);
    if (!running_)
        return BadRequestError("TokenUserKubeconfig needs a started control plane");
    std::string path = work_dir_ + "/users/token-" + FileNameFor(name) + ".kubeconfig";
    CTRL_RETURN_IF_ERROR(
        WriteKubeconfig(path, {.server = host_, .ca_file = pki_->CaCert(), .user = std::string(name), .token = token}));
    return path;
}

}  // namespace ctrl::envtest
