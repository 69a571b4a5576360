#include "ctrl/api/apiextensions_v1.hpp"

#include "ctrl/api/custom_resource_definition.hpp"

namespace ctrl::api::apiextensionsv1 {

Status AddToScheme(scheme::Scheme& scheme) {
    return scheme.AddKnownType<CustomResourceDefinition>();
}

}  // namespace ctrl::api::apiextensionsv1
