#include "runtime/api/builtins.hpp"

#include "runtime/api/apiextensions_v1.hpp"
#include "runtime/api/coordination_v1.hpp"
#include "runtime/api/core_v1.hpp"

namespace ctrl::api {

Status AddAllBuiltinsToScheme(scheme::Scheme& scheme) {
    CTRL_RETURN_IF_ERROR(corev1::AddToScheme(scheme));
    CTRL_RETURN_IF_ERROR(coordinationv1::AddToScheme(scheme));
    return apiextensionsv1::AddToScheme(scheme);
}

}  // namespace ctrl::api
