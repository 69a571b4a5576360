#pragma once

#include "ctrl/core/status.hpp"
#include "ctrl/scheme/scheme.hpp"

// The core API group, version v1: Pod, Namespace, ServiceAccount, ConfigMap, Secret, Event.
namespace ctrl::api::corev1 {

// Registers the kinds of core/v1 this runtime has typed views for, and their lists.
Status AddToScheme(scheme::Scheme& scheme);

}  // namespace ctrl::api::corev1
