#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "ctrl/cache/event_handler.hpp"
#include "ctrl/cache/informers.hpp"
#include "ctrl/core/gvk.hpp"
#include "ctrl/core/notification.hpp"
#include "ctrl/handler/handler.hpp"
#include "ctrl/log/log.hpp"
#include "ctrl/predicate/predicate.hpp"
#include "ctrl/scheme/typed_object.hpp"
#include "ctrl/source/internal/event_handler_adapter.hpp"
#include "ctrl/source/source.hpp"

namespace ctrl::source {

// How a Kind source gets and waits for its informers. Every field says its default; trivially
// destructible, so `KindOptions{.metadata_only = true}` is safe anywhere, co_await expressions
// included.
struct KindOptions {
    // Watch metadata only (PartialObjectMetadata): a lighter informer of its own. Default false.
    bool metadata_only = false;
    // While the kind cannot be had (not served: NoMatch; discovery failing; the handler's Prepare
    // failing), GetInformers (and Prepare) are tried again after initial_backoff, doubling up to
    // max_backoff. Each try is one lookup of the cache's RESTMapper, which makes at most one
    // discovery round of its own (the lazy mapper's: GET /apis alone for a CRD's group once the
    // server is known to serve aggregated discovery, else one request per group version; the
    // very first round is GET /api + GET /apis) and none when its rate limit answers from
    // the last round. Defaults 500 ms and 8 s: a CRD installed at any time is picked up at most
    // ~8 s after it is served, and waiting costs one round per 8 s (5 tries in the first 12 s).
    std::chrono::milliseconds initial_backoff{500};
    std::chrono::milliseconds max_backoff{std::chrono::seconds(8)};
    // While an informer has not synced, how often its reflector's last error is read (to report
    // Forbidden and the like: the reflector has no notification for a failure). Default 1 s.
    std::chrono::milliseconds error_check_interval{std::chrono::seconds(1)};
};

// What a Kind source did, for tests and logs.
struct KindSourceStats {
    int64_t attempts = 0;           // GetInformers calls (the first and every retry)
    int64_t unserved_attempts = 0;  // of which answered NoMatch
    int64_t failed_attempts = 0;    // of which failed otherwise (discovery failing, Prepare failing)
};

// Delivers the events of one kind's informers (controller-runtime's source.Kind): every object of
// the informers' first list as a create (is_in_initial_list), then every create, update and delete,
// through the predicates to the handler, on the informers' executor.
//
// Start returns at once; a coroutine on the caller's executor gets the informers, calls the
// handler's Prepare and adds the handler to each informer. A kind the server does not serve yet
// (its CRD is not installed) does not fail the source: it logs it (Info once, then V(1)), says so
// in Ready() and WaitForSync(), tries again with backoff (KindOptions) and delivers as soon as the
// kind is served, without a restart. An informer that cannot list (Forbidden: no RBAC) is reported
// the same way while its reflector keeps trying. When Start's context is cancelled the handler is
// removed from the informers (before Cancel returns) and nothing more is delivered.
//
// The informers must outlive the source's run: cancel Start's context, and wait until Running()
// is false, before destroying them. Thread-safe.
//
// The source follows its informers: when the server stops serving the kind (its CRD deleted), the
// handler leaves them, Ready() says NoMatch and the source waits for the kind again, as before a
// late CRD. When the informers change (Informers::CancelOnInformersChanged: a cached namespace
// added or removed; or RemoveInformer), it takes the current ones: the handler stays on those that
// remain, leaves the others, and a new one delivers its first list as creates. An informer it
// leaves is kept alive until it has left (shared ownership when the informer has it).
class KindSource final : public Source, public std::enable_shared_from_this<KindSource> {
  public:
    KindSource(cache::Informers& informers, GroupVersionKind gvk, std::shared_ptr<handler::EventHandler> handler,
               std::vector<predicate::PredicatePtr> predicates, KindOptions options);

    Task<Status> Start(Context ctx, RequestQueue& queue) override;
    // OK once every informer's handler got the informer's first list; NoMatch or Forbidden as
    // soon as the source knows it waits for its kind (it keeps trying); ctx's error otherwise,
    // naming why the kind did not sync.
    Task<Status> WaitForSync(Context ctx) override;
    // OK once synced; else why not: "waiting for kind <gvk>: no match ...", "...: Forbidden ...",
    // Unavailable before the first answer.
    Status Ready() const override;
    // "kind source: <gvk>".
    std::string String() const override;

    KindSourceStats Stats() const;
    // Whether the coroutine Start launched still runs (it ends once synced, or when Start's
    // context ends): the informers must live until it has returned.
    bool Running() const { return running_.load(); }

  private:
    enum class Phase { kNotStarted, kWaiting, kSynced, kFailed, kStopped };

    // Gets the informers, prepares the handler, registers it and waits for the sync.
    static Task<void> Run(Context ctx, std::shared_ptr<KindSource> self, RequestQueue* queue);
    // Retries GetInformers and Prepare until both succeed; false when ctx ended.
    Task<bool> AcquireInformers(Context& ctx, std::vector<cache::Informer*>& informers);
    // Waits for each informer's first list, reporting its reflector's errors; false when ctx ended.
    Task<bool> AwaitInformersSynced(Context& ctx, const std::vector<cache::Informer*>& informers);
    // Puts the handler on exactly these informers (kept where it is, added where it is not, taken
    // off the others); false when ctx ended first.
    bool Register(const Context& ctx, const std::vector<cache::Informer*>& informers, RequestQueue& queue);
    // Removes the handler from every informer and stops deliveries (Start's context ended).
    void Unregister();
    // Removes the handler from every informer.
    void RemoveRegistrations();
    // An informer stopped (why): back to waiting for the kind, the handler off every informer.
    void InformersStopped(const Status& why);
    // Waits until every registration got its informer's first list; false when ctx ended first.
    Task<bool> AwaitRegistrationsSynced(Context& ctx);

    // Records why the source waits; logs the first report of each reason at Info, later ones at
    // V(1). NoMatch and Forbidden also answer WaitForSync.
    void ReportWaiting(const Status& reason);
    void SetPhase(Phase phase, Status reason);
    // The informers were had (the kind is served): a waiting source now waits for their sync, and
    // WaitForSync no longer answers with the reason it waited for.
    void Syncing();
    std::shared_ptr<Notification> Decided() const;

    cache::Informers& informers_;
    const GroupVersionKind gvk_;
    const std::shared_ptr<handler::EventHandler> handler_;
    const std::vector<predicate::PredicatePtr> predicates_;
    const KindOptions options_;
    const log::Logger log_;
    // Notified once WaitForSync can answer: synced, waiting for a known reason, failed or stopped.
    // Re-armed (Syncing) when the kind turns out served after a NoMatch or Forbidden answered it,
    // so that a wait begun then waits for the sync; guarded by mu_.
    std::shared_ptr<Notification> decided_;
    const std::shared_ptr<internal::DeliveryGate> gate_;
    std::atomic<bool> running_{false};

    mutable std::mutex mu_;
    Phase phase_ = Phase::kNotStarted;
    Status reason_;  // why not synced (kWaiting, kFailed)
    std::vector<StatusCode> logged_codes_;
    KindSourceStats stats_;
    // The handler on one informer; owned keeps an informer the cache dropped (a removed namespace)
    // alive until the handler is off it (null for an informer not owned by a shared_ptr).
    struct Registration {
        cache::Informer* informer = nullptr;
        std::shared_ptr<cache::Informer> owned;
        cache::EventHandlerRegistration handle;
    };
    std::vector<Registration> registrations_;
};

// A source of the events of gvk's informers (controller-runtime's source.Kind): typed kinds,
// unstructured ones (any served gvk) and, with options.metadata_only, metadata-only ones.
std::shared_ptr<Source> Kind(cache::Informers& informers, GroupVersionKind gvk,
                             std::shared_ptr<handler::EventHandler> handler,
                             std::vector<predicate::PredicatePtr> predicates = {}, KindOptions options = {});

// The same for a typed kind: `source::Kind<api::Pod>(cache, handler)`.
template <scheme::TypedObject T>
std::shared_ptr<Source> Kind(cache::Informers& informers, std::shared_ptr<handler::EventHandler> handler,
                             std::vector<predicate::PredicatePtr> predicates = {}, KindOptions options = {}) {
    return Kind(informers, scheme::GroupVersionKindOf<T>(), std::move(handler), std::move(predicates), options);
}

}  // namespace ctrl::source
