#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "ctrl/core/field_selector.hpp"
#include "ctrl/core/label_selector.hpp"
#include "ctrl/core/labels.hpp"

namespace ctrl::client {

// The options of each call, as structs with public members. None of them is an aggregate (each
// declares its constructor): GCC 12 destroys an aggregate with non-trivial members twice when it
// is built inside a co_await expression (docs/decisions.md, decision 16), so these cannot be built there
// by a designated initializer. Pass option values instead (option_values.hpp:
// `co_await client.List(ctx, pods, InNamespace(ns), MatchingLabels(labels))`), or a named
// options object. Each struct is also an option value of its own call: its set fields are
// applied over what earlier options set, as controller-runtime's ApplyOptions does.

// Options of Get (metav1.GetOptions).
struct GetOptions {
    GetOptions() = default;
    // Unset: the latest version (a quorum read). "0": any version the server has cached.
    std::optional<std::string> resource_version{};

    void ApplyToGet(GetOptions& options) const;
};

// Options of List (controller-runtime's ListOptions). Every field defaults to "no restriction".
struct ListOptions {
    ListOptions() = default;
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

    void ApplyToList(ListOptions& options) const;
};

// Options every write shares.
struct WriteOptions {
    WriteOptions() = default;
    // DryRun(All): the server validates and answers as if it wrote, and persists nothing.
    bool dry_run = false;
    // FieldOwner: the field manager named in managedFields. "" uses the client's default
    // (client::Options::field_owner), and when that is empty the server derives one from the
    // user agent.
    std::string field_owner{};
    // "", "Ignore", "Warn" or "Strict": what the server does with unknown or duplicate fields.
    std::string field_validation{};

    void ApplyToWrite(WriteOptions& options) const;
};

struct CreateOptions : WriteOptions {
    CreateOptions() = default;
    void ApplyToCreate(CreateOptions& options) const { ApplyToWrite(options); }
};

struct UpdateOptions : WriteOptions {
    UpdateOptions() = default;
    void ApplyToUpdate(UpdateOptions& options) const { ApplyToWrite(options); }
};

struct PatchOptions : WriteOptions {
    PatchOptions() = default;
    // ForceOwnership, for server-side apply: take fields other managers own instead of answering
    // Conflict. Only valid with an apply patch.
    bool force = false;

    void ApplyToPatch(PatchOptions& options) const;
};

// metav1.DeletionPropagation.
enum class DeletionPropagation {
    kOrphan,      // dependents are left in place
    kBackground,  // the object goes now; the garbage collector deletes dependents after
    kForeground,  // dependents go first; the object lingers with the foregroundDeletion finalizer
};

// metav1.Preconditions: the delete happens only when the object still has these. Also an
// option value of Delete and DeleteAllOf (client.Preconditions).
struct Preconditions {
    Preconditions() = default;
    Preconditions(std::optional<std::string> uid_value, std::optional<std::string> resource_version_value)
        : uid(std::move(uid_value)), resource_version(std::move(resource_version_value)) {}
    std::optional<std::string> uid{};
    std::optional<std::string> resource_version{};
};

struct DeleteOptions {
    DeleteOptions() = default;
    bool dry_run = false;
    // GracePeriodSeconds: 0 deletes immediately; unset uses the kind's default.
    std::optional<int64_t> grace_period_seconds{};
    // Unset: the kind's default policy.
    std::optional<DeletionPropagation> propagation_policy{};
    Preconditions preconditions{};

    void ApplyToDelete(DeleteOptions& options) const;
};

// DeleteAllOf: which objects (namespace and selectors; limit and continue are not used) and how.
struct DeleteAllOfOptions {
    DeleteAllOfOptions() = default;
    ListOptions list{};
    DeleteOptions delete_options{};

    void ApplyToDeleteAllOf(DeleteAllOfOptions& options) const;
};

struct SubResourceGetOptions {
    SubResourceGetOptions() = default;
    void ApplyToSubResourceGet(SubResourceGetOptions&) const {}
};
struct SubResourceCreateOptions : CreateOptions {
    SubResourceCreateOptions() = default;
    void ApplyToSubResourceCreate(SubResourceCreateOptions& options) const { ApplyToWrite(options); }
};
struct SubResourceUpdateOptions : UpdateOptions {
    SubResourceUpdateOptions() = default;
    void ApplyToSubResourceUpdate(SubResourceUpdateOptions& options) const { ApplyToWrite(options); }
};
struct SubResourcePatchOptions : PatchOptions {
    SubResourcePatchOptions() = default;
    void ApplyToSubResourcePatch(SubResourcePatchOptions& options) const { ApplyToPatch(options); }
};

}  // namespace ctrl::client
