#include "ctrl/webhook/internal/cert_plan.hpp"

#include <algorithm>

#include "ctrl/server/tls_identity.hpp"
#include "ctrl/webhook/internal/certificate_authority.hpp"

namespace ctrl::webhook::internal {
namespace {

using Clock = std::chrono::system_clock;

// When a certificate is due for renewal: a third of its validity before its end.
Clock::time_point DueAt(const CertificateFacts& facts) {
    return facts.not_after - (facts.not_after - facts.not_before) / 3;
}

bool Matches(std::string_view cert, std::string_view key) {
    return !cert.empty() && !key.empty() && server::TlsIdentity::FromPem(cert, key).Ok();
}

bool Covers(const CertificateFacts& facts, const CertWants& wants) {
    for (const std::string& dns : wants.dns_names)
        if (std::find(facts.dns_names.begin(), facts.dns_names.end(), dns) == facts.dns_names.end())
            return false;
    for (const std::string& ip : wants.ips)
        if (std::find(facts.ips.begin(), facts.ips.end(), ip) == facts.ips.end())
            return false;
    return true;
}

std::string Join(const std::vector<std::string>& pems) {
    std::string out;
    for (const std::string& pem : pems)
        out += pem;
    return out;
}

}  // namespace

StatusOr<CertPlan> PlanCertificates(const CertSecretData& current, const CertWants& wants, Clock::time_point now) {
    CertPlan plan;
    plan.next = current;
    std::vector<std::string> bundle = SplitPemCertificates(current.ca_bundle);
    StatusOr<CertificateFacts> ca =
        bundle.empty() ? StatusOr<CertificateFacts>(BadRequestError("no CA")) : ReadCertificate(bundle.front());
    const bool ca_usable = ca.Ok() && ca->not_after > now && Matches(bundle.front(), current.ca_key);
    bool fresh_start = false;
    if (!ca_usable || DueAt(*ca) <= now) {
        CTRL_ASSIGN_OR_RETURN(PemPair made, NewCertificateAuthority(wants.ca_name, wants.ca_validity, now));
        if (ca_usable)
            plan.why = "CA renewed";
        else
            plan.why = bundle.empty() ? "new CA" : "CA replaced (expired or unusable)";
        fresh_start = !ca_usable;
        bundle.insert(bundle.begin(), made.cert);
        plan.next.ca_key = made.key;
        plan.next.ca_since = now;
        plan.changed = true;
    }
    // Older CAs stay while they are valid: a replica may still serve a certificate one signed.
    std::vector<std::string> kept = {bundle.front()};
    Clock::time_point wake = Clock::time_point::max();
    for (std::size_t i = 1; i < bundle.size(); ++i) {
        StatusOr<CertificateFacts> old = ReadCertificate(bundle[i]);
        if (old.Ok() && old->not_after > now) {
            kept.push_back(bundle[i]);
            wake = std::min(wake, old->not_after);
        }
    }
    plan.changed = plan.changed || kept.size() != bundle.size();
    plan.next.ca_bundle = Join(kept);
    CTRL_ASSIGN_OR_RETURN(CertificateFacts current_ca, ReadCertificate(kept.front()));
    wake = std::min(wake, DueAt(current_ca));

    StatusOr<CertificateFacts> serving = ReadCertificate(current.tls_crt);
    const bool serving_valid = serving.Ok() && serving->not_after > now && Matches(current.tls_crt, current.tls_key);
    const bool serving_good =
        serving_valid && SignedBy(current.tls_crt, kept.front()) && Covers(*serving, wants) && DueAt(*serving) > now;
    if (serving_good) {
        wake = std::min(wake, DueAt(*serving));
    } else {
        const Clock::time_point trusted_at = plan.next.ca_since + wants.propagation_delay;
        const bool still_served_elsewhere = serving_valid && Covers(*serving, wants) &&
                                            std::any_of(kept.begin(), kept.end(), [&](const std::string& one) {
                                                return SignedBy(current.tls_crt, one);
                                            });
        if (!fresh_start && now < trusted_at && still_served_elsewhere) {
            wake = std::min(wake, trusted_at);  // the new CA is not trusted everywhere yet
        } else {
            CTRL_ASSIGN_OR_RETURN(PemPair issued,
                                  IssueServingCertificate(PemPair{kept.front(), plan.next.ca_key}, wants.dns_names,
                                                          wants.ips, wants.cert_validity, now));
            plan.next.tls_crt = issued.cert;
            plan.next.tls_key = issued.key;
            plan.changed = true;
            plan.why += plan.why.empty() ? "serving certificate issued" : "; serving certificate issued";
            CTRL_ASSIGN_OR_RETURN(CertificateFacts fresh, ReadCertificate(issued.cert));
            wake = std::min(wake, DueAt(fresh));
        }
    }
    plan.wake_at = wake;
    return plan;
}

}  // namespace ctrl::webhook::internal
