#pragma once

#include <string>

namespace ctrl::controller::internal {

// A fresh random (version 4) UUID in its 36-character text form: the reconcileID logged with one
// reconcile. Each thread draws from its own engine, seeded once from std::random_device, so the hot
// path makes no system call and no two threads or processes repeat one another's ids.
std::string NewReconcileId();

}  // namespace ctrl::controller::internal
