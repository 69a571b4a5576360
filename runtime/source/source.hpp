#pragma once

#include <string>

#include "ctrl/core/context.hpp"
#include "ctrl/core/status.hpp"
#include "ctrl/core/task.hpp"
#include "ctrl/handler/request_queue.hpp"

namespace ctrl::source {

using handler::RequestQueue;

// Where a controller's events come from (controller-runtime's source.Source and
// SyncingSource): a source holds its handler and predicates and, once started, turns what it
// sees into Requests on the controller's queue until the context ends. Kind (an informer of the
// cache), Channel (events pushed by user code) and Func (enqueue by hand) are the ones built in.
class Source {
  public:
    virtual ~Source() = default;

    // Begins delivering events to queue and returns once the source is started (it keeps
    // running on its executor until ctx ends). A source starts once; a second Start is
    // AlreadyExists. queue outlives the source's delivery (the controller guarantees it).
    virtual Task<Status> Start(Context ctx, RequestQueue& queue) = 0;

    // Waits until the source has delivered its initial state (an informer's first list).
    // OK when synced. A source that cannot sync yet for a reason it keeps retrying on its own
    // (its kind is not served yet: NoMatch; it may not list it: Forbidden) returns that error
    // as soon as it knows, and goes on trying: the controller runs its workers anyway and the
    // source delivers once it can. Any other error, or ctx's, is a failure to sync.
    // Default: synced at once.
    virtual Task<Status> WaitForSync(Context ctx);

    // OK once the source delivers its kind's events; otherwise why not ("waiting for kind
    // vpcresources.k8s.aws/v1beta1, Kind=SecurityGroupPolicy: no match ..."): what the
    // controller's readiness check reports. Default: OK. Thread-safe.
    virtual Status Ready() const;

    // Returns once what Start began has ended after its context did. The controller awaits it
    // when it stops, after its workers. Default: at once (a source whose delivery only needs the
    // controller's queue, which outlives it).
    virtual Task<void> WaitStopped();
    // For logs: "kind source: /v1, Kind=Pod", "channel source".
    virtual std::string String() const = 0;
};

}  // namespace ctrl::source
