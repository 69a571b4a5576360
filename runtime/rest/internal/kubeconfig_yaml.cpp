#include "ctrl/rest/internal/kubeconfig_yaml.hpp"

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <exception>
#include <set>

#include "ctrl/rest/internal/kubeconfig_env.hpp"

namespace ctrl::rest::internal {
namespace {

using JsonWriter = rapidjson::Writer<rapidjson::StringBuffer>;

constexpr std::string_view kExecExtensionName = "client.authentication.k8s.io/exec";

std::string Where(const YAML::Mark& mark) {
    if (mark.is_null())
        return "";
    return " (line " + std::to_string(mark.line + 1) + ", column " + std::to_string(mark.column + 1) + ")";
}

// yaml-cpp's message, printable: it may quote a byte of the input, a NUL or a control byte of a binary
// file, which would cut or garble the line the message is printed on. Such bytes become \xNN.
std::string Printable(const std::string& message) {
    std::string out;
    for (const char c : message) {
        const auto byte = static_cast<unsigned char>(c);
        if (byte >= 0x20 && byte != 0x7f) {
            out += c;
        } else {
            static constexpr char kHex[] = "0123456789abcdef";
            out += "\\x";
            out += kHex[byte >> 4];
            out += kHex[byte & 0xf];
        }
    }
    return out;
}

bool IsPlain(const YAML::Node& node) {
    return node.Tag() != "!";
}

bool IsNullScalar(const YAML::Node& node) {
    if (!node.IsDefined() || node.IsNull())
        return true;
    if (!node.IsScalar() || !IsPlain(node))
        return false;
    const std::string& value = node.Scalar();
    return value.empty() || value == "~" || value == "null" || value == "Null" || value == "NULL";
}

std::optional<bool> PlainBool(const YAML::Node& node) {
    static const std::set<std::string> kTrue = {"true", "True", "TRUE", "yes", "Yes", "YES", "on", "On", "ON"};
    static const std::set<std::string> kFalse = {"false", "False", "FALSE", "no", "No", "NO", "off", "Off", "OFF"};
    if (!node.IsScalar() || !IsPlain(node))
        return std::nullopt;
    if (kTrue.count(node.Scalar()) > 0)
        return true;
    if (kFalse.count(node.Scalar()) > 0)
        return false;
    return std::nullopt;
}

// A JSON number exactly as the JSON grammar spells one.
bool IsJsonNumber(std::string_view text) {
    std::size_t i = 0;
    auto digits = [&] {
        const std::size_t start = i;
        while (i < text.size() && text[i] >= '0' && text[i] <= '9')
            ++i;
        return i > start;
    };
    if (i < text.size() && text[i] == '-')
        ++i;
    if (i < text.size() && text[i] == '0') {
        ++i;
    } else if (!digits()) {
        return false;
    }
    if (i < text.size() && text[i] == '.') {
        ++i;
        if (!digits())
            return false;
    }
    if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
        ++i;
        if (i < text.size() && (text[i] == '+' || text[i] == '-'))
            ++i;
        if (!digits())
            return false;
    }
    return i == text.size();
}

// YAML to JSON with the scalar typing of Go's YAML decoder: plain null/bool/number scalars keep their
// type, everything else is a string.
void WriteJson(const YAML::Node& node, JsonWriter& writer) {
    if (node.IsMap()) {
        writer.StartObject();
        for (auto it = node.begin(); it != node.end(); ++it) {
            const std::string key = it->first.IsScalar() ? it->first.Scalar() : "";
            writer.Key(key.c_str(), static_cast<rapidjson::SizeType>(key.size()));
            WriteJson(it->second, writer);
        }
        writer.EndObject();
    } else if (node.IsSequence()) {
        writer.StartArray();
        for (const YAML::Node& item : node)
            WriteJson(item, writer);
        writer.EndArray();
    } else if (IsNullScalar(node)) {
        writer.Null();
    } else if (auto flag = PlainBool(node)) {
        writer.Bool(*flag);
    } else if (IsPlain(node) && IsJsonNumber(node.Scalar())) {
        writer.RawValue(node.Scalar().c_str(), node.Scalar().size(), rapidjson::kNumberType);
    } else {
        writer.String(node.Scalar().c_str(), static_cast<rapidjson::SizeType>(node.Scalar().size()));
    }
}

// Reads typed fields out of YAML maps; every error names the file, the field path and the position.
class Reader {
  public:
    explicit Reader(std::string path) : path_(std::move(path)) {}

    Status Error(const YAML::Node& node, const std::string& field, std::string_view problem) const {
        return BadRequestError("kubeconfig " + path_ + ": " + field + ": " + std::string(problem) + Where(node.Mark()));
    }

    // The value under key; undefined when the map lacks it.
    static YAML::Node Get(const YAML::Node& map, const char* key) {
        if (!map.IsMap())
            return YAML::Node(YAML::NodeType::Undefined);
        return map[key];
    }

    StatusOr<std::string> String(const YAML::Node& map, const char* key, const std::string& parent) const {
        const YAML::Node node = Get(map, key);
        if (IsNullScalar(node))
            return std::string();
        if (!node.IsScalar())
            return Error(node, Join(parent, key), "expected a string");
        return node.Scalar();
    }

    StatusOr<bool> Bool(const YAML::Node& map, const char* key, const std::string& parent) const {
        const YAML::Node node = Get(map, key);
        if (IsNullScalar(node))
            return false;
        auto flag = PlainBool(node);
        if (!flag)
            return Error(node, Join(parent, key), "expected true or false");
        return *flag;
    }

    // A map (or null: an empty map) under key.
    StatusOr<YAML::Node> Map(const YAML::Node& map, const char* key, const std::string& parent) const {
        const YAML::Node node = Get(map, key);
        if (IsNullScalar(node))
            return YAML::Node(YAML::NodeType::Map);
        if (!node.IsMap())
            return Error(node, Join(parent, key), "expected a map");
        return node;
    }

    // A list (or null: an empty list) under key.
    StatusOr<YAML::Node> List(const YAML::Node& map, const char* key, const std::string& parent) const {
        const YAML::Node node = Get(map, key);
        if (IsNullScalar(node))
            return YAML::Node(YAML::NodeType::Sequence);
        if (!node.IsSequence())
            return Error(node, Join(parent, key), "expected a list");
        return node;
    }

    static std::string Join(const std::string& parent, std::string_view key) {
        return parent.empty() ? std::string(key) : parent + "." + std::string(key);
    }

    const std::string& path() const { return path_; }

  private:
    std::string path_;
};

StatusOr<KubeconfigCluster> ParseCluster(const Reader& r, const YAML::Node& node, const std::string& at) {
    KubeconfigCluster cluster;
    CTRL_ASSIGN_OR_RETURN(cluster.server, r.String(node, "server", at));
    CTRL_ASSIGN_OR_RETURN(cluster.certificate_authority, r.String(node, "certificate-authority", at));
    CTRL_ASSIGN_OR_RETURN(cluster.certificate_authority_data, r.String(node, "certificate-authority-data", at));
    CTRL_ASSIGN_OR_RETURN(cluster.insecure_skip_tls_verify, r.Bool(node, "insecure-skip-tls-verify", at));
    CTRL_ASSIGN_OR_RETURN(cluster.tls_server_name, r.String(node, "tls-server-name", at));
    CTRL_ASSIGN_OR_RETURN(cluster.proxy_url, r.String(node, "proxy-url", at));
    CTRL_ASSIGN_OR_RETURN(const YAML::Node extensions, r.List(node, "extensions", at));
    for (std::size_t i = 0; i < extensions.size(); ++i) {
        const std::string item_at = Reader::Join(at, "extensions[" + std::to_string(i) + "]");
        CTRL_ASSIGN_OR_RETURN(std::string name, r.String(extensions[i], "name", item_at));
        if (name != kExecExtensionName)
            continue;
        rapidjson::StringBuffer buffer;
        JsonWriter writer(buffer);
        WriteJson(Reader::Get(extensions[i], "extension"), writer);
        cluster.exec_extension_json.assign(buffer.GetString(), buffer.GetSize());
    }
    return cluster;
}

StatusOr<KubeconfigExec> ParseExec(const Reader& r, const YAML::Node& node, const std::string& at) {
    KubeconfigExec exec;
    CTRL_ASSIGN_OR_RETURN(exec.api_version, r.String(node, "apiVersion", at));
    CTRL_ASSIGN_OR_RETURN(exec.command, r.String(node, "command", at));
    CTRL_ASSIGN_OR_RETURN(exec.install_hint, r.String(node, "installHint", at));
    CTRL_ASSIGN_OR_RETURN(exec.provide_cluster_info, r.Bool(node, "provideClusterInfo", at));
    CTRL_ASSIGN_OR_RETURN(exec.interactive_mode, r.String(node, "interactiveMode", at));
    CTRL_ASSIGN_OR_RETURN(const YAML::Node args, r.List(node, "args", at));
    for (std::size_t i = 0; i < args.size(); ++i) {
        if (!args[i].IsScalar())
            return r.Error(args[i], Reader::Join(at, "args[" + std::to_string(i) + "]"), "expected a string");
        exec.args.push_back(args[i].Scalar());
    }
    CTRL_ASSIGN_OR_RETURN(const YAML::Node env, r.List(node, "env", at));
    for (std::size_t i = 0; i < env.size(); ++i) {
        const std::string item_at = Reader::Join(at, "env[" + std::to_string(i) + "]");
        if (!env[i].IsMap())
            return r.Error(env[i], item_at, "expected a map with name and value");
        CTRL_ASSIGN_OR_RETURN(std::string name, r.String(env[i], "name", item_at));
        CTRL_ASSIGN_OR_RETURN(std::string value, r.String(env[i], "value", item_at));
        if (name.empty())
            return r.Error(env[i], item_at, "missing name");
        exec.env.emplace_back(std::move(name), std::move(value));
    }
    return exec;
}

StatusOr<KubeconfigUser> ParseUser(const Reader& r, const YAML::Node& node, const std::string& at) {
    KubeconfigUser user;
    CTRL_ASSIGN_OR_RETURN(user.client_certificate, r.String(node, "client-certificate", at));
    CTRL_ASSIGN_OR_RETURN(user.client_certificate_data, r.String(node, "client-certificate-data", at));
    CTRL_ASSIGN_OR_RETURN(user.client_key, r.String(node, "client-key", at));
    CTRL_ASSIGN_OR_RETURN(user.client_key_data, r.String(node, "client-key-data", at));
    CTRL_ASSIGN_OR_RETURN(user.token, r.String(node, "token", at));
    CTRL_ASSIGN_OR_RETURN(user.token_file, r.String(node, "tokenFile", at));
    CTRL_ASSIGN_OR_RETURN(user.username, r.String(node, "username", at));
    CTRL_ASSIGN_OR_RETURN(user.password, r.String(node, "password", at));
    for (const char* key : {"as", "as-uid", "as-groups", "as-user-extra"}) {
        if (!IsNullScalar(Reader::Get(node, key)))
            user.impersonates = true;
    }
    if (!IsNullScalar(Reader::Get(node, "auth-provider"))) {
        CTRL_ASSIGN_OR_RETURN(const YAML::Node provider, r.Map(node, "auth-provider", at));
        CTRL_ASSIGN_OR_RETURN(user.auth_provider, r.String(provider, "name", Reader::Join(at, "auth-provider")));
        if (user.auth_provider.empty())
            user.auth_provider = "(unnamed)";
    }
    if (!IsNullScalar(Reader::Get(node, "exec"))) {
        CTRL_ASSIGN_OR_RETURN(const YAML::Node exec, r.Map(node, "exec", at));
        CTRL_ASSIGN_OR_RETURN(user.exec, ParseExec(r, exec, Reader::Join(at, "exec")));
    }
    return user;
}

StatusOr<KubeconfigContext> ParseContext(const Reader& r, const YAML::Node& node, const std::string& at) {
    KubeconfigContext context;
    CTRL_ASSIGN_OR_RETURN(context.cluster, r.String(node, "cluster", at));
    CTRL_ASSIGN_OR_RETURN(context.user, r.String(node, "user", at));
    CTRL_ASSIGN_OR_RETURN(context.namespace_name, r.String(node, "namespace", at));
    return context;
}

// Reads the list under list_key: entries {name: ..., <entry_key>: {...}} parsed by parse.
template <typename T, typename ParseFn>
Status ParseNamedList(const Reader& r, const YAML::Node& root, const char* list_key, const char* entry_key,
                      ParseFn parse, std::vector<Named<T>>& out) {
    CTRL_ASSIGN_OR_RETURN(const YAML::Node list, r.List(root, list_key, ""));
    for (std::size_t i = 0; i < list.size(); ++i) {
        const YAML::Node item = list[i];
        const std::string at = std::string(list_key) + "[" + std::to_string(i) + "]";
        if (!item.IsMap())
            return r.Error(item, at, "expected a map with name and " + std::string(entry_key));
        CTRL_ASSIGN_OR_RETURN(std::string name, r.String(item, "name", at));
        if (name.empty())
            return r.Error(item, at, "missing name");
        const bool duplicate =
            std::any_of(out.begin(), out.end(), [&](const Named<T>& entry) { return entry.name == name; });
        if (duplicate)
            return r.Error(item, at, "duplicate name \"" + name + "\"");
        CTRL_ASSIGN_OR_RETURN(const YAML::Node body, r.Map(item, entry_key, at));
        CTRL_ASSIGN_OR_RETURN(T value, parse(r, body, Reader::Join(at, entry_key)));
        out.push_back(Named<T>{std::move(name), r.path(), std::move(value)});
    }
    return OkStatus();
}

StatusOr<KubeconfigFile> ParseRoot(const Reader& r, const YAML::Node& root, const std::string& path) {
    KubeconfigFile file;
    file.path = path;
    if (IsNullScalar(root))
        return file;
    if (!root.IsMap())
        return BadRequestError("kubeconfig " + path + ": expected a map at the top level" + Where(root.Mark()));
    CTRL_ASSIGN_OR_RETURN(file.current_context, r.String(root, "current-context", ""));
    CTRL_RETURN_IF_ERROR(ParseNamedList(r, root, "clusters", "cluster", ParseCluster, file.clusters));
    CTRL_RETURN_IF_ERROR(ParseNamedList(r, root, "users", "user", ParseUser, file.users));
    CTRL_RETURN_IF_ERROR(ParseNamedList(r, root, "contexts", "context", ParseContext, file.contexts));
    return file;
}

}  // namespace

StatusOr<KubeconfigFile> ParseKubeconfig(std::string_view text, const std::string& path) {
    if (TrimSpace(text).empty()) {
        KubeconfigFile empty;
        empty.path = path;
        return empty;
    }
    try {
        const YAML::Node root = YAML::Load(std::string(text));
        return ParseRoot(Reader(path), root, path);
    } catch (const YAML::Exception& e) {
        return BadRequestError("kubeconfig " + path + ": invalid YAML: " + Printable(e.msg) + Where(e.mark));
    } catch (const std::exception& e) {
        return BadRequestError("kubeconfig " + path + ": " + e.what());
    }
}

}  // namespace ctrl::rest::internal
