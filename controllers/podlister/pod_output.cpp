#include "controllers/podlister/pod_output.hpp"

#include "controllers/podlister/json_indent.hpp"
#include "controllers/podlister/pod_table.hpp"
#include "controllers/podlister/table_writer.hpp"

namespace ctrl::podlister {

const std::vector<std::string>& PodTableHeader() {
    static const std::vector<std::string> kHeader = {"NAMESPACE", "NAME", "READY", "STATUS", "RESTARTS", "AGE", "NODE"};
    return kHeader;
}

std::vector<std::string> PodTableCells(api::PodView pod, api::Timestamp now) {
    PodTableRow row = PodTableRowFor(pod, now);
    const Object& object = pod.AsObject();
    return {std::string(object.Namespace()), std::string(object.Name()), std::move(row.ready), std::move(row.status),
            std::move(row.restarts),         std::move(row.age),         std::move(row.node)};
}

void WritePodTable(std::ostream& out, const api::PodList& pods, api::Timestamp now, bool no_headers) {
    if (pods.Items().empty())
        return;
    TableWriter table;
    if (!no_headers)
        table.AddRow(PodTableHeader());
    for (api::PodView pod : pods.Views())
        table.AddRow(PodTableCells(pod, now));
    table.Write(out);
}

void WritePodListJson(std::ostream& out, const api::PodList& pods) {
    out << "{\n    \"apiVersion\": \"v1\",\n    \"items\": [";
    bool first = true;
    for (const Object& item : pods.Items()) {
        Object copy = item.DeepCopy();
        copy.RemoveManagedFields();
        if (copy.ApiVersion().empty())
            copy.SetApiVersion("v1");
        if (copy.Kind().empty())
            copy.SetKind("Pod");
        out << (first ? "\n        " : ",\n        ") << IndentJson(copy.ToJson(), 4, 2);
        first = false;
    }
    out << (first ? "],\n" : "\n    ],\n");
    out << "    \"kind\": \"List\",\n    \"metadata\": {\n        \"resourceVersion\": \"\"\n    }\n}\n";
}

}  // namespace ctrl::podlister
