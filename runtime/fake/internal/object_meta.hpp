#pragma once

#include <string>
#include <string_view>

#include "ctrl/core/gvk.hpp"
#include "ctrl/core/object.hpp"
#include "ctrl/core/status.hpp"

namespace ctrl::fake::internal {

// The metadata the API server fills in and checks, for the fake's writes.

// A random version 4 UUID, as the server gives metadata.uid.
std::string NewUid();
// Now as metav1.Time ("2026-01-02T03:04:05Z").
std::string Now();
// generateName plus five random characters from the server's alphabet (names.SimpleNameGenerator).
std::string GenerateName(std::string_view prefix);
// The server's name validation: a DNS-1123 label for namespaces, a DNS-1123 subdomain for other
// kinds. Invalid (naming metadata.name and the rule) when name breaks it.
Status ValidateName(const GroupVersionKind& gvk, std::string_view name);
// Whether a and b differ outside metadata and status: what bumps metadata.generation.
bool SpecChanged(const Object& a, const Object& b);
// Whether a and b are equal but for metadata.resourceVersion and metadata.managedFields: an
// update that changes nothing else keeps the resourceVersion, as the server's does.
bool SameButVersion(const Object& a, const Object& b);

}  // namespace ctrl::fake::internal
