#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "ctrl/api/pod.hpp"
#include "ctrl/api/timestamp.hpp"

namespace ctrl::podlister {

// The table's header: kubectl get pods -A's columns, and the node (-o wide's NODE).
const std::vector<std::string>& PodTableHeader();

// One row per pod (NAMESPACE NAME READY STATUS RESTARTS AGE NODE), computed by kubectl's rules
// (api::PodTableRowFor) with ages measured at now.
std::vector<std::string> PodTableCells(api::PodView pod, api::Timestamp now);

// Writes the pods as kubectl lays out a table (TableWriter), with the header unless no_headers.
// Nothing at all, like kubectl's "No resources found" case, when there are no pods; the caller
// says so on stderr.
void WritePodTable(std::ostream& out, const api::PodList& pods, api::Timestamp now, bool no_headers = false);

// Writes the pods as `kubectl get pods -A -o json` does: a v1 List
// {"apiVersion": "v1", "items": [...], "kind": "List", "metadata": {"resourceVersion": ""}},
// indented by 4, each item with apiVersion and kind and without metadata.managedFields (kubectl
// hides them unless --show-managed-fields).
void WritePodListJson(std::ostream& out, const api::PodList& pods);

}  // namespace ctrl::podlister
