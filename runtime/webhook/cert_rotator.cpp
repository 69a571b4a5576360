#include "ctrl/webhook/cert_rotator.hpp"

// Boost 1.74's awaitable.hpp needs <utility> first: task.hpp includes it in that order.
#include "ctrl/core/task.hpp"

#include <algorithm>
#include <utility>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/this_coro.hpp>

#include "ctrl/api/secret.hpp"
#include "ctrl/api/timestamp.hpp"
#include "ctrl/cache/informer.hpp"
#include "ctrl/core/base64.hpp"
#include "ctrl/core/rfc3339.hpp"
#include "ctrl/core/sleep.hpp"
#include "ctrl/webhook/internal/ca_injection.hpp"
#include "ctrl/webhook/internal/cert_plan.hpp"

namespace ctrl::webhook {
namespace {

using Clock = std::chrono::system_clock;
constexpr std::string_view kCaSinceAnnotation = "webhook.ctrl.example.com/ca-since";

internal::CertSecretData ReadSecretData(const Object& object) {
    internal::CertSecretData data;
    const api::SecretView secret(object);  // a view: the object is read, not copied
    auto value = [&](std::string_view key) {
        StatusOr<std::string> text = secret.DataValue(key);
        return text.Ok() ? std::move(text).Value() : std::string();
    };
    data.ca_bundle = value("ca.crt");
    data.ca_key = value("ca.key");
    data.tls_crt = value("tls.crt");
    data.tls_key = value("tls.key");
    if (std::optional<std::string_view> since = object.Annotation(kCaSinceAnnotation)) {
        StatusOr<std::chrono::system_clock::time_point> parsed = ctrl::ParseRfc3339(*since);
        if (parsed.Ok())
            data.ca_since = *parsed;
    }
    return data;
}

std::chrono::steady_clock::time_point ToSteady(Clock::time_point at) {
    const auto left = std::clamp<Clock::duration>(at - Clock::now(), Clock::duration::zero(), std::chrono::hours(24));
    return std::chrono::steady_clock::now() + std::chrono::duration_cast<std::chrono::steady_clock::duration>(left);
}

}  // namespace

struct CertRotator::State {
    CertRotatorOptions options;
    std::shared_ptr<rest::RestClient> rest;
    client::Client& writer;
    log::Logger logger;
    metrics::Registry informer_metrics;  // its watches' gauges stay out of the user's registry
    Notification ready;

    mutable std::mutex mu;
    std::shared_ptr<const server::TlsIdentity> current;
    std::string ca_bundle;
    bool pending = false;
    Context wake = Context::Background();
    std::shared_ptr<cache::Informer> secret_informer;

    State(CertRotatorOptions options_in, std::shared_ptr<rest::RestClient> rest_in, client::Client& writer_in)
        : options(std::move(options_in)),
          rest(std::move(rest_in)),
          writer(writer_in),
          logger(log::Logger()
                     .WithName("webhook")
                     .WithName("certificates")
                     .WithValues("secret", options.secret_namespace + "/" + options.secret_name)) {}

    // Something changed: the loop runs a pass now.
    void Kick() {
        std::lock_guard lock(mu);
        pending = true;
        wake.Cancel();
    }

    // The Secret as the watch delivered it: its serving pair becomes what this replica presents.
    void OnSecret(const Object& object) {
        const internal::CertSecretData data = ReadSecretData(object);
        StatusOr<std::shared_ptr<const server::TlsIdentity>> identity =
            server::TlsIdentity::FromPem(data.tls_crt, data.tls_key, "Secret " + options.secret_name);
        {
            std::lock_guard lock(mu);
            ca_bundle = data.ca_bundle;
            if (identity.Ok() && (!current || current->CertificatePem() != (*identity)->CertificatePem())) {
                current = *identity;
                logger.Info("serving a new certificate", "serial", current->SerialHex());
            }
        }
        if (identity.Ok())
            ready.Notify();
        Kick();
    }

    std::shared_ptr<cache::Informer> Watch(const GroupVersionKind& gvk, const std::string& resource, bool namespaced,
                                           const std::string& name) {
        cache::ListWatchTarget target;
        target.resource = GroupVersionResource(gvk.group, gvk.version, resource);
        target.namespaced = namespaced;
        target.namespace_name = namespaced ? options.secret_namespace : "";
        target.field_selector = "metadata.name=" + name;
        return std::make_shared<cache::Informer>(gvk, rest, target, cache::StoreOptions{}, cache::ReflectorOptions{},
                                                 informer_metrics);
    }

    Task<StatusOr<Clock::time_point>> Pass(Context ctx);
};

Task<StatusOr<Clock::time_point>> CertRotator::State::Pass(Context ctx) {
    cache::CachedObject held = secret_informer->GetStore().Get(options.secret_namespace, options.secret_name);
    Object secret_object = held ? held.Copy() : Object();
    const internal::CertSecretData data = held ? ReadSecretData(secret_object) : internal::CertSecretData{};
    const internal::CertWants wants{options.dns_names,   options.ips,           options.ca_name,
                                    options.ca_validity, options.cert_validity, options.propagation_delay};
    StatusOr<internal::CertPlan> plan = internal::PlanCertificates(data, wants, Clock::now());
    if (!plan.Ok())
        co_return plan.GetStatus();
    if (plan->changed) {
        api::Secret secret;
        if (held) {
            StatusOr<api::Secret> typed = api::Secret::FromObject(std::move(secret_object));
            if (typed.Ok())
                secret = std::move(typed).Value();
        }
        secret.SetNamespace(options.secret_namespace);
        secret.SetName(options.secret_name);
        if (!held)
            secret.SetType("kubernetes.io/tls");
        secret.SetDataValue("ca.crt", plan->next.ca_bundle);
        secret.SetDataValue("ca.key", plan->next.ca_key);
        secret.SetDataValue("tls.crt", plan->next.tls_crt);
        secret.SetDataValue("tls.key", plan->next.tls_key);
        secret.SetAnnotation(
            kCaSinceAnnotation,
            api::FormatRfc3339(std::chrono::time_point_cast<std::chrono::seconds>(plan->next.ca_since)));
        // Two statements: GCC 12 mishandles co_await in the arms of a conditional expression.
        Status written;
        if (held)
            written = co_await writer.Update(ctx, secret);
        else
            written = co_await writer.Create(ctx, secret);
        if (IsConflict(written) || IsAlreadyExists(written))
            co_return Clock::now() + std::chrono::seconds(1);  // another replica wrote: its watch event follows
        CTRL_CO_RETURN_IF_ERROR(written);
        logger.Info("certificates written", "why", plan->why);
    }
    const std::string bundle = Base64Encode(plan->next.ca_bundle);
    const std::pair<const GroupVersionKind*, const std::vector<std::string>*> targets[] = {
        {&internal::kValidatingWebhookConfiguration, &options.validating_webhooks},
        {&internal::kMutatingWebhookConfiguration, &options.mutating_webhooks},
        {&internal::kCustomResourceDefinition, &options.conversion_crds},
    };
    for (const auto& [kind, names] : targets)
        for (const std::string& name : *names)
            CTRL_CO_RETURN_IF_ERROR(co_await internal::InjectCaBundle(ctx, writer, *kind, name, bundle));
    co_return plan->wake_at;
}

CertRotator::CertRotator(std::shared_ptr<State> state) : state_(std::move(state)) {}
CertRotator::~CertRotator() = default;

StatusOr<std::shared_ptr<CertRotator>> CertRotator::New(CertRotatorOptions options,
                                                        std::shared_ptr<rest::RestClient> rest, client::Client& writer,
                                                        metrics::Registry& /*registry*/) {
    if (options.secret_namespace.empty() || options.secret_name.empty())
        return BadRequestError("self-managed certificates: secret_namespace and secret_name are required");
    if (options.dns_names.empty() && options.ips.empty())
        return BadRequestError("self-managed certificates: give the serving certificate a DNS name or an IP");
    if (options.ca_validity <= options.cert_validity)
        return BadRequestError("self-managed certificates: ca_validity must be longer than cert_validity");
    if (!rest)
        return BadRequestError("self-managed certificates: no REST client");
    return std::shared_ptr<CertRotator>(
        new CertRotator(std::make_shared<State>(std::move(options), std::move(rest), writer)));
}

std::shared_ptr<const server::TlsIdentity> CertRotator::Current() const {
    std::lock_guard lock(state_->mu);
    return state_->current;
}

std::string CertRotator::CaBundle() const {
    std::lock_guard lock(state_->mu);
    return state_->ca_bundle;
}

Task<Status> CertRotator::WaitForCertificate(Context ctx) const {
    co_return co_await state_->ready.Wait(ctx);
}

Task<Status> CertRotator::Run(Context ctx) {
    std::shared_ptr<State> state = state_;
    auto executor = co_await boost::asio::this_coro::executor;
    auto run_informer = [](std::shared_ptr<cache::Informer> informer, Context c) -> Task<void> {
        (void)co_await informer->Run(c);
    };
    const CertRotatorOptions& options = state->options;
    state->secret_informer = state->Watch(GroupVersionKind("", "v1", "Secret"), "secrets", true, options.secret_name);
    // The handlers hold the state weakly: the state holds the Secret's informer, which holds them.
    const std::weak_ptr<State> weak = state;
    auto on_secret = std::make_shared<cache::EventHandlerFuncs>();
    on_secret->on_add = [weak](const std::shared_ptr<const Object>& o, bool) {
        if (auto held = weak.lock())
            held->OnSecret(*o);
    };
    on_secret->on_update = [weak](const auto&, const std::shared_ptr<const Object>& o) {
        if (auto held = weak.lock())
            held->OnSecret(*o);
    };
    on_secret->on_delete = [weak](const auto&, bool) {
        if (auto held = weak.lock())
            held->Kick();
    };
    state->secret_informer->AddEventHandler(on_secret);
    std::vector<std::shared_ptr<cache::Informer>> informers = {state->secret_informer};
    auto kick = std::make_shared<cache::EventHandlerFuncs>();
    auto kick_state = [weak] {
        if (auto held = weak.lock())
            held->Kick();
    };
    kick->on_add = [kick_state](const auto&, bool) { kick_state(); };
    kick->on_update = [kick_state](const auto&, const auto&) { kick_state(); };
    kick->on_delete = [kick_state](const auto&, bool) { kick_state(); };
    const std::tuple<GroupVersionKind, const char*, const std::vector<std::string>*> watched[] = {
        {internal::kValidatingWebhookConfiguration, "validatingwebhookconfigurations", &options.validating_webhooks},
        {internal::kMutatingWebhookConfiguration, "mutatingwebhookconfigurations", &options.mutating_webhooks},
        {internal::kCustomResourceDefinition, "customresourcedefinitions", &options.conversion_crds},
    };
    for (const auto& [gvk, resource, names] : watched)
        for (const std::string& name : *names) {
            informers.push_back(state->Watch(gvk, resource, false, name));
            informers.back()->AddEventHandler(kick);
        }
    for (const std::shared_ptr<cache::Informer>& informer : informers)
        boost::asio::co_spawn(executor, run_informer(informer, ctx), boost::asio::detached);
    if (Status synced = co_await state->secret_informer->WaitForSync(ctx); !synced.Ok())
        co_return ctx.Err().Ok() ? synced : OkStatus();
    std::chrono::seconds backoff(1);
    while (ctx.Err().Ok()) {
        Context round = Context::WithCancel(ctx);
        {
            std::lock_guard lock(state->mu);
            state->pending = false;
            state->wake = round;
        }
        StatusOr<Clock::time_point> next = co_await state->Pass(ctx);
        if (!next.Ok()) {
            if (!ctx.Err().Ok())
                break;
            state->logger.Error(next.GetStatus(), "cannot keep the webhook certificates", "retryIn", backoff);
            next = Clock::now() + backoff;
            backoff = std::min<std::chrono::seconds>(backoff * 2, std::chrono::seconds(60));
        } else {
            backoff = std::chrono::seconds(1);
        }
        {
            std::lock_guard lock(state->mu);
            if (state->pending)
                continue;
        }
        (void)co_await SleepUntil(round, ToSteady(*next));
    }
    std::lock_guard lock(state->mu);
    state->wake = Context::Background();
    co_return OkStatus();
}

}  // namespace ctrl::webhook
