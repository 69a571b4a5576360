// The generated kind of each real-world CRD, behind RealCrd::validate.
#include "rw/alertmanagerconfig/alertmanager_config_v1beta1.hpp"
#include "rw/application/application.hpp"
#include "rw/certificate/certificate.hpp"
#include "rw/externalsecret/external_secret.hpp"
#include "rw/gateway/gateway_v1.hpp"
#include "rw/httproute/http_route_v1.hpp"
#include "rw/kustomization/kustomization.hpp"
#include "rw/prometheus/prometheus.hpp"
#include "rw/scaledobject/scaled_object.hpp"
#include "rw/schedule/schedule.hpp"
#include "rw/servicemonitor/service_monitor.hpp"
#include "test/unit/gen/realworld/realworld_cases.hpp"

namespace ctrl::realworld {

namespace {

template <typename Kind>
std::vector<std::string> ValidateAs(const std::string& json) {
    auto parsed = Kind::Parse(json);
    if (!parsed.Ok())
        return {"parse: " + parsed.GetStatus().Message()};
    return CauseFields(parsed->Validate());
}

template <typename Kind>
std::string RoundTripAs(const std::string& json) {
    auto parsed = Kind::Parse(json);
    return parsed.Ok() ? parsed->ToJson() : "parse: " + parsed.GetStatus().Message();
}

template <typename Kind>
RealCrd Crd(std::string name, std::string file) {
    return RealCrd{std::move(name), std::move(file), std::string(Kind::kGroupVersionKind.kind), ValidateAs<Kind>,
                   RoundTripAs<Kind>};
}

}  // namespace

const std::vector<RealCrd>& RealCrds() {
    static const std::vector<RealCrd> crds{
        Crd<rw::httproute::v1::HTTPRoute>("httproute", "gateway.networking.k8s.io_httproutes.yaml"),
        Crd<rw::gateway::v1::Gateway>("gateway", "gateway.networking.k8s.io_gateways.yaml"),
        Crd<rw::certificate::v1::Certificate>("certificate", "cert-manager.io_certificates.yaml"),
        Crd<rw::prometheus::v1::Prometheus>("prometheus", "monitoring.coreos.com_prometheuses.yaml"),
        Crd<rw::alertmanagerconfig::v1beta1::AlertmanagerConfig>("alertmanagerconfig",
                                                                 "monitoring.coreos.com_alertmanagerconfigs.yaml"),
        Crd<rw::servicemonitor::v1::ServiceMonitor>("servicemonitor", "monitoring.coreos.com_servicemonitors.yaml"),
        Crd<rw::scaledobject::v1alpha1::ScaledObject>("scaledobject", "keda.sh_scaledobjects.yaml"),
        Crd<rw::kustomization::v1::Kustomization>("kustomization", "kustomize.toolkit.fluxcd.io_kustomizations.yaml"),
        Crd<rw::externalsecret::v1::ExternalSecret>("externalsecret", "external-secrets.io_externalsecrets.yaml"),
        Crd<rw::schedule::v1::Schedule>("schedule", "velero.io_schedules.yaml"),
        Crd<rw::application::v1alpha1::Application>("application", "application-crd.yaml"),
    };
    return crds;
}

}  // namespace ctrl::realworld
