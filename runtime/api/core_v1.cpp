#include "runtime/api/core_v1.hpp"

#include "runtime/api/config_map.hpp"
#include "runtime/api/event.hpp"
#include "runtime/api/namespace.hpp"
#include "runtime/api/pod.hpp"
#include "runtime/api/secret.hpp"
#include "runtime/api/service_account.hpp"

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
