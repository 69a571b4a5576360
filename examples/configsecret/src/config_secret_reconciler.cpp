#include "config_secret_reconciler.hpp"

#include <chrono>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "config_secret_status.hpp"
#include "configsecret_api/config_secret.hpp"
#include "runtime/api/config_map.hpp"
#include "runtime/api/event.hpp"
#include "runtime/api/secret.hpp"
#include "runtime/client/option_values.hpp"
#include "runtime/client/patch.hpp"
#include "runtime/controller/controllerutil_create_or.hpp"
#include "runtime/controller/controllerutil_finalizer.hpp"
#include "runtime/controller/controllerutil_owner.hpp"
#include "runtime/core/log.hpp"
#include "secret_content.hpp"

namespace configsecret {

using ctrl::Context;
using ctrl::Status;
using ctrl::StatusOr;
using ctrl::Task;
using ctrl::reconcile::Result;
using examples::v1alpha1::ConfigSecret;

// One reconcile of one ConfigSecret: the steps of Reconcile, sharing the object read.
class ConfigSecretReconciler::Run {
  public:
    Run(ConfigSecretReconciler& r, Context ctx) : r_(r), ctx_(std::move(ctx)), log_(ctrl::log::FromContext(ctx_)) {}

    Task<StatusOr<Result>> Reconcile(ctrl::reconcile::Request request) {
        const Status read = co_await r_.client_.Get(ctx_, request, cs_);
        if (ctrl::IsNotFound(read))
            co_return Result{};  // deleted; its Secret goes with it (owner reference)
        if (!read.Ok())
            co_return read.Annotate("reading ConfigSecret " + request.String());
        if (cs_.DeletionTimestamp())
            co_return co_await Finalize();
        if (ctrl::controllerutil::AddFinalizer(cs_, kFinalizer)) {
            const Status added = co_await r_.client_.Update(ctx_, cs_);
            if (!added.Ok())
                co_return added.Annotate("adding the finalizer to ConfigSecret " + cs_.Key().String());
        }
        const ctrl::Object original = cs_.DeepCopy();
        SyncOutcome outcome = co_await Sync();
        if (!outcome.error.Ok())
            co_return outcome.error;
        const Status written = co_await WriteStatus(original, outcome);
        if (!written.Ok())
            co_return written;
        co_return Result{};
    }

  private:
    // Takes the ConfigSecret's name off every ConfigMap of its namespace but keep; then, when
    // deleting, lets the object go.
    Task<Status> ReleaseConfigMaps(const std::string& keep) {
        ctrl::api::ConfigMapList config_maps;
        const std::string ns(cs_.Namespace());
        CTRL_CO_RETURN_IF_ERROR(co_await r_.client_.List(ctx_, config_maps, ctrl::client::InNamespace(ns)));
        const std::string name(cs_.Name());
        CTRL_CO_ASSIGN_OR_RETURN(std::vector<ctrl::api::ConfigMap> items, config_maps.TakeItems());
        for (ctrl::api::ConfigMap& config_map : items) {
            std::set<std::string> names = UsedBy(config_map);
            if (config_map.Name() == keep || names.erase(name) == 0)
                continue;
            const ctrl::Object before = config_map.DeepCopy();
            SetUsedBy(config_map, names);
            const Status patched = co_await r_.client_.Patch(ctx_, config_map, ctrl::client::MergeFrom(before));
            if (!patched.Ok() && !ctrl::IsNotFound(patched))
                co_return patched.Annotate("releasing ConfigMap " + config_map.Key().String());
        }
        co_return ctrl::OkStatus();
    }

    Task<StatusOr<Result>> Finalize() {
        if (!ctrl::controllerutil::ContainsFinalizer(cs_, kFinalizer))
            co_return Result{};
        const std::string none;
        const Status released = co_await ReleaseConfigMaps(none);
        if (!released.Ok())
            co_return released;
        ctrl::controllerutil::RemoveFinalizer(cs_, kFinalizer);
        const Status removed = co_await r_.client_.Update(ctx_, cs_);
        if (!removed.Ok() && !ctrl::IsNotFound(removed))
            co_return removed.Annotate("removing the finalizer of ConfigSecret " + cs_.Key().String());
        log_.Info("Released the ConfigMaps of a deleted ConfigSecret");
        co_return Result{};
    }

    // Reads the ConfigMap, marks it, and brings the Secret in line.
    Task<SyncOutcome> Sync() {
        SyncOutcome outcome;
        const examples::v1alpha1::ConfigSecretSpec spec = cs_.Spec();
        const std::string ns(cs_.Namespace());
        const std::string config_map_name = spec.ConfigMapName();
        outcome.secret_name = spec.SecretName().value_or(std::string(cs_.Name()));

        const Status released = co_await ReleaseConfigMaps(config_map_name);
        if (!released.Ok()) {
            outcome.error = released;
            co_return outcome;
        }
        ctrl::api::ConfigMap config_map;
        const ctrl::ObjectKey config_map_key(ns, config_map_name);
        const Status read = co_await r_.client_.Get(ctx_, config_map_key, config_map);
        if (ctrl::IsNotFound(read)) {
            outcome.condition = NotReady(kReasonConfigMapNotFound, "ConfigMap " + config_map_name + " not found");
            r_.recorder_.Event(cs_, ctrl::api::kEventTypeWarning, kReasonConfigMapNotFound, outcome.condition.message);
            co_return outcome;  // the ConfigMap's creation enqueues this ConfigSecret again
        }
        if (!read.Ok()) {
            outcome.error = read.Annotate("reading ConfigMap " + config_map_key.String());
            co_return outcome;
        }
        std::set<std::string> users = UsedBy(config_map);
        users.insert(std::string(cs_.Name()));
        const ctrl::Object before = config_map.DeepCopy();
        if (SetUsedBy(config_map, users)) {
            const Status marked = co_await r_.client_.Patch(ctx_, config_map, ctrl::client::MergeFrom(before));
            if (!marked.Ok()) {
                outcome.error = marked.Annotate("marking ConfigMap " + config_map_key.String());
                co_return outcome;
            }
        }

        const std::optional<std::vector<std::string>> keys =
            spec.HasKeys() ? std::optional(spec.Keys()) : std::nullopt;  // absent: every key
        const SecretContent content = ComputeSecretContent(keys, config_map);
        outcome.copied_keys = static_cast<int64_t>(content.data.size());
        ctrl::api::Secret secret;
        secret.SetNamespace(ns);
        secret.SetName(outcome.secret_name);
        const std::string secret_type = spec.SecretType();  // the schema's default when absent
        const std::map<std::string, std::string> labels = spec.Labels();
        const ctrl::controllerutil::MutateFunction mutate = [&]() -> Status {
            if (secret.Uid().empty())
                secret.SetType(secret_type);  // immutable once created
            for (const auto& [key, value] : labels)
                secret.SetLabel(key, value);
            for (const std::string& key : secret.DataKeys())
                if (!content.data.contains(key))
                    secret.RemoveDataValue(key);
            for (const auto& [key, value] : content.data)
                secret.SetDataValue(key, value);
            return ctrl::controllerutil::SetControllerReference(cs_, secret, r_.scheme_);
        };
        StatusOr<ctrl::controllerutil::OperationResult> result =
            co_await ctrl::controllerutil::CreateOrUpdate(ctx_, r_.client_, secret, mutate);
        if (!result.Ok()) {
            outcome.error = result.GetStatus().Annotate("writing Secret " + secret.Key().String());
            co_return outcome;
        }
        if (*result != ctrl::controllerutil::OperationResult::kNone) {
            const bool created = *result == ctrl::controllerutil::OperationResult::kCreated;
            r_.recorder_.Eventf(cs_, ctrl::api::kEventTypeNormal, created ? "SecretCreated" : "SecretUpdated",
                                "Secret %s %s with %zu keys of ConfigMap %s", outcome.secret_name.c_str(),
                                created ? "created" : "updated", content.data.size(), config_map_name.c_str());
            log_.Info("Secret written", "secret", outcome.secret_name, "operation",
                      std::string(ctrl::controllerutil::ToString(*result)));
        }
        const Status pruned = co_await DeleteOldSecrets(outcome.secret_name);
        if (!pruned.Ok()) {
            outcome.error = pruned;
            co_return outcome;
        }
        if (!content.missing_keys.empty()) {
            std::string missing;
            for (const std::string& key : content.missing_keys)
                missing += (missing.empty() ? "" : ", ") + key;
            outcome.condition = NotReady(kReasonKeysMissing, "ConfigMap " + config_map_name + " lacks " + missing);
            r_.recorder_.Event(cs_, ctrl::api::kEventTypeWarning, kReasonKeysMissing, outcome.condition.message);
        } else {
            outcome.condition = Ready("Secret " + outcome.secret_name + " holds " +
                                      std::to_string(content.data.size()) + " keys of ConfigMap " + config_map_name);
        }
        co_return outcome;
    }

    // Deletes the Secrets this ConfigSecret controls under another name (spec.secretName changed).
    Task<Status> DeleteOldSecrets(const std::string& current) {
        ctrl::api::SecretList secrets;
        const std::string ns(cs_.Namespace());
        CTRL_CO_RETURN_IF_ERROR(co_await r_.client_.List(ctx_, secrets, ctrl::client::InNamespace(ns)));
        CTRL_CO_ASSIGN_OR_RETURN(std::vector<ctrl::api::Secret> items, secrets.TakeItems());
        for (ctrl::api::Secret& old : items) {
            const std::optional<ctrl::OwnerReference> owner = ctrl::controllerutil::GetControllerOf(old);
            if (old.Name() == current || !owner || owner->uid != cs_.Uid())
                continue;
            const Status deleted = co_await r_.client_.Delete(ctx_, old);
            if (!deleted.Ok() && !ctrl::IsNotFound(deleted))
                co_return deleted.Annotate("deleting the old Secret " + old.Key().String());
            log_.Info("Deleted a Secret under an old name", "secret", std::string(old.Name()));
        }
        co_return ctrl::OkStatus();
    }

    Task<Status> WriteStatus(const ctrl::Object& original, const SyncOutcome& outcome) {
        if (!ApplyStatus(cs_, outcome, std::chrono::system_clock::now()))
            co_return ctrl::OkStatus();
        ctrl::client::SubResourceClient status = r_.client_.Status();
        const Status patched = co_await status.Patch(ctx_, cs_, ctrl::client::MergeFrom(original));
        if (!patched.Ok())
            co_return patched.Annotate("writing the status of ConfigSecret " + cs_.Key().String());
        co_return ctrl::OkStatus();
    }

    ConfigSecretReconciler& r_;
    Context ctx_;
    ctrl::log::Logger log_;
    ConfigSecret cs_;
};

Task<StatusOr<Result>> ConfigSecretReconciler::Reconcile(Context ctx, ctrl::reconcile::Request request) {
    Run run(*this, std::move(ctx));
    co_return co_await run.Reconcile(std::move(request));
}

}  // namespace configsecret
