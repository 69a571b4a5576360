#pragma once

#include <string_view>

#include <ctrl/ctrl.hpp>

namespace configsecret {

// The finalizer that makes a deleted ConfigSecret wait until its name is off the ConfigMaps it read.
inline constexpr std::string_view kFinalizer = "examples.ctrl.dev/release-configmap";
// The cache index of ConfigSecrets by spec.source.configMap (what a ConfigMap's events map through).
inline constexpr std::string_view kConfigMapNameField = "spec.source.configMap";

// Keeps, for each ConfigSecret, a Secret it controls that holds the chosen keys of its ConfigMap,
// and says in the ConfigSecret's status (a Ready condition) whether it could:
//   - the Secret is named spec.target.name (default: the ConfigSecret's name), of spec.target.type,
//     labelled with spec.target.labels, annotated with spec.target.annotations, and owned by the
//     ConfigSecret (garbage-collected with it); a Secret it controlled under an older name is
//     deleted;
//   - the ConfigMap is marked with the ConfigSecret's name (kUsedByAnnotation) while it is read, and
//     the finalizer takes the name off when the ConfigSecret is deleted;
//   - Events: Normal SecretCreated / SecretUpdated, Warning ConfigMapNotFound / KeysMissing.
class ConfigSecretReconciler final : public ctrl::Reconciler {
  public:
    ConfigSecretReconciler(ctrl::client::Client& client, const ctrl::scheme::Scheme& scheme,
                           ctrl::record::EventRecorder recorder)
        : client_(client), scheme_(scheme), recorder_(std::move(recorder)) {}

    ctrl::Task<ctrl::StatusOr<ctrl::Result>> Reconcile(ctrl::Context ctx, ctrl::Request request) override;

  private:
    class Run;
    ctrl::client::Client& client_;
    const ctrl::scheme::Scheme& scheme_;
    ctrl::record::EventRecorder recorder_;
};

// Registers the index and the controller with mgr (kubebuilder's SetupWithManager): For
// ConfigSecret (the hub, v1beta1), Owns Secret, Watches ConfigMap (mapped to the ConfigSecrets
// naming it).
ctrl::Status SetupWithManager(ctrl::Manager& mgr);

}  // namespace configsecret
