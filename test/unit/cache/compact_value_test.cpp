// The cache's compact binary form: every JSON value survives Encode -> Decode exactly, pods shrink
// to well under their JSON size, and the cursor reads metadata without decoding.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <thread>
#include <vector>

#include "ctrl/cache/internal/compact_value.hpp"
#include "ctrl/cache/internal/intern_table.hpp"
#include "ctrl/core/object.hpp"
#include "test/support/realistic_pod.hpp"

namespace ctrl::cache::internal {
namespace {

Object MustParse(std::string_view json) {
    auto parsed = Object::Parse(json);
    EXPECT_TRUE(parsed.Ok()) << parsed.GetStatus() << " in " << json;
    return parsed.Ok() ? std::move(parsed).Value() : Object();
}

// Encodes and decodes json; the result must equal it as JSON and as text.
void ExpectRoundTrip(std::string_view json, InternTable& keys) {
    const Object original = MustParse(json);
    const CompactValue value = CompactValue::Encode(original, keys);
    const Object decoded = value.Decode(keys);
    EXPECT_EQ(decoded, original) << json;
    EXPECT_EQ(decoded.ToJson(), original.ToJson());
}

TEST(CompactValueTest, ScalarsRoundTrip) {
    InternTable keys;
    for (const char* json : {"null",
                             "true",
                             "false",
                             "0",
                             "23",
                             "24",
                             "255",
                             "256",
                             "65535",
                             "4294967296",
                             "9223372036854775807",
                             "18446744073709551615",
                             "-1",
                             "-24",
                             "-25",
                             "-256",
                             "-9223372036854775808",
                             "1.5",
                             "1.0",
                             "-0.0",
                             "1e300",
                             "-2.5e-300",
                             "0.1",
                             R"("")",
                             R"("short")",
                             R"("\u00e9t\u00e9 \ud83d\ude00")",
                             R"("a\u0000b")"}) {
        ExpectRoundTrip(json, keys);
    }
}

TEST(CompactValueTest, IntegersKeepTheirKindAndFloatsStayFloats) {
    InternTable keys;
    const Object original = MustParse(R"({"i":-7,"u":18446744073709551615,"f":2.0})");
    const Object decoded = CompactValue::Encode(original, keys).Decode(keys);
    EXPECT_EQ(decoded.NestedInt({"i"}).Value(), -7);
    EXPECT_FALSE(decoded.NestedInt({"u"}).Ok());  // does not fit int64, as before encoding
    EXPECT_FALSE(decoded.NestedInt({"f"}).Ok());  // 2.0 is a float
    EXPECT_EQ(decoded.ToJson(), R"({"i":-7,"u":18446744073709551615,"f":2.0})");
}

TEST(CompactValueTest, LengthsAtEveryBoundaryRoundTrip) {
    InternTable keys;
    for (std::size_t n : {0, 1, 30, 31, 32, 127, 128, 300, 70000}) {
        std::string s(n, 'x');
        ExpectRoundTrip("\"" + s + "\"", keys);
        std::string array = "[";
        std::string object = "{";
        for (std::size_t i = 0; i < n && i < 2000; ++i) {
            array += (i ? "," : "") + std::to_string(i);
            object += (i ? ",\"k" : "\"k") + std::to_string(i) + "\":" + std::to_string(i);
        }
        ExpectRoundTrip(array + "]", keys);
        ExpectRoundTrip(object + "}", keys);
    }
}

TEST(CompactValueTest, NamesOfEveryKindRoundTrip) {
    InternTable keys;
    const std::string long_name(500, 'n');
    ExpectRoundTrip(
        R"({"":1,"a":{"a":{"a":[]}},"k:{\"uid\":\"1\"}":{},"v:\"10.0.0.1\"":{},")" + long_name + R"(":true})", keys);
    // Unique-looking and long names are kept inline, not interned.
    EXPECT_EQ(keys.NameCount(), 2u);  // "" and "a"
    // Duplicate names are kept as they came (JSON equality cannot compare them: text can).
    const Object duplicates = MustParse(R"({"dup":1,"dup":2})");
    EXPECT_EQ(CompactValue::Encode(duplicates, keys).Decode(keys).ToJson(), R"({"dup":1,"dup":2})");
}

TEST(CompactValueTest, AFullInternTableStoresNewNamesInline) {
    InternTable keys(/*max_names=*/200);
    std::string object = "{";
    for (int i = 0; i < 1000; ++i)
        object += (i ? ",\"name" : "\"name") + std::to_string(i) + "\":" + std::to_string(i);
    object += "}";
    ExpectRoundTrip(object, keys);
    EXPECT_EQ(keys.NameCount(), 200u);
    ExpectRoundTrip(object, keys);  // the ids interned the first time (both one- and two-byte) read back
}

TEST(CompactValueTest, TwoByteIdsRoundTrip) {
    InternTable keys;
    std::string object = "{";
    for (int i = 0; i < 3000; ++i)
        object += (i ? ",\"f" : "\"f") + std::to_string(i) + "\":{\"x\":" + std::to_string(i) + "}";
    object += "}";
    ExpectRoundTrip(object, keys);
    EXPECT_EQ(keys.NameCount(), 3001u);
}

TEST(CompactValueTest, DeepNestingRoundTrips) {
    InternTable keys;
    std::string json;
    for (int i = 0; i < 900; ++i)
        json += "[";
    for (int i = 0; i < 900; ++i)
        json += "]";
    ExpectRoundTrip(json, keys);
}

TEST(CompactValueTest, PodIsMuchSmallerThanItsJson) {
    InternTable keys;
    for (bool strip : {false, true}) {
        Object pod = MustParse(testing::RealisticPodJson(7, 100, 1));
        if (strip)
            pod.RemoveManagedFields();
        const std::string json = pod.ToJson();
        const CompactValue value = CompactValue::Encode(pod, keys);
        EXPECT_LT(value.Size(), json.size() * 6 / 10) << "stripped=" << strip;
        EXPECT_EQ(value.Decode(keys), pod);
        EXPECT_EQ(value.Decode(keys).ToJson(), json);
    }
}

TEST(CompactValueTest, CursorReadsMetadataWithoutDecoding) {
    InternTable keys;
    const Object pod = MustParse(testing::RealisticPodJson(3, 4242, 0));
    const CompactValue value = CompactValue::Encode(pod, keys);
    const CompactCursor root(value.Bytes(), keys);
    ASSERT_TRUE(root.IsObject());
    EXPECT_EQ(root.Find({"metadata", "resourceVersion"})->String(), "4242");
    EXPECT_EQ(root.Find({"metadata", "namespace"})->String(), "shop-3");
    EXPECT_EQ(root.Find({"metadata", "labels"})->StringMap(), pod.Labels());
    EXPECT_EQ(root.Find({"spec", "nodeName"})->String(), "worker-3");
    EXPECT_FALSE(root.Find({"metadata", "nope"}));
    EXPECT_FALSE(root.Find({"metadata", "name", "deeper"}));
    EXPECT_FALSE(root.Find({"metadata", "labels"})->String());
}

// Issue 19: string values the store's objects share are held once (from their second sight), values
// unique to one object stay inline, and every value reads back the same either way.
TEST(CompactValueTest, RepeatedStringValuesAreInternedFromTheirSecondSight) {
    InternTable strings;
    const Object first = MustParse(R"({"image":"registry.example.com/web:1.2","uid":"0001-aaaa","s":"abc"})");
    const Object second = MustParse(R"({"image":"registry.example.com/web:1.2","uid":"0002-bbbb","s":"abc"})");
    const CompactValue a = CompactValue::Encode(first, strings);
    EXPECT_EQ(strings.ValueCount(), 0u);  // first sights only
    const CompactValue b = CompactValue::Encode(second, strings);
    EXPECT_EQ(strings.ValueCount(), 1u);  // the image; "abc" is too short to be worth an id
    EXPECT_LT(b.Size() + 20, a.Size()) << "the image is an id in the second object";
    const CompactValue c = CompactValue::Encode(second, strings);
    EXPECT_EQ(strings.ValueCount(), 2u);  // now another object shows the second uid too
    EXPECT_EQ(a.Decode(strings), first);
    EXPECT_EQ(b.Decode(strings), second);
    EXPECT_EQ(c.Decode(strings).ToJson(), second.ToJson());
    const CompactCursor root(b.Bytes(), strings);
    ASSERT_TRUE(root.Member("image")->IsString());
    EXPECT_EQ(root.Member("image")->String(), "registry.example.com/web:1.2");
    EXPECT_EQ(root.Member("s")->String(), "abc");
}

TEST(CompactValueTest, AFullValueTableAndLongValuesStayInline) {
    InternTable strings(InternTable::kMaxNames, /*max_values=*/3);
    const std::string long_value(InternTable::kMaxValueBytes + 1, 'v');
    std::string object = R"({"long":")" + long_value + R"(","list":[)";
    for (int i = 0; i < 10; ++i)
        object +=
            std::string(i ? "," : "") + R"("value-)" + std::to_string(i) + R"(","value-)" + std::to_string(i) + "\"";
    object += "]}";
    ExpectRoundTrip(object, strings);
    EXPECT_EQ(strings.ValueCount(), 0u) << "values repeated inside one object only are not interned";
    ExpectRoundTrip(object, strings);
    EXPECT_EQ(strings.ValueCount(), 3u);
}

TEST(CompactValueTest, DecodesOnOtherThreadsWhileNamesAreAdded) {
    InternTable keys;
    const Object pod = MustParse(testing::RealisticPodJson(1, 1, 0));
    const CompactValue value = CompactValue::Encode(pod, keys);
    std::thread writer([&] {
        for (int i = 0; i < 5000; ++i) {
            (void)keys.InternName("name-" + std::to_string(i));
            (void)keys.InternValue("value-" + std::to_string(i / 2));  // interned on the second sight
        }
    });
    for (int i = 0; i < 200; ++i)
        ASSERT_EQ(value.Decode(keys), pod);
    writer.join();
}

// Names looked up by their position in the object give the ids a plain look-up gives, whether the
// last object's name at that position is the same (same order) or not (another order, a new name,
// an empty name first, more names than before), and when the table is full.
TEST(InternTableTest, NamesFoundByPositionHaveTheIdsOfAPlainLookUp) {
    InternTable guessed(/*max_names=*/6);
    InternTable plain(/*max_names=*/6);
    const std::vector<std::vector<std::string>> objects = {
        {"", "kind", "metadata", "name"},
        {"", "kind", "metadata", "name"},
        {"kind", "", "name", "metadata"},
        {"kind", "spec", "k:{\"x\":1}", "name", "status", "extra", "kind"},
        {"kind", "spec", "k:{\"x\":1}", "name", "status", "extra", "kind"},
    };
    for (const std::vector<std::string>& names : objects) {
        auto lock = guessed.Lock();
        for (std::size_t position = 0; position < names.size(); ++position) {
            const std::string& name = names[position];
            const std::optional<uint32_t> id = guessed.InternNameAtLocked(name, position);
            EXPECT_EQ(id, plain.InternName(name)) << "\"" << name << "\"";
            if (id) {
                EXPECT_EQ(guessed.Name(*id), name);
            }
        }
    }
    EXPECT_EQ(guessed.NameCount(), 6u);  // "", kind, metadata, name, spec, status: "extra" found it full
}

}  // namespace
}  // namespace ctrl::cache::internal
