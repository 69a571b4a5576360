#pragma once

// Pod writes against the real API server for the cache's integration tests: namespaces, pods of
// realistic size, label patches, deletes, many at once.

#include <cstddef>
#include <string>
#include <vector>

#include "ctrl/cache/store.hpp"
#include "ctrl/core/object.hpp"

#include "ctrl/core/context.hpp"
#include "ctrl/core/status.hpp"
#include "ctrl/core/task.hpp"
#include "ctrl/rest/rest_client.hpp"

namespace ctrl::cache::test {

// A pod body to create: test/support's realistic pod (two containers with env, probes, resources,
// volume mounts; labels, annotations) without server-set fields and not scheduled, so a delete
// removes it at once.
std::string CreatablePod(const std::string& namespace_name, const std::string& name, std::size_t index);

Task<Status> CreateNamespace(rest::RestClient& client, std::string name, Context ctx);
Task<Status> CreatePod(rest::RestClient& client, std::string namespace_name, std::string name, std::size_t index,
                       Context ctx);
// Sets label key=value with a merge patch.
Task<Status> LabelPod(rest::RestClient& client, std::string namespace_name, std::string name, std::string key,
                      std::string value, Context ctx);
// Deletes with gracePeriodSeconds=0. NotFound is an error.
Task<Status> DeletePod(rest::RestClient& client, std::string namespace_name, std::string name, Context ctx);
// Creates pods name_prefix0000 .. (count - 1), `parallel` requests in flight; the first error.
Task<Status> CreatePods(rest::RestClient& client, std::string namespace_name, std::string name_prefix,
                        std::size_t count, std::size_t parallel, Context ctx);
// Every pod of the namespace, by a paged list, as the cache holds them: apiVersion and kind set,
// managedFields dropped.
Task<StatusOr<std::vector<Object>>> ListPods(rest::RestClient& client, std::string namespace_name, Context ctx);
// "" when store holds exactly objects (same keys, each object equal as JSON); otherwise the first
// differences ("missing ns/a", "stale ns/b: rv 10 in the cache, 12 on the server", ...).
std::string CompareStore(const Store& store, const std::vector<Object>& objects);
// "<prefix><index, 4 digits>".
std::string PodName(const std::string& prefix, std::size_t index);

}  // namespace ctrl::cache::test
