#include "ctrl/api/core_v1.hpp"

#include "ctrl/api/config_map.hpp"
#include "ctrl/api/event.hpp"
#include "ctrl/api/namespace.hpp"
#include "ctrl/api/pod.hpp"
#include "ctrl/api/secret.hpp"
#include "ctrl/api/service_account.hpp"

namespace ctrl::api::corev1 {

Status AddToScheme(scheme::Scheme& scheme) {
    CTRL_RETURN_IF_ERROR(scheme.AddKnownType<Pod>());
    CTRL_RETURN_IF_ERROR(scheme.AddKnownType<api::Namespace>());
    CTRL_RETURN_IF_ERROR(scheme.AddKnownType<ServiceAccount>());
    CTRL_RETURN_IF_ERROR(scheme.AddKnownType<ConfigMap>());
    CTRL_RETURN_IF_ERROR(scheme.AddKnownType<Secret>());
    return scheme.AddKnownType<Event>();
}

}  // namespace ctrl::api::corev1
