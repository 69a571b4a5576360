#include "ctrl/rest/internal/exec_json.hpp"

#include <rapidjson/document.h>
#include <rapidjson/error/en.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "ctrl/core/base64.hpp"
#include "ctrl/core/rfc3339.hpp"

namespace ctrl::rest::internal {
namespace {

using JsonWriter = rapidjson::Writer<rapidjson::StringBuffer>;

void WriteString(JsonWriter& writer, std::string_view text) {
    writer.String(text.data(), static_cast<rapidjson::SizeType>(text.size()));
}

const rapidjson::Value* Member(const rapidjson::Value& object, const char* name) {
    if (!object.IsObject())
        return nullptr;
    auto it = object.FindMember(name);
    return it == object.MemberEnd() || it->value.IsNull() ? nullptr : &it->value;
}

StatusOr<std::string> StringMember(const rapidjson::Value& object, const char* name, const std::string& at) {
    const rapidjson::Value* value = Member(object, name);
    if (value == nullptr)
        return std::string();
    if (!value->IsString())
        return BadRequestError(at + name + " is not a string");
    return std::string(value->GetString(), value->GetStringLength());
}

}  // namespace

std::string BuildExecInfo(const Config& config, bool interactive) {
    const ExecConfig& exec = *config.exec;
    rapidjson::StringBuffer buffer;
    JsonWriter writer(buffer);
    writer.StartObject();
    writer.Key("apiVersion");
    WriteString(writer, exec.api_version);
    writer.Key("kind");
    writer.String("ExecCredential");
    writer.Key("spec");
    writer.StartObject();
    if (exec.provide_cluster_info) {
        writer.Key("cluster");
        writer.StartObject();
        writer.Key("server");
        WriteString(writer, config.host);
        if (!config.tls.server_name.empty()) {
            writer.Key("tls-server-name");
            WriteString(writer, config.tls.server_name);
        }
        if (config.tls.insecure_skip_verify) {
            writer.Key("insecure-skip-tls-verify");
            writer.Bool(true);
        }
        if (!config.tls.ca_pem.empty()) {
            writer.Key("certificate-authority-data");
            WriteString(writer, Base64Encode(config.tls.ca_pem));
        }
        if (!exec.cluster_config_json.empty()) {
            writer.Key("config");
            writer.RawValue(exec.cluster_config_json.data(), exec.cluster_config_json.size(), rapidjson::kObjectType);
        }
        writer.EndObject();
    }
    writer.Key("interactive");
    writer.Bool(interactive);
    writer.EndObject();
    writer.EndObject();
    return std::string(buffer.GetString(), buffer.GetSize());
}

StatusOr<ExecCredential> ParseExecCredential(std::string_view output, std::string_view api_version) {
    rapidjson::Document document;
    document.Parse(output.data(), output.size());
    if (document.HasParseError())
        return BadRequestError(
            "its output is not JSON: " + std::string(rapidjson::GetParseError_En(document.GetParseError())) +
            " at offset " + std::to_string(document.GetErrorOffset()));
    if (!document.IsObject())
        return BadRequestError("its output is not a JSON object");
    CTRL_ASSIGN_OR_RETURN(std::string returned_version, StringMember(document, "apiVersion", ""));
    if (returned_version != api_version)
        return BadRequestError("it is configured to use API version " + std::string(api_version) +
                               ", plugin returned version \"" + returned_version + "\"");
    CTRL_ASSIGN_OR_RETURN(std::string kind, StringMember(document, "kind", ""));
    if (kind != "ExecCredential")
        return BadRequestError("it returned kind \"" + kind + "\", not ExecCredential");
    const rapidjson::Value* status = Member(document, "status");
    if (status == nullptr)
        return BadRequestError("it didn't return a status field");
    if (!status->IsObject())
        return BadRequestError("its status is not an object");

    ExecCredential credential;
    CTRL_ASSIGN_OR_RETURN(credential.token, StringMember(*status, "token", "status."));
    CTRL_ASSIGN_OR_RETURN(credential.client_certificate_pem, StringMember(*status, "clientCertificateData", "status."));
    CTRL_ASSIGN_OR_RETURN(credential.client_key_pem, StringMember(*status, "clientKeyData", "status."));
    if (credential.token.empty() && credential.client_certificate_pem.empty() && credential.client_key_pem.empty())
        return BadRequestError("it didn't return a token or cert/key pair");
    if (credential.client_certificate_pem.empty() != credential.client_key_pem.empty())
        return BadRequestError("it returned only certificate or key, not both");
    CTRL_ASSIGN_OR_RETURN(std::string expiration, StringMember(*status, "expirationTimestamp", "status."));
    if (!expiration.empty()) {
        auto parsed = ParseRfc3339(expiration);
        if (!parsed.Ok())
            return BadRequestError("status.expirationTimestamp: " + parsed.GetStatus().Message());
        credential.expiration = *parsed;
    }
    return credential;
}

}  // namespace ctrl::rest::internal
