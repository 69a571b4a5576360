#pragma once

namespace ctrl::scheme {

// A list of typed kinds at compile time, e.g. the spokes a conversion hub names:
//   using ConversionSpokes = ctrl::scheme::KindList<v1alpha1::Widget, v1alpha2::Widget>;
// Naming a KindList needs only declarations of its kinds, so two kinds' headers can name each
// other.
template <typename... Kinds>
struct KindList {};

}  // namespace ctrl::scheme
