#include "ctrl/record/event_broadcaster.hpp"

#include <optional>
#include <utility>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/this_coro.hpp>

#include "ctrl/client/patch.hpp"
#include "ctrl/core/internal/hostname.hpp"
#include "ctrl/core/sleep.hpp"
#include "ctrl/record/internal/event_queue.hpp"

namespace ctrl::record {

namespace {

// Whether a failed write may succeed later: the server could not be reached or asked us to come
// back. (client-go retries transport errors only; an overloaded server's 429 and 5xx are retried
// here too.)
bool Retriable(const Status& status) {
    if (IsCancelled(status))
        return false;
    const int code = status.HttpCode();
    return code == 0 || code == 429 || code >= 500;
}

// Cancels target after timeout (or returns when target ends first).
Task<void> CancelAfter(Context target, std::chrono::milliseconds timeout) {
    const Status slept = co_await SleepFor(target, timeout);
    if (slept.Ok())
        target.Cancel(CancelledError("the event broadcaster's flush timeout passed"));
}

}  // namespace

Broadcaster::Broadcaster(client::Client& client, BroadcasterOptions options)
    : client_(client),
      options_(std::move(options)),
      queue_(std::make_shared<internal::EventQueue>(options_.queue_size)),
      correlator_(options_.correlator),
      metrics_(NewMetrics(options_.registry ? *options_.registry : metrics::DefaultRegistry())),
      log_(log::Logger().WithName("events")),
      random_(std::random_device{}()) {
    if (options_.host.empty())
        options_.host = ::ctrl::internal::Hostname();
}

Broadcaster::~Broadcaster() {
    queue_->Close();
}

Broadcaster::Metrics Broadcaster::NewMetrics(metrics::Registry& registry) {
    const metrics::CounterFamily family =
        registry.AddCounter("ctrl_event_recorder_events_total",
                            "Events recorded, by what became of them: created, patched (an existing Event's count "
                            "raised), filtered (spam filter), dropped (queue full), failed (not written).",
                            {"result"});
    return Metrics{family.WithLabelValues({"created"}), family.WithLabelValues({"patched"}),
                   family.WithLabelValues({"filtered"}), family.WithLabelValues({"dropped"}),
                   family.WithLabelValues({"failed"})};
}

EventRecorder Broadcaster::GetEventRecorderFor(std::string_view name) const {
    return EventRecorder(queue_, std::string(name), metrics_.dropped);
}

BroadcasterStats Broadcaster::Stats() const {
    BroadcasterStats stats;
    stats.created = static_cast<uint64_t>(metrics_.created.Value());
    stats.patched = static_cast<uint64_t>(metrics_.patched.Value());
    stats.filtered = static_cast<uint64_t>(metrics_.filtered.Value());
    stats.dropped = static_cast<uint64_t>(metrics_.dropped.Value());
    stats.failed = static_cast<uint64_t>(metrics_.failed.Value());
    return stats;
}

api::Event Broadcaster::MakeEvent(const internal::PendingEvent& pending) const {
    api::Event event;
    event.SetName(EventName(pending.regarding.name, pending.time));
    event.SetNamespace(pending.regarding.namespace_name.empty() ? "default" : pending.regarding.namespace_name);
    event.SetInvolvedObject(pending.regarding);
    event.SetReason(pending.reason);
    event.SetMessage(pending.message);
    event.SetFirstTimestamp(pending.time);
    event.SetLastTimestamp(pending.time);
    event.SetCount(1);
    event.SetType(pending.type);
    event.SetSource(api::EventSource{pending.component, options_.host});
    event.SetReportingController(pending.component);
    event.SetReportingInstance(options_.host);
    return event;
}

Task<Status> Broadcaster::Run(Context ctx) {
    // Writes outlive ctx by up to flush_timeout, so what was recorded before the stop (and the
    // write in flight) is still written.
    const boost::asio::any_io_executor executor = co_await boost::asio::this_coro::executor;
    Context writes = Context::WithCancel(Context::Background());
    ctx.OnCancel([executor, writes, timeout = options_.flush_timeout](const Status&) {
        boost::asio::co_spawn(executor, CancelAfter(writes, timeout), boost::asio::detached);
    });
    int after_stop = 0;
    while (true) {
        std::optional<internal::PendingEvent> next = co_await queue_->Pop(ctx);
        if (!next)
            break;
        after_stop += ctx.Err().Ok() ? 0 : 1;
        co_await Record(writes, std::move(*next));
    }
    queue_->Close();
    while (std::optional<internal::PendingEvent> next = queue_->TryPop()) {
        ++after_stop;
        co_await Record(writes, std::move(*next));
    }
    writes.Cancel();
    log_.V(1).Info("event broadcaster stopped", "flushed", after_stop);
    co_return OkStatus();
}

Task<void> Broadcaster::Record(Context ctx, internal::PendingEvent pending) {
    CorrelateResult result = correlator_.Correlate(MakeEvent(pending));
    if (result.skip) {
        metrics_.filtered.Inc();
        co_return;
    }
    for (int tries = 1;; ++tries) {
        const bool done = co_await Write(ctx, result);
        if (done)
            co_return;
        if (tries >= options_.max_tries || !ctx.Err().Ok())
            break;
        auto pause = options_.retry_sleep;
        if (tries == 1) {
            std::uniform_real_distribution<double> fraction(0.0, 1.0);
            pause = std::chrono::milliseconds(static_cast<int64_t>(fraction(random_) * pause.count()));
        }
        const Status slept = co_await SleepFor(ctx, pause);
        if (!slept.Ok())
            break;
    }
    metrics_.failed.Inc();
    log_.Error(UnavailableError("retry limit exceeded or stopped"), "unable to write an event", "reason",
               result.event.Reason(), "object", result.event.InvolvedObject().name);
}

Task<bool> Broadcaster::Write(Context ctx, const CorrelateResult& result) {
    api::Event written = result.event.DeepCopy();
    Status status;
    if (result.update_existing) {
        // Only count, lastTimestamp and message differ from original: the patch client-go sends.
        api::Event original = result.event.DeepCopy();
        original.SetCount(0);
        original.SetLastTimestamp(api::Timestamp{});
        original.SetMessage("");
        status = co_await client_.Patch(ctx, written, client::MergeFrom(original));
        if (status.Ok())
            metrics_.patched.Inc();
    }
    // A patched Event may have been deleted (Events expire after an hour): create it again.
    if (!result.update_existing || IsNotFound(status)) {
        written = result.event.DeepCopy();
        written.SetResourceVersion("");
        status = co_await client_.Create(ctx, written);
        if (status.Ok())
            metrics_.created.Inc();
    }
    if (status.Ok()) {
        correlator_.UpdateState(written);
        co_return true;
    }
    if (!ctx.Err().Ok()) {
        metrics_.failed.Inc();
        log_.Error(status, "stopped before an event was written", "reason", result.event.Reason(), "object",
                   result.event.InvolvedObject().name);
        co_return true;
    }
    if (Retriable(status))
        co_return false;
    if (IsAlreadyExists(status)) {
        log_.V(5).Info("the server has this event already", "name", result.event.Name());
    } else {
        metrics_.failed.Inc();
        log_.Error(status, "the server rejected an event (will not retry)", "reason", result.event.Reason(), "object",
                   result.event.InvolvedObject().name);
    }
    co_return true;
}

}  // namespace ctrl::record
