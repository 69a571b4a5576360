// A protobuf watch event written straight into the store's compact form (CompactBuilder as the
// decoder's sink) holds the bytes CompactValue::Encode writes for the Object the event would have
// made: recorded pods kept and dropped, objects and arrays of 31 or more members (a count that
// does not fit the tag), FieldsV1 (a repeated one written from memory), empty strings and keys.
// It notes the key, takes ADDED events only, drops an object its event fails, and a store
// replacement takes what it built.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ctrl/cache/internal/compact_builder.hpp"
#include "ctrl/cache/internal/compact_value.hpp"
#include "ctrl/cache/store.hpp"
#include "ctrl/rest/internal/protobuf_watch_event.hpp"
#include "test/unit/protobuf/proto_builder.hpp"
#include "test/unit/protobuf/read_testdata.hpp"

namespace ctrl::cache::internal {
namespace {

using protobuf::test::Envelope;
using protobuf::test::ProtoBuilder;
using rest::WatchEvent;
using rest::internal::DecodeProtobufWatchEvent;

// metav1.WatchEvent{type = 1, object = 2 (runtime.RawExtension{raw = 1})}.
std::string Event(std::string_view type, const std::string& envelope) {
    return ProtoBuilder().Bytes(1, type).Message(2, ProtoBuilder().Bytes(1, envelope)).str();
}

std::string Pod(const std::string& name) {
    std::string pod = protobuf::test::ReadTestdata(name + ".pb");
    EXPECT_FALSE(pod.empty()) << name;
    return pod;
}

// A ConfigMap "wide" in namespace "default" with `labels` labels, a data entry, and one
// managedFields entry whose FieldsV1 names every label (an object of labels + 1 members), or is
// `fields_v1` when given.
std::string WideConfigMap(int labels, std::string fields_v1 = "") {
    ProtoBuilder metadata;
    metadata.Bytes(1, "wide").Bytes(3, "default").Bytes(6, "7");
    std::string fields = R"({"f:metadata":{"f:labels":{".":{})";
    for (int i = 0; i < labels; ++i) {
        const std::string key = "label-" + std::to_string(i);
        metadata.Entry(11, key, "value-" + std::to_string(i % 5));
        fields += ",\"f:" + key + "\":{}";
    }
    fields += "}}}";
    if (!fields_v1.empty())
        fields = std::move(fields_v1);
    metadata.Message(17, ProtoBuilder()
                             .Bytes(1, "kubectl")
                             .Bytes(2, "Update")
                             .Bytes(3, "v1")
                             .Bytes(6, "FieldsV1")
                             .Message(7, ProtoBuilder().Bytes(1, fields)));
    return Envelope("v1", "ConfigMap", ProtoBuilder().Message(1, metadata).Entry(2, "key", "value"));
}

// The bytes Encode writes for each event's Object, and the bytes the builder writes for them, each
// into a table of its own fed the same objects in the same order.
struct BothWays {
    std::vector<std::string> encoded;
    std::vector<std::string> built;
    std::vector<BuiltObject> objects;
};

std::string BytesOf(const CompactValue& value) {
    return std::string(reinterpret_cast<const char*>(value.Bytes().data()), value.Bytes().size());
}

BothWays EncodeBothWays(const std::vector<std::string>& events, bool drop_managed_fields,
                        std::size_t* texts_reused = nullptr) {
    BothWays both;
    InternTable encode_table;
    InternTable build_table;
    CompactBuilder builder(build_table);
    for (const std::string& event : events) {
        StatusOr<WatchEvent> decoded = DecodeProtobufWatchEvent(event, 0, drop_managed_fields);
        EXPECT_TRUE(decoded.Ok()) << decoded.GetStatus();
        StatusOr<WatchEvent> sunk = DecodeProtobufWatchEvent(event, 0, drop_managed_fields, &builder);
        EXPECT_TRUE(sunk.Ok()) << sunk.GetStatus();
        if (!decoded.Ok() || !sunk.Ok())
            continue;
        EXPECT_TRUE(sunk->object_in_sink);
        EXPECT_EQ(sunk->type, decoded->type);
        std::optional<BuiltObject> built = builder.Take();
        EXPECT_TRUE(built.has_value());
        if (!built)
            continue;
        EXPECT_EQ(built->namespace_name, decoded->object.Namespace());
        EXPECT_EQ(built->name, decoded->object.Name());
        EXPECT_EQ(built->value.Decode(build_table).ToJson(), decoded->object.ToJson());
        both.encoded.push_back(BytesOf(CompactValue::Encode(decoded->object, encode_table)));
        both.built.push_back(BytesOf(built->value));
        both.objects.push_back(std::move(*built));
    }
    if (texts_reused != nullptr)
        *texts_reused = builder.TextsReused();
    return both;
}

TEST(CompactBuilderTest, RecordedPodsBuildTheBytesEncodeWritesForTheirObjects) {
    const std::vector<std::string> events = {Event("ADDED", Pod("workload_pod")), Event("ADDED", Pod("rich_pod")),
                                             Event("ADDED", Pod("workload_pod")), Event("ADDED", Pod("rich_pod"))};
    for (const bool drop : {false, true}) {
        const BothWays both = EncodeBothWays(events, drop);
        ASSERT_EQ(both.built.size(), events.size());
        EXPECT_EQ(both.built, both.encoded) << (drop ? "dropped" : "kept");
        for (const BuiltObject& object : both.objects) {
            EXPECT_FALSE(object.name.empty());
            EXPECT_FALSE(object.namespace_name.empty());
        }
    }
}

TEST(CompactBuilderTest, CountsThatDoNotFitTheTagAreWrittenAfterIt) {
    // 30 labels fit the tag; 31 and 300 need a varint after it (two bytes for 300), which the
    // builder inserts once the count is known, inside the managedFields and labels objects.
    const std::vector<std::string> events = {Event("ADDED", WideConfigMap(30)), Event("ADDED", WideConfigMap(31)),
                                             Event("ADDED", WideConfigMap(300))};
    const BothWays both = EncodeBothWays(events, /*drop_managed_fields=*/false);
    ASSERT_EQ(both.built.size(), events.size());
    EXPECT_EQ(both.built, both.encoded);
    EXPECT_EQ(both.objects.back().name, "wide");
    EXPECT_EQ(both.objects.back().namespace_name, "default");
}

TEST(CompactBuilderTest, ARepeatedFieldsV1IsWrittenFromMemoryAsTheSameBytes) {
    // The recorded pod's FieldsV1 three times; two texts that take the same slot or not, alternating;
    // and a FieldsV1 that holds a string value (its interning depends on what came before: never
    // written from memory).
    const std::string with_string = R"({"f:metadata":{"f:labels":{".":{},"f:a":"value-one","f:b":{}}}})";
    const std::vector<std::string> events = {Event("ADDED", Pod("workload_pod")),
                                             Event("ADDED", Pod("workload_pod")),
                                             Event("ADDED", Pod("workload_pod")),
                                             Event("ADDED", WideConfigMap(12)),
                                             Event("ADDED", WideConfigMap(13)),
                                             Event("ADDED", WideConfigMap(12)),
                                             Event("ADDED", WideConfigMap(13)),
                                             Event("ADDED", WideConfigMap(2, with_string)),
                                             Event("ADDED", WideConfigMap(2, with_string)),
                                             Event("ADDED", WideConfigMap(2, with_string))};
    std::size_t reused = 0;
    const BothWays both = EncodeBothWays(events, /*drop_managed_fields=*/false, &reused);
    ASSERT_EQ(both.built.size(), events.size());
    EXPECT_EQ(both.built, both.encoded);
    // Each of the pod's managedFields entries twice, and the ConfigMaps' second sights.
    const std::size_t pod_entries = [&] {
        StatusOr<WatchEvent> pod = DecodeProtobufWatchEvent(events[0], 0, false);
        if (!pod.Ok())
            return std::size_t{0};
        StatusOr<std::vector<Object>> managed = pod->object.NestedSlice({"metadata", "managedFields"});
        return managed.Ok() ? managed->size() : std::size_t{0};
    }();
    ASSERT_GT(pod_entries, 0U);
    EXPECT_EQ(reused, 2 * pod_entries + 2);
}

TEST(CompactBuilderTest, AMapEntryWithoutAKeyAndAbsentStringsBuildTheBytesEncodeWrites) {
    // data: an entry with a value and no key; ownerReferences[0]: only a uid: empty strings and
    // keys, which protobuf holds as no data (the fuzz target's regression_map_entry_without_key).
    const ProtoBuilder metadata = ProtoBuilder().Bytes(1, "settings").Message(13, ProtoBuilder().Bytes(4, "u1"));
    const ProtoBuilder configmap =
        ProtoBuilder().Message(1, metadata).Message(2, ProtoBuilder().Bytes(2, "value without a key"));
    const BothWays both = EncodeBothWays({Event("ADDED", Envelope("v1", "ConfigMap", configmap))}, false);
    ASSERT_EQ(both.built.size(), 1U);
    EXPECT_EQ(both.built, both.encoded);
}

TEST(CompactBuilderTest, TakesOnlyAddedEventsOthersBuildTheirObject) {
    InternTable table;
    CompactBuilder builder(table);
    for (const std::string_view type : {"MODIFIED", "DELETED", "BOOKMARK"}) {
        StatusOr<WatchEvent> event = DecodeProtobufWatchEvent(Event(type, Pod("workload_pod")), 0, false, &builder);
        ASSERT_TRUE(event.Ok()) << event.GetStatus();
        EXPECT_FALSE(event->object_in_sink) << type;
        EXPECT_FALSE(event->object.Name().empty()) << type;
        EXPECT_FALSE(builder.Take().has_value()) << type;
    }
}

TEST(CompactBuilderTest, AnObjectItsEventFailsIsDroppedAndTheTableIsFreed) {
    InternTable table;
    CompactBuilder builder(table);
    // The pod's envelope cut short: the transcoder fails inside the object, after values went out.
    const std::string pod = Pod("rich_pod");
    const std::string cut = Event("ADDED", pod.substr(0, pod.size() - 40));
    StatusOr<WatchEvent> event = DecodeProtobufWatchEvent(cut, 128, false, &builder);
    ASSERT_FALSE(event.Ok());
    EXPECT_TRUE(IsBadRequest(event.GetStatus())) << event.GetStatus();
    EXPECT_FALSE(builder.Take().has_value());
    // Finish let go of the table: interning from here does not wait for the builder.
    EXPECT_TRUE(table.InternName("after").has_value());
    // And the next event builds as usual.
    ASSERT_TRUE(DecodeProtobufWatchEvent(Event("ADDED", Pod("workload_pod")), 0, false, &builder).Ok());
    EXPECT_TRUE(builder.Take().has_value());
}

TEST(CompactBuilderTest, AnObjectWithoutNameIsRefusedByTheReplacementNamingItsNamespace) {
    Store store(StoreOptions{.transform = nullptr});
    StoreReplacement replacement = store.BeginReplace();
    rest::WatchObjectSink* sink = replacement.Sink();
    ASSERT_NE(sink, nullptr);
    const std::string nameless = Envelope(
        "v1", "ConfigMap", ProtoBuilder().Message(1, ProtoBuilder().Bytes(3, "default")).Entry(2, "key", "value"));
    ASSERT_TRUE(DecodeProtobufWatchEvent(Event("ADDED", nameless), 0, false, sink).Ok());
    const Status added = replacement.AddFromSink();
    EXPECT_TRUE(IsBadRequest(added)) << added;
    EXPECT_NE(added.Message().find("metadata.name (namespace \"default\")"), std::string::npos) << added;
    EXPECT_EQ(replacement.Size(), 0U);
    EXPECT_FALSE(replacement.AddFromSink().Ok());  // nothing waits in the sink
}

Status UppercaseNothing(Object&) {
    return OkStatus();
}

TEST(CompactBuilderTest, AReplacementOffersItsSinkOnlyWhenNoTransformNeedsTheObject) {
    Store kept(StoreOptions{.transform = nullptr});
    EXPECT_NE(kept.BeginReplace().Sink(), nullptr);
    Store stripped;  // StripManagedFields: the stream drops them
    EXPECT_NE(stripped.BeginReplace().Sink(), nullptr);
    Store transformed(StoreOptions{.transform = UppercaseNothing});
    EXPECT_EQ(transformed.BeginReplace().Sink(), nullptr);
}

TEST(CompactBuilderTest, TheStoreHoldsAndIndexesWhatTheSinkBuilt) {
    Store store(StoreOptions{.transform = nullptr});
    ASSERT_TRUE(store
                    .AddIndex("byName",
                              [](const Object& object) { return std::vector<std::string>{std::string(object.Name())}; })
                    .Ok());
    StoreReplacement replacement = store.BeginReplace();
    const std::string event = Event("ADDED", WideConfigMap(40));
    ASSERT_TRUE(DecodeProtobufWatchEvent(event, 0, false, replacement.Sink()).Ok());
    ASSERT_TRUE(replacement.AddFromSink().Ok());
    StatusOr<StoreReplaceResult> replaced = store.Replace(std::move(replacement), "7");
    ASSERT_TRUE(replaced.Ok()) << replaced.GetStatus();

    StatusOr<WatchEvent> expected = DecodeProtobufWatchEvent(event, 0, false);
    ASSERT_TRUE(expected.Ok());
    const CachedObject held = store.Get("default", "wide");
    ASSERT_TRUE(held);
    EXPECT_EQ(held.Copy().ToJson(), expected->object.ToJson());
    StatusOr<std::vector<CachedObject>> indexed = store.ByIndex("byName", "wide");
    ASSERT_TRUE(indexed.Ok());
    EXPECT_EQ(indexed->size(), 1U);
    EXPECT_EQ(store.ListKeys(), std::vector<std::string>{"default/wide"});
}

}  // namespace
}  // namespace ctrl::cache::internal
