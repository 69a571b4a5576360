#include "ctrl/client/internal/json_patch.hpp"

#include <algorithm>
#include <cstddef>
#include <string>

#include "ctrl/client/internal/patch_json.hpp"

namespace ctrl::client::internal {
namespace {

using ctrl::internal::FindJsonMember;
using ctrl::internal::JsonView;

// Writes the operations of one diff; path is the pointer of the values being compared and is
// restored before each call returns.
class JsonPatchWriter {
  public:
    explicit JsonPatchWriter(JsonWriter& writer) : writer_(writer) {}

    void Diff(std::string& path, const JsonValue& original, const JsonValue& modified) {
        if (original.IsObject() && modified.IsObject()) {
            DiffObjects(path, original, modified);
        } else if (original.IsArray() && modified.IsArray()) {
            DiffArrays(path, original, modified);
        } else if (original != modified) {
            Operation("replace", path, &modified);
        }
    }

    void Operation(std::string_view op, std::string_view path, const JsonValue* value) {
        writer_.StartObject();
        writer_.Key("op");
        writer_.String(op.data(), static_cast<rapidjson::SizeType>(op.size()));
        writer_.Key("path");
        writer_.String(path.data(), static_cast<rapidjson::SizeType>(path.size()));
        if (value != nullptr) {
            writer_.Key("value");
            WriteSortedJson(*value, writer_);
        }
        writer_.EndObject();
    }

  private:
    void DiffObjects(std::string& path, const JsonValue& original, const JsonValue& modified) {
        const std::size_t length = path.size();
        for (auto it = original.MemberBegin(); it != original.MemberEnd(); ++it) {
            const JsonValue* after = FindJsonMember(modified, JsonView(it->name));
            if (after != nullptr && *after == it->value)
                continue;
            AppendPointerToken(path, JsonView(it->name));
            if (after == nullptr)
                Operation("remove", path, nullptr);
            else
                Diff(path, it->value, *after);
            path.resize(length);
        }
        for (auto it = modified.MemberBegin(); it != modified.MemberEnd(); ++it) {
            if (FindJsonMember(original, JsonView(it->name)) != nullptr)
                continue;
            AppendPointerToken(path, JsonView(it->name));
            Operation("add", path, &it->value);
            path.resize(length);
        }
    }

    // The common head and tail stay; between them, elements at the same index are compared, then
    // the surplus of the original is removed from its last element down, or the surplus of
    // modified is added in order.
    void DiffArrays(std::string& path, const JsonValue& original, const JsonValue& modified) {
        const std::size_t original_size = original.Size();
        const std::size_t modified_size = modified.Size();
        std::size_t head = 0;
        while (head < original_size && head < modified_size && original[head] == modified[head])
            ++head;
        std::size_t tail = 0;
        while (tail < original_size - head && tail < modified_size - head &&
               original[original_size - 1 - tail] == modified[modified_size - 1 - tail])
            ++tail;
        const std::size_t original_middle = original_size - head - tail;
        const std::size_t modified_middle = modified_size - head - tail;
        const std::size_t common = std::min(original_middle, modified_middle);
        const std::size_t length = path.size();
        for (std::size_t i = head; i < head + common; ++i) {
            path.append("/").append(std::to_string(i));
            Diff(path, original[i], modified[i]);
            path.resize(length);
        }
        for (std::size_t i = head + original_middle; i > head + common; --i) {
            path.append("/").append(std::to_string(i - 1));
            Operation("remove", path, nullptr);
            path.resize(length);
        }
        for (std::size_t i = head + common; i < head + modified_middle; ++i) {
            path.append("/").append(std::to_string(i));
            Operation("add", path, &modified[i]);
            path.resize(length);
        }
    }

    JsonWriter& writer_;
};

}  // namespace

std::string CreateJsonPatch(const Object& original, const Object& modified,
                            std::optional<std::string_view> test_resource_version) {
    rapidjson::StringBuffer buffer;
    JsonWriter writer(buffer);
    JsonPatchWriter patch(writer);
    writer.StartArray();
    if (test_resource_version) {
        ctrl::internal::JsonDocument value;
        value.Root() = ctrl::internal::MakeJsonString(*test_resource_version, value.Allocator());
        patch.Operation("test", "/metadata/resourceVersion", &value.Root());
    }
    std::string path;
    patch.Diff(path, original.Document().Root(), modified.Document().Root());
    writer.EndArray();
    return std::string(buffer.GetString(), buffer.GetSize());
}

}  // namespace ctrl::client::internal
