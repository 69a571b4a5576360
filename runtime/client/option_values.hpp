#pragma once

#include <concepts>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>

#include "ctrl/client/options.hpp"
#include "ctrl/core/field_selector.hpp"
#include "ctrl/core/label_selector.hpp"
#include "ctrl/core/labels.hpp"

namespace ctrl::client {

// controller-runtime's option values, passed after the object of a call:
//   co_await client.List(ctx, pods, InNamespace(ns), MatchingLabels("app", "web"), Limit(500));
//   co_await client.Patch(ctx, pod, MergeFrom(original), FieldOwner("my-operator"));
//   co_await client.Delete(ctx, pod, GracePeriodSeconds(0), PropagationPolicy(DeletionPropagation::kForeground));
// Each is a small class with a constructor (never an aggregate, so writing one inside a co_await
// is safe on GCC 12) that applies itself to the options of the calls it fits; a value that does
// not fit a call does not compile there. Later values override earlier ones.

// The concepts the client's templates check, one per call.
template <typename T>
concept GetOption = requires(const T& t, GetOptions& o) {
    t.ApplyToGet(o);
};
template <typename T>
concept ListOption = requires(const T& t, ListOptions& o) {
    t.ApplyToList(o);
};
template <typename T>
concept CreateOption = requires(const T& t, CreateOptions& o) {
    t.ApplyToCreate(o);
};
template <typename T>
concept UpdateOption = requires(const T& t, UpdateOptions& o) {
    t.ApplyToUpdate(o);
};
template <typename T>
concept PatchOption = requires(const T& t, PatchOptions& o) {
    t.ApplyToPatch(o);
};
template <typename T>
concept DeleteOption = requires(const T& t, DeleteOptions& o) {
    t.ApplyToDelete(o);
};
template <typename T>
concept DeleteAllOfOption = requires(const T& t, DeleteAllOfOptions& o) {
    t.ApplyToDeleteAllOf(o);
};
template <typename T>
concept SubResourceGetOption = requires(const T& t, SubResourceGetOptions& o) {
    t.ApplyToSubResourceGet(o);
};
template <typename T>
concept SubResourceCreateOption = requires(const T& t, SubResourceCreateOptions& o) {
    t.ApplyToSubResourceCreate(o);
};
template <typename T>
concept SubResourceUpdateOption = requires(const T& t, SubResourceUpdateOptions& o) {
    t.ApplyToSubResourceUpdate(o);
};
template <typename T>
concept SubResourcePatchOption = requires(const T& t, SubResourcePatchOptions& o) {
    t.ApplyToSubResourcePatch(o);
};

// A value that applies to every write that takes WriteOptions (create, update, patch and their
// subresource forms); Self provides ApplyToWrite.
template <typename Self>
struct WriteOptionValue {
    void ApplyToCreate(CreateOptions& o) const { Me().ApplyToWrite(o); }
    void ApplyToUpdate(UpdateOptions& o) const { Me().ApplyToWrite(o); }
    void ApplyToPatch(PatchOptions& o) const { Me().ApplyToWrite(o); }
    void ApplyToSubResourceCreate(SubResourceCreateOptions& o) const { Me().ApplyToWrite(o); }
    void ApplyToSubResourceUpdate(SubResourceUpdateOptions& o) const { Me().ApplyToWrite(o); }
    void ApplyToSubResourcePatch(SubResourcePatchOptions& o) const { Me().ApplyToWrite(o); }

  private:
    const Self& Me() const { return static_cast<const Self&>(*this); }
};

// InNamespace(ns): List and DeleteAllOf in one namespace.
class InNamespace {
  public:
    explicit InNamespace(std::string namespace_name) : namespace_name_(std::move(namespace_name)) {}
    void ApplyToList(ListOptions& o) const { o.namespace_name = namespace_name_; }
    void ApplyToDeleteAllOf(DeleteAllOfOptions& o) const { ApplyToList(o.list); }

  private:
    std::string namespace_name_;
};

// MatchingLabels(labels) / MatchingLabels(key, value): objects carrying every one of the labels
// (not validated: the server rejects an invalid one).
class MatchingLabels {
  public:
    explicit MatchingLabels(const Labels& labels) : selector_(LabelSelector::FromValidatedSet(labels)) {}
    MatchingLabels(std::string key, std::string value)
        : selector_(LabelSelector::FromValidatedSet(Labels{{std::move(key), std::move(value)}})) {}
    const LabelSelector& Selector() const { return selector_; }
    void ApplyToList(ListOptions& o) const { o.label_selector = selector_; }
    void ApplyToDeleteAllOf(DeleteAllOfOptions& o) const { ApplyToList(o.list); }

  private:
    LabelSelector selector_;
};

// MatchingLabelsSelector(selector): objects the parsed selector matches.
class MatchingLabelsSelector {
  public:
    explicit MatchingLabelsSelector(LabelSelector selector) : selector_(std::move(selector)) {}
    void ApplyToList(ListOptions& o) const { o.label_selector = selector_; }
    void ApplyToDeleteAllOf(DeleteAllOfOptions& o) const { ApplyToList(o.list); }

  private:
    LabelSelector selector_;
};

// MatchingFields(fields) / MatchingFields(field, value): every field equal to its value. The cache
// answers a field other than metadata.name / metadata.namespace through an IndexField index.
class MatchingFields {
  public:
    explicit MatchingFields(const Fields& fields) : selector_(FieldSelector::FromSet(fields)) {}
    MatchingFields(std::string field, std::string value)
        : selector_(FieldSelector::OneTermEqual(std::move(field), std::move(value))) {}
    const FieldSelector& Selector() const { return selector_; }
    void ApplyToList(ListOptions& o) const { o.field_selector = selector_; }
    void ApplyToDeleteAllOf(DeleteAllOfOptions& o) const { ApplyToList(o.list); }

  private:
    FieldSelector selector_;
};

// MatchingFieldsSelector(selector): objects the parsed field selector matches.
class MatchingFieldsSelector {
  public:
    explicit MatchingFieldsSelector(FieldSelector selector) : selector_(std::move(selector)) {}
    void ApplyToList(ListOptions& o) const { o.field_selector = selector_; }
    void ApplyToDeleteAllOf(DeleteAllOfOptions& o) const { ApplyToList(o.list); }

  private:
    FieldSelector selector_;
};

// Limit(n): one page of at most n items; the list's Continue() names the next.
class Limit {
  public:
    explicit Limit(int64_t limit) : limit_(limit) {}
    void ApplyToList(ListOptions& o) const { o.limit = limit_; }

  private:
    int64_t limit_;
};

// Continue(token): the page a previous page's Continue() named.
class Continue {
  public:
    explicit Continue(std::string token) : token_(std::move(token)) {}
    void ApplyToList(ListOptions& o) const { o.continue_token = token_; }

  private:
    std::string token_;
};

// ResourceVersion(rv): Get or List at a resource version ("0": any the server has cached).
class ResourceVersion {
  public:
    explicit ResourceVersion(std::string resource_version) : resource_version_(std::move(resource_version)) {}
    void ApplyToGet(GetOptions& o) const { o.resource_version = resource_version_; }
    void ApplyToList(ListOptions& o) const { o.resource_version = resource_version_; }

  private:
    std::string resource_version_;
};

// DryRunAll: the server validates and answers as if it wrote, and persists nothing.
class DryRunAll : public WriteOptionValue<DryRunAll> {
  public:
    DryRunAll() = default;
    void ApplyToWrite(WriteOptions& o) const { o.dry_run = true; }
    void ApplyToDelete(DeleteOptions& o) const { o.dry_run = true; }
    void ApplyToDeleteAllOf(DeleteAllOfOptions& o) const { o.delete_options.dry_run = true; }
};

// FieldOwner(name): the field manager of a write.
class FieldOwner : public WriteOptionValue<FieldOwner> {
  public:
    explicit FieldOwner(std::string owner) : owner_(std::move(owner)) {}
    void ApplyToWrite(WriteOptions& o) const { o.field_owner = owner_; }

  private:
    std::string owner_;
};

// FieldValidation("Strict" | "Warn" | "Ignore"): what the server does with unknown fields.
class FieldValidation : public WriteOptionValue<FieldValidation> {
  public:
    explicit FieldValidation(std::string mode) : mode_(std::move(mode)) {}
    void ApplyToWrite(WriteOptions& o) const { o.field_validation = mode_; }

  private:
    std::string mode_;
};

// ForceOwnership: a server-side apply takes fields other managers own.
class ForceOwnership {
  public:
    ForceOwnership() = default;
    void ApplyToPatch(PatchOptions& o) const { o.force = true; }
    void ApplyToSubResourcePatch(SubResourcePatchOptions& o) const { o.force = true; }
};

// GracePeriodSeconds(s): 0 deletes at once.
class GracePeriodSeconds {
  public:
    explicit GracePeriodSeconds(int64_t seconds) : seconds_(seconds) {}
    void ApplyToDelete(DeleteOptions& o) const { o.grace_period_seconds = seconds_; }
    void ApplyToDeleteAllOf(DeleteAllOfOptions& o) const { ApplyToDelete(o.delete_options); }

  private:
    int64_t seconds_;
};

// PropagationPolicy(policy): what happens to dependents.
class PropagationPolicy {
  public:
    explicit PropagationPolicy(DeletionPropagation policy) : policy_(policy) {}
    void ApplyToDelete(DeleteOptions& o) const { o.propagation_policy = policy_; }
    void ApplyToDeleteAllOf(DeleteAllOfOptions& o) const { ApplyToDelete(o.delete_options); }

  private:
    DeletionPropagation policy_;
};

// Preconditions as an option value (client.Preconditions): the delete happens only when the
// object still has this uid and/or resourceVersion.
class DeletePreconditions {
  public:
    explicit DeletePreconditions(Preconditions preconditions) : preconditions_(std::move(preconditions)) {}
    void ApplyToDelete(DeleteOptions& o) const { o.preconditions = preconditions_; }
    void ApplyToDeleteAllOf(DeleteAllOfOptions& o) const { ApplyToDelete(o.delete_options); }

  private:
    Preconditions preconditions_;
};

}  // namespace ctrl::client
