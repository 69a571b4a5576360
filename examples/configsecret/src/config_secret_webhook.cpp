// The ConfigSecret webhook: v1alpha1, a spoke, converted to and from v1beta1, the hub (ctrl-gen
// declares ConvertTo and ConvertFrom; they are defined here). v1alpha1 says configMapName, keys,
// secretName, secretType and labels at the top of spec; v1beta1 says them in spec.source {configMap,
// keys} and spec.target {name, type, labels}, and adds spec.target.annotations and the Secret type
// kubernetes.io/tls. Annotations need no code here: what v1alpha1 cannot carry the runtime keeps in
// an annotation of the v1alpha1 object and restores when it comes back. A kubernetes.io/tls
// ConfigSecret has no v1alpha1 form at all: reading it as v1alpha1 is an error the client sees.

#include "config_secret_webhook.hpp"

#include <ctrl/webhook/conversion/copy_field.hpp>

#include "configsecret_api/config_secret_v1alpha1.hpp"

namespace examples::v1alpha1 {

using ctrl::webhook::conversion::CopyField;

ctrl::Status ConfigSecret::ConvertTo(ConversionHub& hub) const {
    CTRL_RETURN_IF_ERROR(CopyField(*this, {"spec", "configMapName"}, hub, {"spec", "source", "configMap"}));
    CTRL_RETURN_IF_ERROR(CopyField(*this, {"spec", "keys"}, hub, {"spec", "source", "keys"}));
    CTRL_RETURN_IF_ERROR(CopyField(*this, {"spec", "secretName"}, hub, {"spec", "target", "name"}));
    CTRL_RETURN_IF_ERROR(CopyField(*this, {"spec", "secretType"}, hub, {"spec", "target", "type"}));
    CTRL_RETURN_IF_ERROR(CopyField(*this, {"spec", "labels"}, hub, {"spec", "target", "labels"}));
    return CopyField(*this, hub, {"status"});
}

ctrl::Status ConfigSecret::ConvertFrom(const ConversionHub& hub) {
    if (const std::string type = hub.Spec().Target().Type();
        type == examples::v1beta1::ConfigSecretSpecTargetType::kKubernetesIoTls) {
        return ctrl::InvalidError("spec.target.type " + type +
                                  " has no v1alpha1 form (its secretType is Opaque, kubernetes.io/basic-auth or "
                                  "kubernetes.io/ssh-auth): read this ConfigSecret as examples.ctrl.dev/v1beta1");
    }
    CTRL_RETURN_IF_ERROR(CopyField(hub, {"spec", "source", "configMap"}, *this, {"spec", "configMapName"}));
    CTRL_RETURN_IF_ERROR(CopyField(hub, {"spec", "source", "keys"}, *this, {"spec", "keys"}));
    CTRL_RETURN_IF_ERROR(CopyField(hub, {"spec", "target", "name"}, *this, {"spec", "secretName"}));
    CTRL_RETURN_IF_ERROR(CopyField(hub, {"spec", "target", "type"}, *this, {"spec", "secretType"}));
    CTRL_RETURN_IF_ERROR(CopyField(hub, {"spec", "target", "labels"}, *this, {"spec", "labels"}));
    return CopyField(hub, *this, {"status"});
}

}  // namespace examples::v1alpha1

namespace configsecret {

ctrl::Status SetupWebhookWithManager(ctrl::Manager& mgr) {
    // v1beta1 is the hub and names its spoke, v1alpha1: the builder registers their conversion.
    return ctrl::NewWebhookManagedBy(mgr).For<examples::v1beta1::ConfigSecret>().Complete();
}

}  // namespace configsecret
