// The shape that makes the client API safe inside a co_await expression under GCC 12 (issue 12):
// keys, GVKs and options are not aggregates (so nothing can build them as one inside co_await),
// option values fit only the calls they belong to, and APIs that keep a reference refuse a
// temporary. Plus how option values combine into a call's options.

#include <gtest/gtest.h>

#include <type_traits>
#include <utility>

#include "ctrl/api/pod.hpp"
#include "ctrl/client/client.hpp"
#include "ctrl/client/option_values.hpp"
#include "ctrl/client/patch.hpp"

namespace ctrl::client {
namespace {

// Aggregates with non-trivial members are what GCC 12 destroys twice; none of these is one.
static_assert(!std::is_aggregate_v<ObjectKey>);
static_assert(!std::is_aggregate_v<GroupVersionKind>);
static_assert(!std::is_aggregate_v<GroupVersionResource>);
static_assert(!std::is_aggregate_v<GroupVersion>);
static_assert(!std::is_aggregate_v<GroupKind>);
static_assert(!std::is_aggregate_v<GetOptions>);
static_assert(!std::is_aggregate_v<ListOptions>);
static_assert(!std::is_aggregate_v<CreateOptions>);
static_assert(!std::is_aggregate_v<UpdateOptions>);
static_assert(!std::is_aggregate_v<PatchOptions>);
static_assert(!std::is_aggregate_v<DeleteOptions>);
static_assert(!std::is_aggregate_v<DeleteAllOfOptions>);
static_assert(!std::is_aggregate_v<Preconditions>);
static_assert(!std::is_aggregate_v<SubResourcePatchOptions>);
static_assert(!std::is_aggregate_v<InNamespace>);
static_assert(!std::is_aggregate_v<MatchingLabels>);
static_assert(!std::is_aggregate_v<MatchingFields>);
static_assert(!std::is_aggregate_v<FieldOwner>);
// Aggregates that stay are trivially destructible, which GCC 12 handles.
static_assert(std::is_trivially_destructible_v<MergeFromOptions>);
static_assert(std::is_trivially_destructible_v<Patch>);

// Each value fits exactly the calls it belongs to.
static_assert(ListOption<InNamespace> && DeleteAllOfOption<InNamespace> && !GetOption<InNamespace>);
static_assert(ListOption<MatchingLabels> && !CreateOption<MatchingLabels>);
static_assert(ListOption<Limit> && !DeleteAllOfOption<Limit>);
static_assert(CreateOption<FieldOwner> && UpdateOption<FieldOwner> && PatchOption<FieldOwner> &&
              SubResourcePatchOption<FieldOwner> && !DeleteOption<FieldOwner>);
static_assert(CreateOption<DryRunAll> && DeleteOption<DryRunAll> && DeleteAllOfOption<DryRunAll>);
static_assert(PatchOption<ForceOwnership> && !CreateOption<ForceOwnership>);
static_assert(DeleteOption<GracePeriodSeconds> && !ListOption<GracePeriodSeconds>);
static_assert(GetOption<ResourceVersion> && ListOption<ResourceVersion>);
static_assert(ListOption<ListOptions> && DeleteOption<DeleteOptions> && PatchOption<PatchOptions>);

// A reference kept past the call refuses a temporary at compile time.
template <typename T>
concept MergeFromAccepts = requires(T&& t) {
    MergeFrom(std::forward<T>(t));
};
static_assert(MergeFromAccepts<const api::Pod&>);
static_assert(!MergeFromAccepts<api::Pod>, "MergeFrom(pod.DeepCopy()) would dangle");
template <typename T>
concept RawPatchAccepts = requires(T&& t) {
    RawPatch(PatchType::kMergePatch, std::forward<T>(t));
};
static_assert(RawPatchAccepts<const std::string&> && RawPatchAccepts<const char*>);
static_assert(!RawPatchAccepts<std::string>, "a temporary string's body would dangle");
template <typename T>
concept SubResourceAccepts = requires(Client& c, T&& t) {
    c.SubResource(std::forward<T>(t));
};
static_assert(SubResourceAccepts<const char*> && !SubResourceAccepts<std::string>);

template <typename Options, typename Apply, typename... Values>
Options Combine(Apply apply, const Values&... values) {
    Options options;
    (apply(values, options), ...);
    return options;
}

TEST(OptionValuesTest, ListValuesCombineInOrder) {
    ListOptions named;
    named.limit = 7;
    const ListOptions options = Combine<ListOptions>(
        [](const auto& v, ListOptions& o) { v.ApplyToList(o); }, InNamespace("a"), MatchingLabels("app", "web"),
        MatchingFields("spec.nodeName", "n1"), named, Continue("tok"), InNamespace("b"));
    EXPECT_EQ(options.namespace_name, "b") << "a later value overrides an earlier one";
    EXPECT_EQ(options.label_selector.String(), "app=web");
    EXPECT_EQ(options.field_selector.String(), "spec.nodeName=n1");
    EXPECT_EQ(options.limit, 7) << "an options struct applies its set fields";
    EXPECT_EQ(options.continue_token, "tok");
}

TEST(OptionValuesTest, AnOptionsStructLeavesUnsetFieldsAlone) {
    ListOptions first;
    first.namespace_name = "kept";
    first.limit = 3;
    const ListOptions empty;
    empty.ApplyToList(first);
    EXPECT_EQ(first.namespace_name, "kept");
    EXPECT_EQ(first.limit, 3);
}

TEST(OptionValuesTest, WriteAndDeleteValues) {
    PatchOptions patch;
    FieldOwner("me").ApplyToPatch(patch);
    ForceOwnership().ApplyToPatch(patch);
    DryRunAll().ApplyToPatch(patch);
    EXPECT_EQ(patch.field_owner, "me");
    EXPECT_TRUE(patch.force);
    EXPECT_TRUE(patch.dry_run);

    DeleteAllOfOptions all;
    InNamespace("ns").ApplyToDeleteAllOf(all);
    GracePeriodSeconds(0).ApplyToDeleteAllOf(all);
    PropagationPolicy(DeletionPropagation::kForeground).ApplyToDeleteAllOf(all);
    DeletePreconditions(Preconditions("uid-1", std::nullopt)).ApplyToDeleteAllOf(all);
    EXPECT_EQ(all.list.namespace_name, "ns");
    EXPECT_EQ(all.delete_options.grace_period_seconds, 0);
    EXPECT_EQ(all.delete_options.propagation_policy, DeletionPropagation::kForeground);
    EXPECT_EQ(all.delete_options.preconditions.uid, "uid-1");
}

}  // namespace
}  // namespace ctrl::client
