#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "runtime/core/field_selector.hpp"
#include "runtime/core/label_selector.hpp"
#include "runtime/core/labels.hpp"

namespace ctrl::client {

// Options of Get (metav1.GetOptions).
struct GetOptions {
    // Unset: the latest version (a quorum read). "0": any version the server has cached.
    std::optional<std::string> resource_version{};
};

// Options of List (controller-runtime's ListOptions). Every field defaults to "no restriction".
struct ListOptions {
    // InNamespace: "" lists every namespace. Ignored for cluster-scoped kinds.
    std::string namespace_name{};
    // MatchingLabels / MatchingLabelsSelector. Default: everything. A Nothing() selector lists
    // nothing and sends no request.
    LabelSelector label_selector{};
    // MatchingFields / MatchingFieldsSelector. Default: everything.
    FieldSelector field_selector{};
    // Limit: at most this many items in one page; the list's Continue() then names the next page.
    std::optional<int64_t> limit{};
    // Continue: the token of the page to read (from a previous page's Continue()).
    std::string continue_token{};
    // Unset: the latest version. "0": any cached version. Otherwise with resource_version_match.
    std::optional<std::string> resource_version{};
    // "", "NotOlderThan" or "Exact".
    std::string resource_version_match{};
};

// controller-runtime's MatchingLabels: the selector of objects carrying every one of labels.
inline LabelSelector MatchingLabels(const Labels& labels) {
    return LabelSelector::FromValidatedSet(labels);
}
// controller-runtime's MatchingFields: every field equal to its value.
inline FieldSelector MatchingFields(const Fields& fields) {
    return FieldSelector::FromSet(fields);
}

// Options every write shares.
struct WriteOptions {
    // DryRun(All): the server validates and answers as if it wrote, and persists nothing.
    bool dry_run = false;
    // FieldOwner: the field manager named in managedFields. "" uses the client's default
    // (client::Options::field_owner), and when that is empty the server derives one from the
    // user agent.
    std::string field_owner{};
    // "", "Ignore", "Warn" or "Strict": what the server does with unknown or duplicate fields.
    std::string field_validation{};
};

struct CreateOptions : WriteOptions {};
struct UpdateOptions : WriteOptions {};

struct PatchOptions : WriteOptions {
    // ForceOwnership, for server-side apply: take fields other managers own instead of answering
    // Conflict. Only valid with an apply patch.
    bool force = false;
};

// metav1.DeletionPropagation.
enum class PropagationPolicy {
    kOrphan,      // dependents are left in place
    kBackground,  // the object goes now; the garbage collector deletes dependents after
    kForeground,  // dependents go first; the object lingers with the foregroundDeletion finalizer
};

// metav1.Preconditions: the delete happens only when the object still has these.
struct Preconditions {
    std::optional<std::string> uid{};
    std::optional<std::string> resource_version{};
};

struct DeleteOptions {
    bool dry_run = false;
    // GracePeriodSeconds: 0 deletes immediately; unset uses the kind's default.
    std::optional<int64_t> grace_period_seconds{};
    // Unset: the kind's default policy.
    std::optional<PropagationPolicy> propagation_policy{};
    Preconditions preconditions{};
};

// DeleteAllOf: which objects (namespace and selectors; limit and continue are not used) and how.
struct DeleteAllOfOptions {
    ListOptions list{};
    DeleteOptions delete_options{};
};

struct SubResourceGetOptions {};
struct SubResourceCreateOptions : CreateOptions {};
struct SubResourceUpdateOptions : UpdateOptions {};
struct SubResourcePatchOptions : PatchOptions {};

}  // namespace ctrl::client
