#include "ctrl/protobuf/internal/schema.hpp"

#include <algorithm>

namespace ctrl::protobuf::internal {

const Schema& Schema::Builtin() {
    static const Schema kSchema(BuiltinSchemaTable());
    return kSchema;
}

Schema::Schema(const SchemaTable& table) : table_(table) {
    const std::size_t count = table_.messages.size();
    dense_ = std::make_unique<std::int8_t[]>(count * kDense);
    std::fill_n(dense_.get(), count * kDense, std::int8_t{-1});
    for (std::size_t m = 0; m < count; ++m) {
        const auto fields = FieldsOf(static_cast<std::int32_t>(m));
        for (std::size_t i = 0; i < fields.size() && i < 127; ++i) {
            if (fields[i].number != 0 && fields[i].number < kDense) {
                dense_[m * kDense + fields[i].number] = static_cast<std::int8_t>(i);
            }
        }
    }
    unknown_ = Find("k8s.io/apimachinery/pkg/runtime.Unknown");
    watch_event_ = Find("k8s.io/apimachinery/pkg/apis/meta/v1.WatchEvent");
    object_meta_ = Find("k8s.io/apimachinery/pkg/apis/meta/v1.ObjectMeta");
}

std::span<const Field> Schema::FieldsOf(std::int32_t message) const {
    const Message& m = table_.messages[message];
    return table_.fields.subspan(m.first_field, m.field_count);
}

int Schema::FieldIndex(std::int32_t message, std::uint32_t number) const {
    if (number < kDense) {
        return dense_[static_cast<std::size_t>(message) * kDense + number];
    }
    const auto fields = FieldsOf(message);
    for (std::size_t i = 0; i < fields.size(); ++i) {
        if (fields[i].number == number && fields[i].shape != Shape::kTypeMeta) {
            return static_cast<int>(i);
        }
    }
    return -1;
}

std::int32_t Schema::MessageFor(std::string_view api_version, std::string_view kind) const {
    const auto less = [](const KindEntry& e, std::pair<std::string_view, std::string_view> key) {
        const std::string_view v = e.api_version;
        return v < key.first || (v == key.first && std::string_view(e.kind) < key.second);
    };
    const auto key = std::make_pair(api_version, kind);
    const auto it = std::lower_bound(table_.kinds.begin(), table_.kinds.end(), key, less);
    if (it == table_.kinds.end() || it->api_version != api_version || it->kind != kind) {
        return -1;
    }
    return it->message;
}

const KindEntry* Schema::KindOf(std::int32_t message) const {
    for (const KindEntry& entry : table_.kinds) {
        if (entry.message == message) {
            return &entry;
        }
    }
    return nullptr;
}

std::int32_t Schema::Find(std::string_view name) const {
    const auto it = std::lower_bound(table_.messages.begin(), table_.messages.end(), name,
                                     [](const Message& m, std::string_view n) { return std::string_view(m.name) < n; });
    if (it == table_.messages.end() || it->name != name) {
        return -1;
    }
    return static_cast<std::int32_t>(it - table_.messages.begin());
}

}  // namespace ctrl::protobuf::internal
