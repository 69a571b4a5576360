#pragma once

// Random JSON objects and random edits of them, for the property tests of the patch computations
// (applying the patch computed from original to modified must give modified).

#include <cstdint>
#include <iterator>
#include <random>
#include <string_view>
#include <utility>
#include <vector>

#include "ctrl/core/internal/json.hpp"
#include "ctrl/core/object.hpp"

namespace ctrl::client::test {

class RandomJson {
  public:
    using JsonValue = ctrl::internal::JsonValue;

    explicit RandomJson(uint32_t seed) : random_(seed) {}

    // A random JSON object nested up to four levels.
    Object Document() {
        Object object;
        ctrl::internal::JsonDocument& doc = object.Document();
        doc.Root().SetObject();
        FillObject(doc.Root(), doc.Allocator(), 0);
        return object;
    }

    // A copy of original with one to five random edits: members added, changed, removed or given
    // another type; array elements inserted, removed, replaced or swapped; arrays emptied.
    Object Mutate(const Object& original) {
        Object copy = original.DeepCopy();
        ctrl::internal::JsonDocument& doc = copy.Document();
        const int edits = Pick(1, 5);
        for (int i = 0; i < edits; ++i) {
            std::vector<JsonValue*> containers;
            Collect(doc.Root(), containers);
            Edit(*containers[static_cast<std::size_t>(Pick(0, static_cast<int>(containers.size()) - 1))],
                 doc.Allocator());
        }
        return copy;
    }

  private:
    int Pick(int low, int high) { return std::uniform_int_distribution<int>(low, high)(random_); }

    std::string_view Key() {
        static constexpr std::string_view kKeys[] = {"a", "b", "c", "name", "x/y", "t~1",
                                                     "~", "/", "é", "日本", "",    "spec"};
        return kKeys[Pick(0, static_cast<int>(std::size(kKeys)) - 1)];
    }

    JsonValue Scalar(ctrl::internal::PoolAllocator& allocator) {
        static constexpr std::string_view kStrings[] = {"", "a", "b", "quote\"d", "back\\slash", "tab\t", "☃", "x/y"};
        switch (Pick(0, 6)) {
            case 0:
                return ctrl::internal::MakeJsonString(kStrings[Pick(0, static_cast<int>(std::size(kStrings)) - 1)],
                                                      allocator);
            case 1:
                return JsonValue(Pick(-3, 100));
            case 2:
                return JsonValue(2.5);
            case 3:
                return JsonValue(Pick(0, 1) == 1);
            case 4:
                return JsonValue();
            default:
                return ctrl::internal::MakeJsonString(Key(), allocator);
        }
    }

    JsonValue Value(ctrl::internal::PoolAllocator& allocator, int depth) {
        const int choice = depth >= 3 ? 0 : Pick(0, 4);
        if (choice == 3) {
            JsonValue object(rapidjson::kObjectType);
            FillObject(object, allocator, depth + 1);
            return object;
        }
        if (choice == 4) {
            JsonValue array(rapidjson::kArrayType);
            const int size = Pick(0, 4);
            for (int i = 0; i < size; ++i)
                array.PushBack(Value(allocator, depth + 1), allocator);
            return array;
        }
        return Scalar(allocator);
    }

    void FillObject(JsonValue& object, ctrl::internal::PoolAllocator& allocator, int depth) {
        const int size = Pick(0, 5);
        for (int i = 0; i < size; ++i) {
            JsonValue value = Value(allocator, depth);
            ctrl::internal::SetJsonMember(object, Key(), value, allocator);
        }
    }

    static void Collect(JsonValue& value, std::vector<JsonValue*>& out) {
        if (value.IsObject()) {
            out.push_back(&value);
            for (auto it = value.MemberBegin(); it != value.MemberEnd(); ++it)
                Collect(it->value, out);
        } else if (value.IsArray()) {
            out.push_back(&value);
            for (JsonValue& element : value.GetArray())
                Collect(element, out);
        }
    }

    void Edit(JsonValue& container, ctrl::internal::PoolAllocator& allocator) {
        if (container.IsObject()) {
            const int size = static_cast<int>(container.MemberCount());
            if (size > 0 && Pick(0, 2) == 0) {
                container.EraseMember(container.MemberBegin() + Pick(0, size - 1));
            } else {
                JsonValue value = Value(allocator, Pick(1, 3));
                ctrl::internal::SetJsonMember(container, Key(), value, allocator);
            }
            return;
        }
        const int size = static_cast<int>(container.Size());
        switch (size == 0 ? 0 : Pick(0, 4)) {
            case 0: {  // insert at a random index
                container.PushBack(Value(allocator, Pick(1, 3)), allocator);
                const int at = Pick(0, size);
                for (int i = size; i > at; --i)
                    container[static_cast<rapidjson::SizeType>(i)].Swap(
                        container[static_cast<rapidjson::SizeType>(i - 1)]);
                break;
            }
            case 1:
                container.Erase(container.Begin() + Pick(0, size - 1));
                break;
            case 2:
                container[static_cast<rapidjson::SizeType>(Pick(0, size - 1))] = Value(allocator, Pick(1, 3));
                break;
            case 3:
                container[static_cast<rapidjson::SizeType>(Pick(0, size - 1))].Swap(
                    container[static_cast<rapidjson::SizeType>(Pick(0, size - 1))]);
                break;
            default:
                container.Clear();
                break;
        }
    }

    std::mt19937 random_;
};

}  // namespace ctrl::client::test
