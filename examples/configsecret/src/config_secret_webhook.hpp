#pragma once

#include <ctrl/ctrl.hpp>

namespace configsecret {

// Serves the conversion of ConfigSecrets between v1alpha1 and v1beta1 (the hub) at /convert on
// mgr's webhook server (kubebuilder's SetupWebhookWithManager). v1beta1 is the storage version, so
// the API server calls it for every ConfigSecret written or read as v1alpha1.
ctrl::Status SetupWebhookWithManager(ctrl::Manager& mgr);

}  // namespace configsecret
