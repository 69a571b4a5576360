#include "ctrl/source/kind.hpp"

#include <algorithm>
#include <exception>
#include <utility>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/this_coro.hpp>

#include "ctrl/core/sleep.hpp"

namespace ctrl::source {
namespace {

// Why a source waits, as Ready() says it: "waiting for kind <gvk>: no match ...".
Status WaitingFor(const GroupVersionKind& gvk, const Status& why) {
    const std::string prefix = "waiting for kind " + gvk.String() + ": ";
    if (IsNoMatch(why))
        return NoMatchError(prefix + "no match: the server does not serve it (is its CRD installed?); retrying (" +
                            why.Message() + ")");
    if (IsForbidden(why))
        return ForbiddenError(prefix + "Forbidden: may not list or watch it; retrying (" + why.Message() + ")");
    return Status(why.Code(), prefix + std::string(StatusCodeName(why.Code())) + ": " + why.Message());
}

}  // namespace

KindSource::KindSource(cache::Informers& informers, GroupVersionKind gvk,
                       std::shared_ptr<handler::EventHandler> handler, std::vector<predicate::PredicatePtr> predicates,
                       KindOptions options)
    : informers_(informers),
      gvk_(std::move(gvk)),
      handler_(std::move(handler)),
      predicates_(std::move(predicates)),
      options_(options),
      log_(log::Logger().WithName("source").WithValues("kind", gvk_)),
      decided_(std::make_shared<Notification>()),
      gate_(std::make_shared<internal::DeliveryGate>()) {}

Task<Status> KindSource::Start(Context ctx, RequestQueue& queue) {
    {
        std::lock_guard lock(mu_);
        if (phase_ != Phase::kNotStarted)
            co_return AlreadyExistsError(String() + " was started already");
        phase_ = Phase::kWaiting;
        reason_ = UnavailableError("waiting for kind " + gvk_.String() + ": its informers are not synced yet");
    }
    // Removed when ctx ends, before Cancel returns (the informers may go right after).
    const std::weak_ptr<KindSource> weak = weak_from_this();
    (void)ctx.OnCancel([weak](const Status&) {
        if (auto self = weak.lock())
            self->Unregister();
    });
    const boost::asio::any_io_executor executor = co_await boost::asio::this_coro::executor;
    running_ = true;
    boost::asio::co_spawn(executor, Run(ctx, shared_from_this(), &queue), [weak](std::exception_ptr error) {
        auto self = weak.lock();
        if (self)
            self->running_ = false;
        if (error && self) {
            self->SetPhase(Phase::kFailed, InternalError(self->String() + ": its run threw"));
            self->log_.Error(InternalError("an exception escaped"), "kind source stopped");
        }
    });
    co_return OkStatus();
}

Task<void> KindSource::Run(Context ctx, std::shared_ptr<KindSource> self, RequestQueue* queue) {
    for (;;) {
        // One round per set of informers: it ends when ctx does, or when one of them stops (the
        // kind is not served any more, or its informers were removed); then the source waits for
        // the kind again, as before a late CRD.
        Context round = Context::WithCancel(ctx);
        self->informers_.CancelOnInformersChanged(round, self->gvk_, self->options_.metadata_only);
        std::vector<cache::Informer*> informers;
        bool going = co_await self->AcquireInformers(ctx, informers);
        if (going)
            self->Syncing();
        going = going && self->Register(ctx, informers, *queue);
        if (going) {
            for (cache::Informer* informer : informers)
                informer->CancelOnStop(round);  // the round ends when one of them stops
        }
        if (going)
            going = co_await self->AwaitInformersSynced(round, informers);
        // Each registration syncs once its handler got the informer's first list, a delivery after
        // the informer's own sync.
        if (going)
            going = co_await self->AwaitRegistrationsSynced(round);
        if (!ctx.Err().Ok()) {
            self->SetPhase(Phase::kStopped, ctx.Err());
            co_return;
        }
        if (going) {
            self->SetPhase(Phase::kSynced, OkStatus());
            const Notification until_an_informer_stops;  // nothing notifies it: the wait ends with round
            (void)co_await until_an_informer_stops.Wait(round);
            if (!ctx.Err().Ok())
                co_return;
        }
        // The kind is not served any more: back to waiting for it. Otherwise the informers
        // changed (a cached namespace added or removed, or removed by RemoveInformer): the next
        // round keeps the handler on those that stay and adds it to the new ones.
        if (const Status why = round.Err(); IsNotFound(why))
            self->InformersStopped(why);
    }
}

void KindSource::InformersStopped(const Status& why) {
    RemoveRegistrations();
    // NoMatch when the server stopped serving the kind, as when it never did (Ready, the
    // operator's "served" metrics and checks read the code).
    const Status reason = IsNotFound(why) ? NoMatchError(why.Message()) : UnavailableError(why.Message());
    {
        std::lock_guard lock(mu_);
        if (phase_ == Phase::kFailed || phase_ == Phase::kStopped)
            return;
        phase_ = Phase::kWaiting;
        reason_ = WaitingFor(gvk_, reason);
    }
    log_.Info("the kind's informers stopped: waiting for the kind again", "reason", why.Message());
    Decided()->Notify();
}

Task<bool> KindSource::AcquireInformers(Context& ctx, std::vector<cache::Informer*>& informers) {
    std::chrono::milliseconds backoff = options_.initial_backoff;
    for (;;) {
        {
            std::lock_guard lock(mu_);
            ++stats_.attempts;
        }
        StatusOr<std::vector<cache::Informer*>> got =
            co_await informers_.GetInformers(ctx, gvk_, options_.metadata_only);
        if (!ctx.Err().Ok())
            co_return false;
        Status failure = got.GetStatus();
        if (got.Ok()) {
            // A handler that needs I/O to get ready (an owner's mapping) may wait for a kind too.
            failure = (co_await handler_->Prepare(ctx)).Annotate("preparing the event handler");
            if (!ctx.Err().Ok())
                co_return false;
            // An informer that stopped (its kind gone) and is not yet out of the cache.
            for (const cache::Informer* informer : got.Value())
                if (failure.Ok() && informer->Stopped())
                    failure = informer->StopReason().Annotate("its informer stopped");
            if (failure.Ok()) {
                informers = std::move(got).Value();
                const int64_t attempts = Stats().attempts;
                if (attempts > 1)
                    log_.Info("kind is served now: delivering its events", "attempts", attempts);
                co_return true;
            }
        }
        {
            std::lock_guard lock(mu_);
            ++(IsNoMatch(failure) ? stats_.unserved_attempts : stats_.failed_attempts);
        }
        ReportWaiting(failure);
        if (!(co_await SleepFor(ctx, backoff)).Ok())
            co_return false;
        backoff = std::min(backoff * 2, options_.max_backoff);
    }
}

bool KindSource::Register(const Context& ctx, const std::vector<cache::Informer*>& informers, RequestQueue& queue) {
    std::vector<Registration> dropped;
    {
        std::lock_guard lock(mu_);
        if (gate_->stopped.load() || !ctx.Err().Ok())
            return false;
        const auto listed = [&informers](const cache::Informer* informer) {
            return std::find(informers.begin(), informers.end(), informer) != informers.end();
        };
        std::vector<Registration> kept;
        for (Registration& registration : registrations_)
            (listed(registration.informer) && !registration.informer->Stopped() ? kept : dropped)
                .push_back(std::move(registration));
        registrations_ = std::move(kept);
        for (cache::Informer* informer : informers) {
            const bool registered = std::any_of(registrations_.begin(), registrations_.end(),
                                                [informer](const Registration& r) { return r.informer == informer; });
            if (!registered) {
                auto adapter =
                    std::make_shared<internal::EventHandlerAdapter>(ctx, queue, handler_, predicates_, gate_);
                registrations_.push_back(Registration{informer, informer->weak_from_this().lock(),
                                                      informer->AddEventHandler(std::move(adapter))});
            }
        }
    }
    for (const Registration& registration : dropped)
        (void)registration.informer->RemoveEventHandler(registration.handle);
    return true;
}

void KindSource::Unregister() {
    gate_->stopped.store(true);
    RemoveRegistrations();
}

void KindSource::RemoveRegistrations() {
    std::vector<Registration> registrations;
    {
        std::lock_guard lock(mu_);
        registrations.swap(registrations_);
    }
    for (const Registration& registration : registrations)
        (void)registration.informer->RemoveEventHandler(registration.handle);
}

Task<bool> KindSource::AwaitRegistrationsSynced(Context& ctx) {
    std::vector<cache::EventHandlerRegistration> registrations;
    {
        std::lock_guard lock(mu_);
        for (const Registration& registration : registrations_)
            registrations.push_back(registration.handle);
    }
    for (const cache::EventHandlerRegistration& registration : registrations)
        if (!(co_await registration.WaitForSync(ctx)).Ok())
            co_return false;
    co_return ctx.Err().Ok();  // unregistered meanwhile: the context ended
}

Task<bool> KindSource::AwaitInformersSynced(Context& ctx, const std::vector<cache::Informer*>& informers) {
    for (cache::Informer* informer : informers) {
        for (;;) {
            // The reflector retries on its own; the check only reads why it has not synced yet.
            const Context check = Context::WithTimeout(ctx, options_.error_check_interval);
            const Status synced = co_await informer->WaitForSync(check);
            if (synced.Ok())
                break;
            if (!ctx.Err().Ok())
                co_return false;
            if (IsNotFound(synced)) {
                // The informer stopped (its kind is not served): ctx, a round, ends once it has.
                const Notification until_it_has_stopped;
                (void)co_await until_it_has_stopped.Wait(ctx);
                co_return false;
            }
            if (const Status last = informer->LastError(); !last.Ok())
                ReportWaiting(last);
        }
    }
    co_return true;
}

void KindSource::ReportWaiting(const Status& reason) {
    const Status waiting = WaitingFor(gvk_, reason);
    bool first = false;
    {
        std::lock_guard lock(mu_);
        if (phase_ != Phase::kWaiting)
            return;
        reason_ = waiting;
        first = std::find(logged_codes_.begin(), logged_codes_.end(), reason.Code()) == logged_codes_.end();
        if (first)
            logged_codes_.push_back(reason.Code());
    }
    (first ? log_ : log_.V(1)).Info("waiting for kind", "reason", waiting.Message());
    if (IsNoMatch(reason) || IsForbidden(reason))
        Decided()->Notify();
}

void KindSource::Syncing() {
    std::lock_guard lock(mu_);
    if (phase_ != Phase::kWaiting)
        return;
    reason_ = UnavailableError("waiting for kind " + gvk_.String() + ": it is served; its informers are syncing");
    if (decided_->HasBeenNotified())
        decided_ = std::make_shared<Notification>();
}

std::shared_ptr<Notification> KindSource::Decided() const {
    std::lock_guard lock(mu_);
    return decided_;
}

void KindSource::SetPhase(Phase phase, Status reason) {
    {
        std::lock_guard lock(mu_);
        if (phase_ == Phase::kFailed || phase_ == Phase::kStopped)
            return;
        // Stopped before it synced: the context's code, and why it had not synced.
        if (phase == Phase::kStopped)
            reason = Status(reason.Ok() ? StatusCode::kCancelled : reason.Code(),
                            String() + " stopped before it synced: " + reason_.Message());
        phase_ = phase;
        reason_ = std::move(reason);
    }
    if (phase == Phase::kSynced)
        log_.V(1).Info("kind source synced");
    Decided()->Notify();
}

Task<Status> KindSource::WaitForSync(Context ctx) {
    const std::shared_ptr<Notification> decided = Decided();
    const Status waited = co_await decided->Wait(ctx);
    std::lock_guard lock(mu_);
    if (phase_ == Phase::kSynced)
        co_return OkStatus();
    if (!waited.Ok()) {
        const std::string why = phase_ == Phase::kNotStarted ? "not started" : reason_.Message();
        co_return Status(waited.Code(), String() + " did not sync: " + why);
    }
    co_return reason_;
}

Status KindSource::Ready() const {
    std::lock_guard lock(mu_);
    switch (phase_) {
        case Phase::kSynced:
            return OkStatus();
        case Phase::kNotStarted:
            return UnavailableError(String() + ": not started");
        default:
            return reason_;
    }
}

std::string KindSource::String() const {
    return "kind source: " + gvk_.String();
}

KindSourceStats KindSource::Stats() const {
    std::lock_guard lock(mu_);
    return stats_;
}

std::shared_ptr<Source> Kind(cache::Informers& informers, GroupVersionKind gvk,
                             std::shared_ptr<handler::EventHandler> handler,
                             std::vector<predicate::PredicatePtr> predicates, KindOptions options) {
    return std::make_shared<KindSource>(informers, std::move(gvk), std::move(handler), std::move(predicates), options);
}

}  // namespace ctrl::source
