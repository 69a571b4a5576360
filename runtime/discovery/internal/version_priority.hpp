#pragma once

#include <string_view>

namespace ctrl::discovery::internal {

// Kubernetes' version priority (apimachinery's CompareKubeAwareVersionStrings): GA before beta
// before alpha, higher numbers first ("v2" < "v1" < "v1beta2" < "v1beta1" < "v1alpha1"), and
// versions that do not look like Kubernetes versions last, in lexical order. Returns true when
// a is preferred over b.
bool PreferredVersion(std::string_view a, std::string_view b);

}  // namespace ctrl::discovery::internal
