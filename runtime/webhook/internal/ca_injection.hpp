#pragma once

#include <string>
#include <string_view>

#include "ctrl/client/client.hpp"
#include "ctrl/core/context.hpp"
#include "ctrl/core/gvk.hpp"
#include "ctrl/core/object.hpp"
#include "ctrl/core/task.hpp"

namespace ctrl::webhook::internal {

inline const GroupVersionKind kValidatingWebhookConfiguration("admissionregistration.k8s.io", "v1",
                                                              "ValidatingWebhookConfiguration");
inline const GroupVersionKind kMutatingWebhookConfiguration("admissionregistration.k8s.io", "v1",
                                                            "MutatingWebhookConfiguration");
inline const GroupVersionKind kCustomResourceDefinition("apiextensions.k8s.io", "v1", "CustomResourceDefinition");

// Sets the CA bundle (ca_bundle_base64: base64 of the PEM bundle, as the API stores it) of every
// webhook of a webhook configuration, or of a CRD's conversion webhook. Returns whether the object
// changed. BadRequest for an object of another kind, or a CRD without a webhook conversion.
StatusOr<bool> SetCaBundle(Object& object, std::string_view ca_bundle_base64);

// Reads the object named name of kind, sets its CA bundle, and updates it when that changed. OK
// when the object does not exist (yet: its watch brings it later).
Task<Status> InjectCaBundle(Context ctx, client::Client& writer, GroupVersionKind kind, std::string name,
                            std::string ca_bundle_base64);

}  // namespace ctrl::webhook::internal
