// The invalid cases of the real-world CRDs: each breaks one rule of the CRD's schema (or, where
// marked as a gap, a rule ctrl-gen does not check) in an otherwise valid sample.
#include "test/unit/gen/realworld/realworld_cases.hpp"

#include <rapidjson/document.h>
#include <rapidjson/pointer.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <algorithm>
#include <filesystem>

#include "test/support/read_file.hpp"

namespace ctrl::realworld {

std::string Sample(std::string_view name) {
    return ctrl::testing::ReadSample(std::filesystem::path(CTRL_REALWORLD_DIR) / "samples" /
                                     (std::string(name) + ".json"));
}

const std::vector<InvalidCase>& InvalidCases() {
    static const std::vector<InvalidCase> cases{
        {"httproute",
         "integer enum: a redirect's statusCode 999",
         "/spec/rules/1/filters/0/requestRedirect/statusCode",
         "999",
         {"spec.rules[1].filters[0].requestRedirect.statusCode"},
         ""},
        {"httproute",
         "minimum: a backend weight of -1",
         "/spec/rules/0/backendRefs/0/weight",
         "-1",
         {"spec.rules[0].backendRefs[0].weight"},
         ""},
        {"httproute",
         "pattern: a hostname with capitals and an underscore",
         "/spec/hostnames/0",
         R"("Shop_Example")",
         {"spec.hostnames[0]"},
         ""},
        {"httproute",
         "CEL: a path prefix with //",
         "/spec/rules/0/matches/0/path/value",
         R"("/api//v1")",
         {"spec.rules[0].matches[0].path"},
         ""},
        {"httproute",
         "CEL: a filter typed URLRewrite that holds a requestHeaderModifier",
         "/spec/rules/0/filters/0/type",
         R"("URLRewrite")",
         {"spec.rules[0].filters[0]"},
         ""},
        {"httproute",
         "CEL (duration): a backend timeout longer than the request's",
         "/spec/rules/0/timeouts/backendRequest",
         R"("20s")",
         {"spec.rules[0].timeouts"},
         ""},
        {"gateway",
         "maximum: a listener on port 70000",
         "/spec/listeners/0/port",
         "70000",
         {"spec.listeners[0].port"},
         ""},
        {"gateway",
         "enum: routes allowed from \"Everyone\"",
         "/spec/listeners/0/allowedRoutes/namespaces/from",
         R"("Everyone")",
         {"spec.listeners[0].allowedRoutes.namespaces.from"},
         ""},
        {"gateway", "required: no gatewayClassName", "/spec/gatewayClassName", "", {"spec.gatewayClassName"}, ""},
        {"gateway",
         "CEL: an HTTP listener with TLS",
         "/spec/listeners/0/tls",
         R"({"mode":"Terminate","certificateRefs":[{"name":"web-tls"}]})",
         {"spec.listeners"},
         ""},
        {"gateway",
         "CEL and list-map: two listeners named http",
         "/spec/listeners/1/name",
         R"("http")",
         {"spec.listeners", "spec.listeners[1]"},
         ""},
        {"certificate",
         "enum: a DSA private key",
         "/spec/privateKey/algorithm",
         R"("DSA")",
         {"spec.privateKey.algorithm"},
         ""},
        {"certificate",
         "required: an issuerRef without a name",
         "/spec/issuerRef/name",
         "",
         {"spec.issuerRef.name"},
         ""},
        {"certificate",
         "enum of array items: usage \"teleport\"",
         "/spec/usages/1",
         R"("teleport")",
         {"spec.usages[1]"},
         ""},
        {"prometheus",
         "Quantity pattern: a container's CPU limit \"2 cores\"",
         "/spec/containers/0/resources/limits/cpu",
         R"("2 cores")",
         {"spec.containers[0].resources.limits.cpu"},
         ""},
        {"prometheus", "enum: logLevel \"verbose\"", "/spec/logLevel", R"("verbose")", {"spec.logLevel"}, ""},
        {"prometheus",
         "required: a container without a name",
         "/spec/containers/1/name",
         "",
         {"spec.containers[1].name"},
         ""},
        {"prometheus",
         "pattern: retentionSize \"40 gigabytes\"",
         "/spec/retentionSize",
         R"("40 gigabytes")",
         {"spec.retentionSize"},
         ""},
        {"prometheus", "type: replicas \"two\"", "/spec/replicas", R"("two")", {"spec.replicas"}, ""},
        {"prometheus",
         "list-map: a second env entry named GOMAXPROCS",
         "/spec/containers/0/env/1/name",
         R"("GOMAXPROCS")",
         {"spec.containers[0].env[1]"},
         ""},
        {"prometheus", "format int32: replicas 3000000000", "/spec/replicas", "3000000000", {"spec.replicas"}, ""},
        {"prometheus",
         "format date-time: a PVC template condition's lastProbeTime \"yesterday\"",
         "/spec/storage/volumeClaimTemplate/status",
         R"({"conditions":[{"type":"Resizing","status":"True","lastProbeTime":"yesterday"}]})",
         {"spec.storage.volumeClaimTemplate.status.conditions[0].lastProbeTime"},
         ""},
        {"alertmanagerconfig",
         "pattern: groupWait \"soon\"",
         "/spec/route/groupWait",
         R"("soon")",
         {"spec.route.groupWait"},
         ""},
        {"alertmanagerconfig",
         "maximum: day of month 40",
         "/spec/timeIntervals/0/timeIntervals/0/daysOfMonth/0/start",
         "40",
         {"spec.timeIntervals[0].timeIntervals[0].daysOfMonth[0].start"},
         ""},
        {"alertmanagerconfig",
         "(?i) pattern: month \"Janvier\"",
         "/spec/timeIntervals/0/timeIntervals/0/months/0",
         R"("Janvier")",
         {"spec.timeIntervals[0].timeIntervals[0].months[0]"},
         ""},
        {"alertmanagerconfig",
         "pattern with (?i) in a group: a weekday in capitals is fine but \"MONDAY\" is not (\"day\" is "
         "case-sensitive)",
         "/spec/timeIntervals/0/timeIntervals/0/weekdays/0",
         R"("MONDAY")",
         {"spec.timeIntervals[0].timeIntervals[0].weekdays[0]"},
         ""},
        {"servicemonitor",
         "enum: scheme \"ftp\"",
         "/spec/endpoints/0/scheme",
         R"("ftp")",
         {"spec.endpoints[0].scheme"},
         ""},
        {"servicemonitor",
         "enum: relabeling action \"mangle\"",
         "/spec/endpoints/0/relabelings/0/action",
         R"("mangle")",
         {"spec.endpoints[0].relabelings[0].action"},
         ""},
        {"scaledobject", "minItems: no triggers", "/spec/triggers", "[]", {"spec.triggers"}, ""},
        {"scaledobject", "minimum: pollingInterval 0", "/spec/pollingInterval", "0", {"spec.pollingInterval"}, ""},
        {"scaledobject", "CEL: minReplicaCount above maxReplicaCount", "/spec/minReplicaCount", "30", {"spec"}, ""},
        {"kustomization",
         "pattern: interval \"10 minutes\"",
         "/spec/interval",
         R"("10 minutes")",
         {"spec.interval"},
         ""},
        {"kustomization",
         "enum: a HelmRepository source",
         "/spec/sourceRef/kind",
         R"("HelmRepository")",
         {"spec.sourceRef.kind"},
         ""},
        {"kustomization", "required: no prune", "/spec/prune", "", {"spec.prune"}, ""},
        {"externalsecret",
         "enum: creationPolicy \"Sometimes\"",
         "/spec/target/creationPolicy",
         R"("Sometimes")",
         {"spec.target.creationPolicy"},
         ""},
        {"externalsecret",
         "pattern: secretKey \"db user\"",
         "/spec/data/0/secretKey",
         R"("db user")",
         {"spec.data[0].secretKey"},
         ""},
        {"schedule",
         "enum: a hook's onError \"Ignore\"",
         "/spec/template/hooks/resources/0/pre/0/exec/onError",
         R"("Ignore")",
         {"spec.template.hooks.resources[0].pre[0].exec.onError"},
         ""},
        {"schedule", "required: no schedule", "/spec/schedule", "", {"spec.schedule"}, ""},
        {"application",
         "type: retry limit \"5\"",
         "/spec/syncPolicy/retry/limit",
         R"("5")",
         {"spec.syncPolicy.retry.limit"},
         ""},
        {"application", "required: no destination", "/spec/destination", "", {"spec.destination"}, ""},
    };
    return cases;
}

const std::vector<AcceptedCase>& AcceptedCases() {
    static const std::vector<AcceptedCase> cases{
        {"prometheus", "an integer written 2.0", "/spec/replicas", "2.0"},
        {"prometheus", "int32's largest value", "/spec/replicas", "2147483647"},
        {"prometheus", "an RFC 3339 time with a fraction and an offset", "/spec/storage/volumeClaimTemplate/status",
         R"({"conditions":[{"type":"Resizing","status":"True","lastProbeTime":"2026-12-05T08:00:00.5+01:00"}]})"},
        {"httproute", "an integer enum value written 301.0", "/spec/rules/1/filters/0/requestRedirect/statusCode",
         "301.0"},
        {"alertmanagerconfig", "(?i) in a group: weekdays in capitals",
         "/spec/timeIntervals/0/timeIntervals/0/weekdays/0", R"("MONday:friday")"},
        {"alertmanagerconfig", "(?i) in a group: a month in capitals", "/spec/timeIntervals/0/timeIntervals/0/months/0",
         R"("JANUARY:March")"},
        {"httproute", "CEL: a path prefix with single slashes", "/spec/rules/0/matches/0/path/value", R"("/api/v1/")"},
        {"scaledobject", "CEL: minReplicaCount equal to maxReplicaCount", "/spec/minReplicaCount", "20"},
    };
    return cases;
}

std::string WithValue(const std::string& json, const std::string& pointer_text, const std::string& value_json) {
    rapidjson::Document document;
    document.Parse(json.c_str());
    const rapidjson::Pointer pointer(pointer_text.c_str());
    if (value_json.empty()) {
        pointer.Erase(document);
    } else {
        rapidjson::Document value(&document.GetAllocator());
        value.Parse(value_json.c_str());
        pointer.Set(document, value);
    }
    rapidjson::StringBuffer buffer;
    rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
    document.Accept(writer);
    return buffer.GetString();
}

const RealCrd* FindCrd(std::string_view name) {
    for (const RealCrd& crd : RealCrds()) {
        if (crd.name == name)
            return &crd;
    }
    return nullptr;
}

std::string AcceptedObject(const AcceptedCase& accepted) {
    return WithValue(Sample(accepted.crd), accepted.pointer, accepted.value);
}

std::string InvalidObject(const InvalidCase& invalid) {
    return WithValue(Sample(invalid.crd), invalid.pointer, invalid.value);
}

std::vector<std::string> CauseFields(const Status& status) {
    std::vector<std::string> fields;
    for (const StatusCause& cause : status.Causes())
        fields.push_back(cause.field);
    std::sort(fields.begin(), fields.end());
    fields.erase(std::unique(fields.begin(), fields.end()), fields.end());
    return fields;
}

}  // namespace ctrl::realworld
