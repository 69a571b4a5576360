#include "ctrl/client/options.hpp"

namespace ctrl::client {

// Each options struct applies its set fields over options (controller-runtime's ApplyOptions):
// an empty string, an unset optional, an Everything selector and false leave the target as it was.

void GetOptions::ApplyToGet(GetOptions& options) const {
    if (resource_version)
        options.resource_version = resource_version;
}

void ListOptions::ApplyToList(ListOptions& options) const {
    if (!namespace_name.empty())
        options.namespace_name = namespace_name;
    if (!label_selector.Empty())
        options.label_selector = label_selector;
    if (!field_selector.Empty())
        options.field_selector = field_selector;
    if (limit)
        options.limit = limit;
    if (!continue_token.empty())
        options.continue_token = continue_token;
    if (resource_version)
        options.resource_version = resource_version;
    if (!resource_version_match.empty())
        options.resource_version_match = resource_version_match;
}

void WriteOptions::ApplyToWrite(WriteOptions& options) const {
    if (dry_run)
        options.dry_run = true;
    if (!field_owner.empty())
        options.field_owner = field_owner;
    if (!field_validation.empty())
        options.field_validation = field_validation;
}

void PatchOptions::ApplyToPatch(PatchOptions& options) const {
    ApplyToWrite(options);
    if (force)
        options.force = true;
}

void DeleteOptions::ApplyToDelete(DeleteOptions& options) const {
    if (dry_run)
        options.dry_run = true;
    if (grace_period_seconds)
        options.grace_period_seconds = grace_period_seconds;
    if (propagation_policy)
        options.propagation_policy = propagation_policy;
    if (preconditions.uid)
        options.preconditions.uid = preconditions.uid;
    if (preconditions.resource_version)
        options.preconditions.resource_version = preconditions.resource_version;
}

void DeleteAllOfOptions::ApplyToDeleteAllOf(DeleteAllOfOptions& options) const {
    list.ApplyToList(options.list);
    delete_options.ApplyToDelete(options.delete_options);
}

}  // namespace ctrl::client
