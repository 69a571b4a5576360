#include <algorithm>
#include <string>

#include "ctrl/protobuf/internal/message_writer.hpp"
#include "ctrl/protobuf/internal/wire.hpp"

// Repeated fields and maps of MessageWriter.
namespace ctrl::protobuf::internal {

Status MessageWriter::WriteRepeated(const Field& field, std::size_t begin, std::size_t end) {
    const bool omit_empty = (field.flags & kOmitEmpty) != 0;
    const bool wrapped = (field.flags & kWrapped) != 0;
    if (begin == end) {
        if (!omit_empty) {
            out_.FieldName(field.json);
            out_.Null();
        }
        return OkStatus();
    }
    const bool varint = field.wire == Wire::kVarint || field.wire == Wire::kZigZag;
    if (varint) {
        // Elements may come packed (one length-delimited run of varints) or one by one.
        bool any = false;
        for (std::size_t i = begin; i < end && !any; ++i) {
            any = occurrences_[i].wire_type == 0 || !occurrences_[i].bytes.empty();
        }
        if (!any && omit_empty) {
            return OkStatus();
        }
    }
    out_.FieldName(field.json);
    out_.StartArray();
    for (std::size_t i = begin; i < end; ++i) {
        const Occurrence element = occurrences_[i];
        if (varint && element.wire_type == 2) {
            WireReader packed(element.bytes);
            while (!packed.AtEnd()) {
                Occurrence item{element.field, 0, 0, {}};
                if (!packed.Varint(item.number)) {
                    return Malformed("truncated packed varint");
                }
                if (Status status = WriteValue(field.kind, field.message, false, &item); !status.Ok()) {
                    return status;
                }
            }
            continue;
        }
        if ((field.flags & kElementTypeMeta) != 0 && field.kind == Kind::kMessage) {
            const KindEntry* kind = schema_.KindOf(field.message);
            const TypeMetaValues type_meta{kind != nullptr ? kind->kind : "", kind != nullptr ? kind->api_version : ""};
            if (Status status = WriteObject(field.message, element.bytes, &type_meta); !status.Ok()) {
                return status;
            }
            continue;
        }
        if (Status status = WriteValue(field.kind, field.message, wrapped, &element); !status.Ok()) {
            return status;
        }
    }
    out_.EndArray();
    return OkStatus();
}

Status MessageWriter::WriteMap(const Field& field, std::size_t begin, std::size_t end) {
    if (begin == end) {
        if ((field.flags & kOmitEmpty) == 0) {
            out_.FieldName(field.json);
            out_.Null();
        }
        return OkStatus();
    }
    // Entries {key = 1, value = 2}; a later entry for a key replaces an earlier one; Go writes keys sorted.
    struct Entry {
        std::string_view key;
        bool has_value;
        Occurrence value;
    };
    std::vector<Entry> entries;
    entries.reserve(end - begin);
    for (std::size_t i = begin; i < end; ++i) {
        WireReader reader(occurrences_[i].bytes);
        WireField wire;
        Entry entry{{}, false, {}};
        while (reader.Next(wire)) {
            if (wire.number == 1) {
                if (wire.wire_type != 2) {
                    return Malformed("map key with wire type " + std::to_string(wire.wire_type));
                }
                entry.key = wire.bytes;
            } else if (wire.number == 2) {
                entry.has_value = true;
                entry.value = {0, wire.wire_type, wire.number_value, wire.bytes};
            }
        }
        if (reader.error() != nullptr) {
            return Malformed(std::string("map entry: ") + reader.error());
        }
        const bool scalar_varint = field.value_kind == Kind::kBool || field.value_kind == Kind::kInt32 ||
                                   field.value_kind == Kind::kInt64 || field.value_kind == Kind::kUint32 ||
                                   field.value_kind == Kind::kUint64;
        if (entry.has_value && entry.value.wire_type != (scalar_varint ? 0 : 2)) {
            return Malformed("map value with wire type " + std::to_string(entry.value.wire_type));
        }
        entries.push_back(entry);
    }
    std::stable_sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) { return a.key < b.key; });
    out_.FieldName(field.json);
    out_.StartObject();
    for (std::size_t i = 0; i < entries.size(); ++i) {
        if (i + 1 < entries.size() && entries[i + 1].key == entries[i].key) {
            continue;  // the last entry of a key wins
        }
        out_.Key(entries[i].key);
        const bool wrapped = (field.flags & kWrapped) != 0;
        Status status = WriteValue(field.value_kind, field.value_message, wrapped,
                                   entries[i].has_value ? &entries[i].value : nullptr);
        if (!status.Ok()) {
            return status;
        }
    }
    out_.EndObject();
    return OkStatus();
}

}  // namespace ctrl::protobuf::internal
