#include "ctrl/rest/internal/exec_json.hpp"

#include <rapidjson/document.h>
#include <rapidjson/error/en.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <cstdint>

#include "ctrl/core/base64.hpp"

namespace ctrl::rest::internal {
namespace {

using JsonWriter = rapidjson::Writer<rapidjson::StringBuffer>;

void WriteString(JsonWriter& writer, std::string_view text) {
    writer.String(text.data(), static_cast<rapidjson::SizeType>(text.size()));
}

// Days since 1970-01-01 of a proleptic Gregorian date.
int64_t DaysFromCivil(int64_t year, unsigned month, unsigned day) {
    year -= month <= 2 ? 1 : 0;
    const int64_t era = (year >= 0 ? year : year - 399) / 400;
    const auto year_of_era = static_cast<unsigned>(year - era * 400);
    const unsigned day_of_year = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1;
    const unsigned day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    return era * 146097 + static_cast<int64_t>(day_of_era) - 719468;
}

// Reads `count` digits at text[pos] into value.
bool Digits(std::string_view text, std::size_t pos, std::size_t count, int& value) {
    if (pos + count > text.size())
        return false;
    value = 0;
    for (std::size_t i = pos; i < pos + count; ++i) {
        if (text[i] < '0' || text[i] > '9')
            return false;
        value = value * 10 + (text[i] - '0');
    }
    return true;
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

StatusOr<std::chrono::system_clock::time_point> ParseRfc3339(std::string_view text) {
    int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
    const bool shape = Digits(text, 0, 4, year) && text.size() > 4 && text[4] == '-' && Digits(text, 5, 2, month) &&
                       text.size() > 7 && text[7] == '-' && Digits(text, 8, 2, day) && text.size() > 10 &&
                       (text[10] == 'T' || text[10] == 't') && Digits(text, 11, 2, hour) && text.size() > 13 &&
                       text[13] == ':' && Digits(text, 14, 2, minute) && text.size() > 16 && text[16] == ':' &&
                       Digits(text, 17, 2, second);
    const Status invalid = BadRequestError("invalid RFC 3339 time \"" + std::string(text) + "\"");
    if (!shape || month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60)
        return invalid;
    std::size_t pos = 19;
    std::chrono::nanoseconds fraction{0};
    if (pos < text.size() && text[pos] == '.') {
        int64_t scale = 100000000;
        ++pos;
        const std::size_t start = pos;
        for (; pos < text.size() && text[pos] >= '0' && text[pos] <= '9'; ++pos) {
            fraction += std::chrono::nanoseconds((text[pos] - '0') * scale);
            scale /= 10;
        }
        if (pos == start)
            return invalid;
    }
    std::chrono::seconds offset{0};
    if (pos < text.size() && (text[pos] == 'Z' || text[pos] == 'z')) {
        ++pos;
    } else if (pos < text.size() && (text[pos] == '+' || text[pos] == '-')) {
        int offset_hours = 0, offset_minutes = 0;
        if (!Digits(text, pos + 1, 2, offset_hours) || pos + 3 >= text.size() || text[pos + 3] != ':' ||
            !Digits(text, pos + 4, 2, offset_minutes))
            return invalid;
        offset = std::chrono::hours(offset_hours) + std::chrono::minutes(offset_minutes);
        if (text[pos] == '-')
            offset = -offset;
        pos += 6;
    } else {
        return invalid;
    }
    if (pos != text.size())
        return invalid;
    const int64_t days = DaysFromCivil(year, static_cast<unsigned>(month), static_cast<unsigned>(day));
    const std::chrono::seconds since_epoch = std::chrono::hours(24 * days) + std::chrono::hours(hour) +
                                             std::chrono::minutes(minute) + std::chrono::seconds(second) - offset;
    // The clock counts nanoseconds in 64 bits: years 1678 to 2262. Beyond, the conversion would
    // overflow (found by the kubeconfig fuzz target).
    constexpr std::chrono::seconds kClockRange =
        std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::duration::max()) -
        std::chrono::seconds(1);
    if (since_epoch > kClockRange || since_epoch < -kClockRange)
        return BadRequestError("RFC 3339 time \"" + std::string(text) +
                               "\" is out of the supported range (years 1678-2262)");
    return std::chrono::system_clock::time_point(
        std::chrono::duration_cast<std::chrono::system_clock::duration>(since_epoch + fraction));
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
