#pragma once

#include <memory>
#include <string>

#include <boost/asio/any_io_executor.hpp>

#include "ctrl/client/reader.hpp"
#include "ctrl/client/sub_resource_client.hpp"
#include "ctrl/client/write_observer.hpp"
#include "ctrl/client/writer.hpp"
#include "ctrl/core/gvk.hpp"
#include "ctrl/core/object.hpp"
#include "ctrl/core/status_or.hpp"
#include "ctrl/core/task.hpp"
#include "ctrl/discovery/rest_mapper.hpp"
#include "ctrl/metrics/registry.hpp"
#include "ctrl/rest/config.hpp"
#include "ctrl/rest/rest_client.hpp"
#include "ctrl/scheme/scheme.hpp"

namespace ctrl::client {

// Reads and writes objects of any kind (client.Client): typed, unstructured and metadata-only;
// with the Scheme that maps typed kinds and the RESTMapper that finds their resources. The
// direct client (New) talks to the API server on every call; the Manager's client reads from its
// cache (runtime/cache). Safe to use from many coroutines and threads at once.
class Client : public Reader, public Writer, public SubResourceOperations {
  public:
    // The status subresource: Update and Patch write status only (client.StatusClient).
    SubResourceClient Status() { return SubResourceClient(*this, "status"); }
    // Any other subresource: "scale", "eviction", "token", ... (client.SubResourceClientConstructor).
    // name's characters must outlive the returned handle (a literal does).
    SubResourceClient SubResource(std::string_view name) { return SubResourceClient(*this, name); }
    // The handle keeps a view of name: a temporary string would dangle, so it does not compile.
    SubResourceClient SubResource(const char* name) { return SubResourceClient(*this, name); }
    SubResourceClient SubResource(std::string&& name) = delete;

    virtual const scheme::Scheme& Scheme() const = 0;
    virtual discovery::RESTMapper& RESTMapper() = 0;
    // The object's kind: its apiVersion and kind. BadRequest when either is missing, as
    // controller-runtime's "Object 'Kind' is missing".
    virtual StatusOr<GroupVersionKind> GroupVersionKindFor(const Object& object) const = 0;
    // Whether objects of object's kind live in a namespace. A Task because an unknown kind may
    // need discovery; NoMatch when the server serves no such kind.
    virtual Task<StatusOr<bool>> IsObjectNamespaced(Context ctx, const Object& object) = 0;
};

// The options of New (client.Options). Every field has a usable default.
struct Options {
    // Default: a scheme with every built-in kind of runtime/api (api::AddAllBuiltinsToScheme).
    std::shared_ptr<const scheme::Scheme> scheme{};
    // Default: a LazyRESTMapper over a discovery client of its own on the same RestClient.
    std::shared_ptr<discovery::RESTMapper> mapper{};
    // Every write is a dry run (client.WithDryRun / Options.DryRun).
    bool dry_run = false;
    // The field manager of writes that name none (client.WithFieldOwner). Default: none, so the
    // server derives one from the user agent.
    std::string field_owner{};
    // Where rest_client_* and the mapper's metrics go. Default: metrics::DefaultRegistry().
    metrics::Registry* registry = nullptr;
    // Told of every accepted write (see WriteObserver); it must outlive the client. A cluster's
    // client tells its cache, which then never answers older than what this process wrote.
    // Default: none.
    WriteObserver* write_observer = nullptr;
};

// A client that talks to the API server config names (client.New), doing its I/O on executor.
// BadRequest for a config that cannot make a transport (naming what is wrong).
StatusOr<std::unique_ptr<Client>> New(const rest::Config& config, boost::asio::any_io_executor executor,
                                      Options options = {});
// The same over an existing RestClient (the Manager shares one among client, cache and mapper).
StatusOr<std::unique_ptr<Client>> NewForRestClient(std::shared_ptr<rest::RestClient> rest, Options options = {});

}  // namespace ctrl::client
