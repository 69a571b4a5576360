#pragma once

#include "ctrl/core/status.hpp"
#include "ctrl/scheme/scheme.hpp"

// The apiextensions.k8s.io API group, version v1: CustomResourceDefinition.
namespace ctrl::api::apiextensionsv1 {

// Registers CustomResourceDefinition and CustomResourceDefinitionList.
Status AddToScheme(scheme::Scheme& scheme);

}  // namespace ctrl::api::apiextensionsv1
