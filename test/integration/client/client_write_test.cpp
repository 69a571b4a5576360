// Create, Update, Delete, DeleteAllOf, dry runs, field owners and RetryOnConflict through the
// direct client against the real API server (issue 5, acceptance 1, 2 and 5).

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <thread>

#include "ctrl/api/config_map.hpp"
#include "ctrl/api/pod.hpp"
#include "ctrl/client/retry.hpp"
#include "test/integration/client/client_fixture.hpp"

namespace ctrl::client::test {
namespace {

api::Pod NewPod(const std::string& ns, const std::string& name) {
    StatusOr<api::Pod> pod = api::Pod::Parse(R"({"spec":{"containers":[{"name":"app","image":"busybox:1.36"}]}})");
    EXPECT_TRUE(pod.Ok());
    pod->SetNamespace(ns);
    pod->SetName(name);
    return std::move(pod).Value();
}

std::vector<std::string> Managers(const Object& object) {
    std::vector<std::string> managers;
    StatusOr<std::vector<Object>> entries = object.NestedSlice({"metadata", "managedFields"});
    if (entries.Ok())
        for (const Object& entry : *entries)
            managers.push_back(entry.NestedString({"manager"}).ValueOr(""));
    return managers;
}

TEST_F(ClientTest, CreateFillsTheObjectFromTheServerAndRefusesDuplicates) {
    api::ConfigMap cm;
    cm.SetNamespace(ns_);
    cm.SetName("created");
    cm.SetDataValue("k", "v");
    ASSERT_TRUE(Run(client_->Create(Ctx(), cm, FieldOwner("ctrl-test"))).Ok());
    EXPECT_FALSE(cm.Uid().empty());
    EXPECT_FALSE(cm.ResourceVersion().empty());
    EXPECT_TRUE(cm.CreationTimestamp().has_value());
    EXPECT_THAT(Managers(cm), ::testing::ElementsAre("ctrl-test"));

    api::ConfigMap again;
    again.SetNamespace(ns_);
    again.SetName("created");
    Status duplicate = Run(client_->Create(Ctx(), again));
    EXPECT_TRUE(IsAlreadyExists(duplicate)) << duplicate;
    EXPECT_TRUE(again.Uid().empty()) << "unchanged on failure";

    api::ConfigMap generated;
    generated.SetNamespace(ns_);
    generated.SetGenerateName("gen-");
    ASSERT_TRUE(Run(client_->Create(Ctx(), generated)).Ok());
    EXPECT_THAT(std::string(generated.Name()), ::testing::StartsWith("gen-"));

    const int before = Requests();
    api::ConfigMap no_namespace;
    no_namespace.SetName("x");
    Status invalid = Run(client_->Create(Ctx(), no_namespace));
    EXPECT_TRUE(IsInvalid(invalid)) << invalid;
    PartialObjectMetadata metadata({"", "v1", "ConfigMap"});
    metadata.SetNamespace(ns_);
    metadata.SetName("m");
    EXPECT_TRUE(IsBadRequest(Run(client_->Create(Ctx(), metadata))));
    EXPECT_EQ(Requests(), before);
}

TEST_F(ClientTest, ServerValidationFailuresComeBackAsInvalidWithCauses) {
    api::ConfigMap bad;
    bad.SetNamespace(ns_);
    bad.SetName("Not_A_Valid_Name");
    Status invalid = Run(client_->Create(Ctx(), bad));
    ASSERT_TRUE(IsInvalid(invalid)) << invalid;
    ASSERT_FALSE(invalid.Causes().empty());
    EXPECT_EQ(invalid.Causes()[0].field, "metadata.name");
}

TEST_F(ClientTest, StrictFieldValidationRefusesUnknownFields) {
    api::ConfigMap cm;
    cm.SetNamespace(ns_);
    cm.SetName("strict");
    ASSERT_TRUE(cm.SetNestedString({"bogus"}, "x").Ok());
    Status strict = Run(client_->Create(Ctx(), cm, FieldValidation("Strict")));
    EXPECT_TRUE(IsBadRequest(strict)) << strict;
    EXPECT_THAT(strict.Message(), ::testing::HasSubstr("unknown field \"bogus\""));
    ASSERT_TRUE(Run(client_->Create(Ctx(), cm, FieldValidation("Ignore"))).Ok());
    EXPECT_FALSE(cm.HasNestedField({"bogus"})) << "the server dropped it";
}

TEST_F(ClientTest, UpdateWithAStaleResourceVersionIsAConflict) {
    CreateConfigMap("shared");
    api::ConfigMap first;
    api::ConfigMap second;
    ASSERT_TRUE(Run(client_->Get(Ctx(), {ns_, "shared"}, first)).Ok());
    ASSERT_TRUE(Run(client_->Get(Ctx(), {ns_, "shared"}, second)).Ok());
    first.SetDataValue("writer", "first");
    ASSERT_TRUE(Run(client_->Update(Ctx(), first)).Ok());
    EXPECT_NE(first.ResourceVersion(), second.ResourceVersion());
    second.SetDataValue("writer", "second");
    Status stale = Run(client_->Update(Ctx(), second));
    EXPECT_TRUE(IsConflict(stale)) << stale;
    EXPECT_EQ(second.DataValue("writer"), "second") << "unchanged on failure";

    api::ConfigMap unnamed;
    unnamed.SetNamespace(ns_);
    const int before = Requests();
    EXPECT_TRUE(IsInvalid(Run(client_->Update(Ctx(), unnamed))));
    EXPECT_EQ(Requests(), before);
}

TEST_F(ClientTest, RetryOnConflictWinsARaceWithAConcurrentWriter) {
    CreateConfigMap("counter", {}, {{"n", "0"}});
    // The other writer bumps "other" every few milliseconds from its own thread and client.
    std::atomic<bool> stop = false;
    std::atomic<int> other_writes = 0;
    std::thread other([&] {
        boost::asio::io_context io;
        std::unique_ptr<Client> writer = NewClient(io);
        while (!stop) {
            // Inside a coroutine every argument of a co_await'ed call is a named value (GCC 12).
            Status wrote = RunSync(io, RetryOnConflict(Ctx(), kDefaultRetry, [&]() -> Task<Status> {
                                       const Context ctx = Ctx();
                                       const ObjectKey key{ns_, "counter"};
                                       api::ConfigMap cm;
                                       CTRL_CO_RETURN_IF_ERROR(co_await writer->Get(ctx, key, cm));
                                       cm.SetDataValue("other", std::to_string(other_writes.load() + 1));
                                       co_return co_await writer->Update(ctx, cm);
                                   }));
            if (wrote.Ok())
                ++other_writes;
            std::this_thread::sleep_for(std::chrono::milliseconds(4));
        }
    });
    int attempts = 0;
    Status failed;
    Backoff patient = kDefaultRetry;
    patient.steps = 100;
    for (int i = 1; i <= 20 && failed.Ok(); ++i) {
        failed = Run(RetryOnConflict(Ctx(), patient, [&]() -> Task<Status> {
            ++attempts;
            const Context ctx = Ctx();
            const ObjectKey key{ns_, "counter"};
            api::ConfigMap cm;
            CTRL_CO_RETURN_IF_ERROR(co_await client_->Get(ctx, key, cm));
            const int n = std::stoi(std::string(cm.DataValue("n").value_or("0")));
            cm.SetDataValue("n", std::to_string(n + 1));
            std::this_thread::sleep_for(std::chrono::milliseconds(3));  // widen the race window
            co_return co_await client_->Update(ctx, cm);
        }));
    }
    stop = true;
    other.join();
    ASSERT_TRUE(failed.Ok()) << failed;
    api::ConfigMap final_state;
    ASSERT_TRUE(Run(client_->Get(Ctx(), {ns_, "counter"}, final_state)).Ok());
    EXPECT_EQ(final_state.DataValue("n"), "20") << "no increment lost";
    EXPECT_GT(other_writes.load(), 0);
    EXPECT_GT(attempts, 20) << "the race was real: some attempts met a conflict and were retried";

    // With retries exhausted the Conflict comes back.
    int tries = 0;
    Status exhausted =
        Run(RetryOnConflict(Ctx(), {std::chrono::milliseconds(1), 1.0, 0.0, 3, {}}, [&]() -> Task<Status> {
            ++tries;
            co_return ConflictError("always");
        }));
    EXPECT_TRUE(IsConflict(exhausted));
    EXPECT_EQ(tries, 3);
}

TEST_F(ClientTest, DeleteHonoursPreconditionsPropagationAndGracePeriod) {
    Object cm = CreateConfigMap("doomed");
    DeleteOptions wrong_uid;
    wrong_uid.preconditions.uid = "00000000-0000-0000-0000-000000000000";
    Status refused = Run(client_->Delete(Ctx(), cm, wrong_uid));
    EXPECT_TRUE(IsConflict(refused)) << refused;
    DeleteOptions wrong_version;
    wrong_version.preconditions.resource_version = "1";
    EXPECT_TRUE(IsConflict(Run(client_->Delete(Ctx(), cm, wrong_version))));

    DeleteOptions dry;
    dry.dry_run = true;
    ASSERT_TRUE(Run(client_->Delete(Ctx(), cm, dry)).Ok());
    api::ConfigMap still;
    ASSERT_TRUE(Run(client_->Get(Ctx(), {ns_, "doomed"}, still)).Ok()) << "a dry-run delete deletes nothing";

    // No garbage collector runs in this control plane, so the policy's finalizer stays visible.
    DeleteOptions orphan;
    orphan.preconditions.uid = std::string(cm.Uid());
    orphan.propagation_policy = DeletionPropagation::kOrphan;
    ASSERT_TRUE(Run(client_->Delete(Ctx(), cm, orphan)).Ok());
    ASSERT_TRUE(Run(client_->Get(Ctx(), {ns_, "doomed"}, still)).Ok());
    EXPECT_THAT(still.Finalizers(), ::testing::Contains("orphan"));
    EXPECT_TRUE(still.DeletionTimestamp().has_value());

    Object foreground = CreateConfigMap("foreground");
    DeleteOptions fg;
    fg.propagation_policy = DeletionPropagation::kForeground;
    ASSERT_TRUE(Run(client_->Delete(Ctx(), foreground, fg)).Ok());
    api::ConfigMap lingering;
    ASSERT_TRUE(Run(client_->Get(Ctx(), {ns_, "foreground"}, lingering)).Ok());
    EXPECT_THAT(lingering.Finalizers(), ::testing::Contains("foregroundDeletion"));

    // A pod bound to a node waits for its kubelet for the grace period; 0 deletes at once.
    api::Pod pod = NewPod(ns_, "graceful");
    pod.SetNodeName("node-1");
    ASSERT_TRUE(Run(client_->Create(Ctx(), pod)).Ok());
    DeleteOptions grace;
    grace.grace_period_seconds = 45;
    ASSERT_TRUE(Run(client_->Delete(Ctx(), pod, grace)).Ok());
    api::Pod terminating;
    ASSERT_TRUE(Run(client_->Get(Ctx(), {ns_, "graceful"}, terminating)).Ok());
    EXPECT_EQ(terminating.NestedInt({"metadata", "deletionGracePeriodSeconds"}).ValueOr(-1), 45);
    DeleteOptions now;
    now.grace_period_seconds = 0;
    ASSERT_TRUE(Run(client_->Delete(Ctx(), pod, now)).Ok());
    EXPECT_TRUE(IsNotFound(Run(client_->Get(Ctx(), {ns_, "graceful"}, terminating))));

    Status gone = Run(client_->Delete(Ctx(), pod));
    EXPECT_TRUE(IsNotFound(gone)) << gone;
}

TEST_F(ClientTest, DeleteAllOfDeletesExactlyTheSelectedObjects) {
    for (int i = 0; i < 6; ++i)
        CreateConfigMap("item-" + std::to_string(i), {{"batch", i < 4 ? "old" : "new"}});
    api::ConfigMap kind;
    ASSERT_TRUE(
        Run(client_->DeleteAllOf(Ctx(), kind, InNamespace(ns_), MatchingLabels("batch", "old"), DryRunAll())).Ok());
    api::ConfigMapList left;
    ASSERT_TRUE(Run(client_->List(Ctx(), left, InNamespace(ns_), MatchingLabels("batch", "old"))).Ok());
    EXPECT_EQ(left.Items().size(), 4u) << "dry run";

    DeleteAllOfOptions old;
    old.list.namespace_name = ns_;
    old.list.label_selector = MatchingLabels("batch", "old").Selector();
    ASSERT_TRUE(Run(client_->DeleteAllOf(Ctx(), kind, old)).Ok());
    api::ConfigMapList remaining;
    ASSERT_TRUE(Run(client_->List(Ctx(), remaining, InNamespace(ns_))).Ok());
    std::set<std::string> names;
    for (const Object& item : remaining.Items())
        names.emplace(item.Name());
    EXPECT_EQ(names, (std::set<std::string>{"item-4", "item-5"}));

    const int before = Requests();
    Status everywhere = Run(client_->DeleteAllOf(Ctx(), kind));
    EXPECT_TRUE(IsInvalid(everywhere)) << everywhere;
    EXPECT_EQ(Requests(), before);
}

TEST_F(ClientTest, DryRunWritesPersistNothing) {
    api::ConfigMap cm;
    cm.SetNamespace(ns_);
    cm.SetName("dry");
    ASSERT_TRUE(Run(client_->Create(Ctx(), cm, DryRunAll())).Ok());
    EXPECT_FALSE(cm.Uid().empty()) << "the answer is what would have been created";
    api::ConfigMap read;
    EXPECT_TRUE(IsNotFound(Run(client_->Get(Ctx(), {ns_, "dry"}, read))));

    CreateConfigMap("real", {}, {{"v", "1"}});
    ASSERT_TRUE(Run(client_->Get(Ctx(), {ns_, "real"}, read)).Ok());
    read.SetDataValue("v", "2");
    ASSERT_TRUE(Run(client_->Update(Ctx(), read, DryRunAll())).Ok());
    EXPECT_EQ(read.DataValue("v"), "2");
    api::ConfigMap after;
    ASSERT_TRUE(Run(client_->Get(Ctx(), {ns_, "real"}, after)).Ok());
    EXPECT_EQ(after.DataValue("v"), "1");

    boost::asio::io_context io;
    Options all_dry;
    all_dry.dry_run = true;
    std::unique_ptr<Client> dry_client = NewClient(io, std::move(all_dry));
    api::ConfigMap never;
    never.SetNamespace(ns_);
    never.SetName("never");
    ASSERT_TRUE(RunSync(io, dry_client->Create(Ctx(), never)).Ok());
    EXPECT_TRUE(IsNotFound(Run(client_->Get(Ctx(), {ns_, "never"}, read))));
    ASSERT_TRUE(RunSync(io, dry_client->Delete(Ctx(), after)).Ok());
    EXPECT_TRUE(Run(client_->Get(Ctx(), {ns_, "real"}, read)).Ok());
}

}  // namespace
}  // namespace ctrl::client::test
