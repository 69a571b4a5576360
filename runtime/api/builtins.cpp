#include "ctrl/api/builtins.hpp"

#include "ctrl/api/apiextensions_v1.hpp"
#include "ctrl/api/coordination_v1.hpp"
#include "ctrl/api/core_v1.hpp"

namespace ctrl::api {

Status AddAllBuiltinsToScheme(scheme::Scheme& scheme) {
    CTRL_RETURN_IF_ERROR(corev1::AddToScheme(scheme));
    CTRL_RETURN_IF_ERROR(coordinationv1::AddToScheme(scheme));
    return apiextensionsv1::AddToScheme(scheme);
}

}  // namespace ctrl::api
