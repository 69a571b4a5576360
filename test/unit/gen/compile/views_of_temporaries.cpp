// What generated accessors accept (ctest gen_views_*, label tool; test/support/compile_check.sh).
// As it is, this file compiles (and builds with the project): every natural form on a named object,
// on a view, or through a temporary view of a named object. With one CTRL_COMPILE_FAIL_* macro
// defined, a view into a temporary kind, which would dangle, must not compile.
#include <string>
#include <utility>
#include <vector>

#include "ctrl/core/object.hpp"
#include "gen/gallery.hpp"
#include "real/cert.hpp"

namespace cert_forms {

using real::pki::v1::Cert;
using real::pki::v1::CertView;

Cert MakeCert();  // a Cert by value: a temporary at each call
gentest::collections::v1::Gallery MakeGallery();

inline std::string NaturalForms(Cert& cert, const Cert& named, const ctrl::Object& object) {
    std::string out = cert.Spec().IssuerRef().Name();  // a chain of views ends in a value
    const auto issuer = named.Spec().IssuerRef();      // a view of a named object
    out += issuer.Kind();
    out += CertView(named).Spec().IssuerRef().Name();  // a temporary view is only a handle
    out += CertView(object).Spec().CommonName().value_or("");
    for (const auto& condition : named.Status().Conditions())
        out += condition.Type();
    const ctrl::scheme::FieldRef handle = named.Spec().Ref();  // from a temporary view: a copy
    out += handle.PathString();
    cert.MutableSpec().MutableIssuerRef().SetName("ca");
    cert.MutableStatus().AddConditions().SetStatus(real::pki::v1::CertStatusConditionsStatus::kTrue);
    out += MakeCert().Name();  // values read from a temporary are copies: fine
    out += MakeCert().HasSpec() ? "spec" : "";
    gentest::collections::v1::Gallery gallery = MakeGallery();
    gallery.AddLights().SetWatts(40);
    gallery.MutableRooms("hall").SetFloor(1);
    out += std::to_string(gallery.Lights().size() + gallery.Rooms().size());
    return out;
}

#if defined(CTRL_COMPILE_FAIL_VIEW_OF_TEMPORARY)
auto Dangling() {
    return MakeCert().Spec().IssuerRef();
}
#elif defined(CTRL_COMPILE_FAIL_MUTABLE_VIEW_OF_TEMPORARY)
auto Dangling() {
    return MakeCert().MutableSpec();
}
#elif defined(CTRL_COMPILE_FAIL_VIEWS_OF_TEMPORARY)
auto Dangling() {
    return MakeGallery().Lights();
}  // views into each item
#elif defined(CTRL_COMPILE_FAIL_MAP_OF_VIEWS_OF_TEMPORARY)
auto Dangling() {
    return MakeGallery().Rooms();
}
#elif defined(CTRL_COMPILE_FAIL_ADDED_VIEW_OF_TEMPORARY)
auto Dangling() {
    return MakeGallery().AddLights();
}
#elif defined(CTRL_COMPILE_FAIL_VIEW_OF_MOVED)
auto Dangling(Cert& cert) {
    return std::move(cert).Spec();
}
#elif defined(CTRL_COMPILE_FAIL_KIND_VIEW_OF_TEMPORARY)
auto Dangling() {
    return CertView(MakeCert());
}
#elif defined(CTRL_COMPILE_FAIL_KIND_VIEW_OF_TEMPORARY_OBJECT)
auto Dangling() {
    return CertView(ctrl::Object());
}
#endif

}  // namespace cert_forms
