#include "config_secret_reconciler.hpp"

#include <chrono>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "config_secret_status.hpp"
#include "configsecret_api/config_secret_v1beta1.hpp"
#include "secret_content.hpp"

namespace configsecret {

using ctrl::Context;
using ctrl::Result;
using ctrl::Status;
using ctrl::StatusOr;
using ctrl::Task;
using examples::v1beta1::ConfigSecret;
namespace controllerutil = ctrl::controllerutil;

// One reconcile of one ConfigSecret: the steps of Reconcile, sharing the object read.
class ConfigSecretReconciler::Run {
  public:
    Run(Context ctx, ConfigSecretReconciler& r) : r_(r), ctx_(std::move(ctx)), log_(ctrl::log::FromContext(ctx_)) {}

    Task<StatusOr<Result>> Reconcile(ctrl::Request request) {
        const Status read = co_await r_.client_.Get(ctx_, request, cs_);
        if (ctrl::IsNotFound(read))
            co_return Result{};  // deleted; its Secret goes with it (owner reference)
        CTRL_CO_RETURN_IF_ERROR(read, "reading ConfigSecret " + request.String());
        if (cs_.DeletionTimestamp())
            co_return co_await Finalize();
        if (controllerutil::AddFinalizer(cs_, kFinalizer))
            CTRL_CO_RETURN_IF_ERROR(co_await r_.client_.Update(ctx_, cs_),
                                    "adding the finalizer to ConfigSecret " + cs_.Key().String());
        const ctrl::Object original = cs_.DeepCopy();
        CTRL_CO_ASSIGN_OR_RETURN(const SyncOutcome outcome, co_await Sync());
        CTRL_CO_RETURN_IF_ERROR(co_await WriteStatus(original, outcome));
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
            CTRL_CO_RETURN_IF_ERROR(ctrl::IgnoreNotFound(patched), "releasing ConfigMap " + config_map.Key().String());
        }
        co_return ctrl::OkStatus();
    }

    Task<StatusOr<Result>> Finalize() {
        if (!controllerutil::ContainsFinalizer(cs_, kFinalizer))
            co_return Result{};
        const std::string none;
        CTRL_CO_RETURN_IF_ERROR(co_await ReleaseConfigMaps(none));
        controllerutil::RemoveFinalizer(cs_, kFinalizer);
        const Status removed = co_await r_.client_.Update(ctx_, cs_);
        CTRL_CO_RETURN_IF_ERROR(ctrl::IgnoreNotFound(removed),
                                "removing the finalizer of ConfigSecret " + cs_.Key().String());
        log_.Info("Released the ConfigMaps of a deleted ConfigSecret");
        co_return Result{};
    }

    // Reads the ConfigMap, marks it, and brings the Secret in line.
    Task<StatusOr<SyncOutcome>> Sync() {
        SyncOutcome outcome;
        const examples::v1beta1::ConfigSecretSpecSource source = cs_.Spec().Source();
        const examples::v1beta1::ConfigSecretSpecTarget target = cs_.Spec().Target();
        const std::string config_map_name = source.ConfigMap();
        outcome.secret_name = target.Name().value_or(std::string(cs_.Name()));

        CTRL_CO_RETURN_IF_ERROR(co_await ReleaseConfigMaps(config_map_name));
        ctrl::api::ConfigMap config_map;
        const ctrl::ObjectKey config_map_key(std::string(cs_.Namespace()), config_map_name);
        const Status read = co_await r_.client_.Get(ctx_, config_map_key, config_map);
        if (ctrl::IsNotFound(read)) {
            outcome.condition = NotReady(kReasonConfigMapNotFound, "ConfigMap " + config_map_name + " not found");
            r_.recorder_.Event(cs_, ctrl::api::kEventTypeWarning, kReasonConfigMapNotFound, outcome.condition.message);
            co_return outcome;  // the ConfigMap's creation enqueues this ConfigSecret again
        }
        CTRL_CO_RETURN_IF_ERROR(read, "reading ConfigMap " + config_map_key.String());
        CTRL_CO_RETURN_IF_ERROR(co_await MarkConfigMap(config_map), "marking ConfigMap " + config_map_key.String());

        const std::optional<std::vector<std::string>> keys =
            source.HasKeys() ? std::optional(source.Keys()) : std::nullopt;  // absent: every key
        const SecretContent content = ComputeSecretContent(keys, config_map);
        outcome.copied_keys = static_cast<int64_t>(content.data.size());
        CTRL_CO_RETURN_IF_ERROR(co_await WriteSecret(target, content, outcome.secret_name, config_map_name));
        CTRL_CO_RETURN_IF_ERROR(co_await DeleteOldSecrets(outcome.secret_name));
        outcome.condition = ConditionFor(content, outcome.secret_name, config_map_name);
        co_return outcome;
    }

    // Adds this ConfigSecret's name to the ConfigMap's users (kUsedByAnnotation).
    Task<Status> MarkConfigMap(ctrl::api::ConfigMap& config_map) {
        std::set<std::string> users = UsedBy(config_map);
        users.insert(std::string(cs_.Name()));
        const ctrl::Object before = config_map.DeepCopy();
        if (!SetUsedBy(config_map, users))
            co_return ctrl::OkStatus();
        co_return co_await r_.client_.Patch(ctx_, config_map, ctrl::client::MergeFrom(before));
    }

    // Creates or updates the Secret named secret_name to hold content, owned by this ConfigSecret.
    Task<Status> WriteSecret(const examples::v1beta1::ConfigSecretSpecTarget& target, const SecretContent& content,
                             const std::string& secret_name, const std::string& config_map_name) {
        ctrl::api::Secret secret;
        secret.SetNamespace(std::string(cs_.Namespace()));
        secret.SetName(secret_name);
        const std::string secret_type = target.Type();  // the schema's default when absent
        const std::map<std::string, std::string> labels = target.Labels();
        const std::map<std::string, std::string> annotations = target.Annotations();
        const controllerutil::MutateFunction mutate = [&]() -> Status {
            if (secret.Uid().empty())
                secret.SetType(secret_type);  // immutable once created
            for (const auto& [key, value] : labels)
                secret.SetLabel(key, value);
            for (const auto& [key, value] : annotations)
                secret.SetAnnotation(key, value);
            for (const std::string& key : secret.DataKeys())
                if (!content.data.contains(key))
                    secret.RemoveDataValue(key);
            for (const auto& [key, value] : content.data)
                secret.SetDataValue(key, value);
            return controllerutil::SetControllerReference(cs_, secret, r_.scheme_);
        };
        CTRL_CO_ASSIGN_OR_RETURN(const controllerutil::OperationResult result,
                                 co_await controllerutil::CreateOrUpdate(ctx_, r_.client_, secret, mutate),
                                 "writing Secret " + secret.Key().String());
        if (result == controllerutil::OperationResult::kNone)
            co_return ctrl::OkStatus();
        const bool created = result == controllerutil::OperationResult::kCreated;
        r_.recorder_.Eventf(cs_, ctrl::api::kEventTypeNormal, created ? "SecretCreated" : "SecretUpdated",
                            "Secret %s %s with %zu keys of ConfigMap %s", secret_name.c_str(),
                            created ? "created" : "updated", content.data.size(), config_map_name.c_str());
        log_.Info("Secret written", "secret", secret_name, "operation", std::string(controllerutil::ToString(result)));
        co_return ctrl::OkStatus();
    }

    // The Ready condition once the Secret is written: KeysMissing (with a Warning Event) when the
    // ConfigMap lacks keys the spec names.
    ctrl::api::Condition ConditionFor(const SecretContent& content, const std::string& secret_name,
                                      const std::string& config_map_name) {
        if (content.missing_keys.empty())
            return Ready("Secret " + secret_name + " holds " + std::to_string(content.data.size()) +
                         " keys of ConfigMap " + config_map_name);
        std::string missing;
        for (const std::string& key : content.missing_keys)
            missing += (missing.empty() ? "" : ", ") + key;
        ctrl::api::Condition condition =
            NotReady(kReasonKeysMissing, "ConfigMap " + config_map_name + " lacks " + missing);
        r_.recorder_.Event(cs_, ctrl::api::kEventTypeWarning, kReasonKeysMissing, condition.message);
        return condition;
    }

    // Deletes the Secrets this ConfigSecret controls under another name (spec.target.name changed).
    Task<Status> DeleteOldSecrets(const std::string& current) {
        ctrl::api::SecretList secrets;
        const std::string ns(cs_.Namespace());
        CTRL_CO_RETURN_IF_ERROR(co_await r_.client_.List(ctx_, secrets, ctrl::client::InNamespace(ns)));
        CTRL_CO_ASSIGN_OR_RETURN(std::vector<ctrl::api::Secret> items, secrets.TakeItems());
        for (ctrl::api::Secret& old : items) {
            const std::optional<ctrl::OwnerReference> owner = controllerutil::GetControllerOf(old);
            if (old.Name() == current || !owner || owner->uid != cs_.Uid())
                continue;
            const Status deleted = co_await r_.client_.Delete(ctx_, old);
            CTRL_CO_RETURN_IF_ERROR(ctrl::IgnoreNotFound(deleted), "deleting the old Secret " + old.Key().String());
            log_.Info("Deleted a Secret under an old name", "secret", std::string(old.Name()));
        }
        co_return ctrl::OkStatus();
    }

    Task<Status> WriteStatus(const ctrl::Object& original, const SyncOutcome& outcome) {
        if (!ApplyStatus(cs_, outcome, std::chrono::system_clock::now()))
            co_return ctrl::OkStatus();
        ctrl::client::SubResourceClient status = r_.client_.Status();
        CTRL_CO_RETURN_IF_ERROR(co_await status.Patch(ctx_, cs_, ctrl::client::MergeFrom(original)),
                                "writing the status of ConfigSecret " + cs_.Key().String());
        co_return ctrl::OkStatus();
    }

    ConfigSecretReconciler& r_;
    Context ctx_;
    ctrl::log::Logger log_;
    ConfigSecret cs_;
};

Task<StatusOr<Result>> ConfigSecretReconciler::Reconcile(Context ctx, ctrl::Request request) {
    Run run(std::move(ctx), *this);
    co_return co_await run.Reconcile(std::move(request));
}

}  // namespace configsecret
