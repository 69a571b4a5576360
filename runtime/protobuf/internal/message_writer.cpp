#include "ctrl/protobuf/internal/message_writer.hpp"

#include <algorithm>
#include <string>

#include "ctrl/protobuf/internal/go_json.hpp"
#include "ctrl/protobuf/internal/wire.hpp"

namespace ctrl::protobuf::internal {
namespace {

constexpr std::size_t kMaxDepth = 100;

std::uint8_t WireTypeOf(Wire wire) {
    switch (wire) {
        case Wire::kVarint:
        case Wire::kZigZag:
            return 0;
        case Wire::kFixed64:
            return 1;
        case Wire::kFixed32:
            return 5;
        default:
            return 2;
    }
}

// Whether a scalar of `kind` is Go's zero value (what omitempty leaves out).
bool IsZero(Kind kind, const WireField& value) {
    switch (kind) {
        case Kind::kString:
        case Kind::kBytes:
            return value.bytes.empty();
        case Kind::kInt32:
            return static_cast<std::uint32_t>(value.number_value) == 0;
        case Kind::kUint32:
        case Kind::kFloat32:
            return static_cast<std::uint32_t>(value.number_value) == 0;
        case Kind::kBool:
        case Kind::kInt64:
        case Kind::kUint64:
            return value.number_value == 0;
        case Kind::kFloat64:
            return (value.number_value << 1) == 0;  // +0 and -0
        default:
            return false;
    }
}

bool IsScalar(Kind kind) {
    return kind == Kind::kString || kind == Kind::kBytes || kind == Kind::kBool || kind == Kind::kInt32 ||
           kind == Kind::kInt64 || kind == Kind::kUint32 || kind == Kind::kUint64 || kind == Kind::kFloat32 ||
           kind == Kind::kFloat64;
}

// Whether encoding/json leaves a field out when it is absent from the bytes (nil or zero).
bool IsOmittedWhenAbsent(const Field& field) {
    if ((field.flags & kOmitEmpty) == 0) {
        return false;
    }
    switch (field.shape) {
        case Shape::kPointer:
        case Shape::kMap:
            return true;
        case Shape::kRepeated:
            return field.json != "items";
        case Shape::kSingle:
            return IsScalar(field.kind) || (field.flags & kWrapped) != 0;
        default:
            return false;
    }
}

}  // namespace

Status MessageWriter::Malformed(std::string_view what) const {
    std::string message = "malformed protobuf";
    if (!messages_.empty()) {
        message += " in ";
        message += schema_.NameOf(messages_.front());
    }
    if (!path_.empty()) {
        message += " at ";
        for (std::size_t i = 0; i < path_.size(); ++i) {
            message += i == 0 ? "" : ".";
            message += path_[i];
        }
    }
    if (messages_.size() > 1) {
        message += " (";
        message += schema_.NameOf(messages_.back());
        message += ")";
    }
    message += ": ";
    message += what;
    return BadRequestError(std::move(message));
}

bool MessageWriter::IsDroppedManagedFields(std::int32_t message, const Field& field) const {
    return drop_managed_fields_ && message == schema_.object_meta_message() &&
           static_cast<std::ptrdiff_t>(messages_.size()) == envelope_depth_ + 2 && field.json == "managedFields";
}

void MessageWriter::WriteFormatted() {
    out_.String(std::string_view(scratch_).substr(1, scratch_.size() - 2));
}

std::string_view MessageWriter::MessageBytes(std::size_t begin, std::size_t end, std::string& merged) const {
    if (begin == end) {
        return {};
    }
    if (end - begin == 1) {
        return occurrences_[begin].bytes;
    }
    for (std::size_t i = begin; i < end; ++i) {
        merged.append(occurrences_[i].bytes);
    }
    return merged;
}

Status MessageWriter::WriteObject(std::int32_t message, std::string_view data, const TypeMetaValues* type_meta) {
    if (messages_.size() >= kMaxDepth) {
        return Malformed("messages nested deeper than 100");
    }
    messages_.push_back(message);
    out_.StartObject();
    Status status = WriteFields(message, data, type_meta);
    if (status.Ok())
        out_.EndObject();  // after an error nothing more is written: a document builder has a value missing
    messages_.pop_back();
    return status;
}

Status MessageWriter::WriteFields(std::int32_t message, std::string_view data, const TypeMetaValues* type_meta) {
    const auto fields = schema_.FieldsOf(message);
    const std::size_t start = occurrences_.size();
    WireReader reader(data);
    WireField wire;
    bool sorted = true;
    while (reader.Next(wire)) {
        const int index = schema_.FieldIndex(message, wire.number);
        if (index < 0) {
            // A field this version does not know (a newer server). Go's decoder skips it; the JSON
            // the server would send has it, and a cache must not hold less than that without
            // saying so: the caller reads this kind as JSON instead.
            occurrences_.resize(start);
            return BadRequestError("protobuf field " + std::to_string(wire.number) + " of " +
                                   std::string(schema_.NameOf(message)) +
                                   " is not in ctrl's schema (k8s.io/api v0.37.2): read this kind as JSON");
        }
        const Field& field = fields[static_cast<std::size_t>(index)];
        const std::uint8_t expected = WireTypeOf(field.wire);
        const bool packed = field.shape == Shape::kRepeated && expected != 2 && wire.wire_type == 2;
        if (wire.wire_type != expected && !packed) {
            path_.push_back(field.json);
            Status status = Malformed("field " + std::to_string(wire.number) + " has wire type " +
                                      std::to_string(wire.wire_type) + ", expected " + std::to_string(expected));
            path_.pop_back();
            occurrences_.resize(start);
            return status;
        }
        if (occurrences_.size() > start && occurrences_.back().field > static_cast<std::uint32_t>(index)) {
            sorted = false;
        }
        occurrences_.push_back({static_cast<std::uint32_t>(index), wire.wire_type, wire.number_value, wire.bytes});
    }
    if (reader.error() != nullptr) {
        occurrences_.resize(start);
        return Malformed(std::string(reader.error()) + " at byte " + std::to_string(reader.position()));
    }
    const std::size_t end = occurrences_.size();
    if (!sorted) {
        std::stable_sort(occurrences_.begin() + static_cast<std::ptrdiff_t>(start),
                         occurrences_.begin() + static_cast<std::ptrdiff_t>(end),
                         [](const Occurrence& a, const Occurrence& b) { return a.field < b.field; });
    }
    std::size_t cursor = start;
    Status status;
    for (std::size_t i = 0; i < fields.size() && status.Ok(); ++i) {
        std::size_t last = cursor;
        while (last < end && occurrences_[last].field == i) {
            ++last;
        }
        if ((last == cursor && IsOmittedWhenAbsent(fields[i])) || IsDroppedManagedFields(message, fields[i])) {
            cursor = last;
            continue;
        }
        path_.push_back(fields[i].json);
        status = WriteField(fields[i], cursor, last, type_meta);
        path_.pop_back();
        cursor = last;
    }
    occurrences_.resize(start);
    return status;
}

Status MessageWriter::WriteField(const Field& field, std::size_t begin, std::size_t end,
                                 const TypeMetaValues* type_meta) {
    const bool omit_empty = (field.flags & kOmitEmpty) != 0;
    switch (field.shape) {
        case Shape::kTypeMeta:
            if (type_meta != nullptr && !type_meta->kind.empty()) {
                out_.FieldName("kind");
                out_.String(type_meta->kind);
            }
            if (type_meta != nullptr && !type_meta->api_version.empty()) {
                out_.FieldName("apiVersion");
                out_.String(type_meta->api_version);
            }
            return OkStatus();
        case Shape::kInline: {
            std::string merged;
            const std::string_view bytes = MessageBytes(begin, end, merged);
            if (messages_.size() >= kMaxDepth) {
                return Malformed("messages nested deeper than 100");
            }
            messages_.push_back(field.message);
            Status status = WriteFields(field.message, bytes, nullptr);
            messages_.pop_back();
            return status;
        }
        case Shape::kRepeated:
            if (begin == end && type_meta != nullptr && type_meta->kind.ends_with("List") && field.json == "items") {
                out_.FieldName(field.json);
                out_.StartArray();  // the server's lists never say "items":null
                out_.EndArray();
                return OkStatus();
            }
            return WriteRepeated(field, begin, end);
        case Shape::kMap:
            return WriteMap(field, begin, end);
        case Shape::kPointer:
            if (begin == end) {
                if (!omit_empty) {
                    out_.FieldName(field.json);
                    out_.Null();
                }
                return OkStatus();
            }
            break;
        case Shape::kSingle:
            break;
    }
    const bool wrapped = (field.flags & kWrapped) != 0;
    if (field.shape == Shape::kSingle && (IsScalar(field.kind) || wrapped) && omit_empty) {
        if (begin == end) {
            return OkStatus();
        }
        const Occurrence& last = occurrences_[end - 1];
        WireField value{0, last.wire_type, last.number, last.bytes};
        if ((wrapped && last.bytes.empty()) || (!wrapped && IsZero(field.kind, value))) {
            return OkStatus();
        }
    }
    if (field.shape == Shape::kSingle && field.kind == Kind::kBytes && begin == end) {
        out_.FieldName(field.json);
        out_.Null();  // a nil []byte
        return OkStatus();
    }
    if ((field.flags & kOmitZero) != 0) {
        std::string merged;
        const std::string_view bytes = MessageBytes(begin, end, merged);
        WireReader reader(bytes);
        WireField wire;
        std::int64_t seconds = 0;
        std::int64_t nanos = 0;
        while (reader.Next(wire)) {
            seconds = wire.number == 1 ? static_cast<std::int64_t>(wire.number_value) : seconds;
            nanos = wire.number == 2 ? static_cast<std::int32_t>(wire.number_value) : nanos;
        }
        if (field.kind == Kind::kTime) {
            nanos = 0;
        }
        if (bytes.empty() || (seconds == -62135596800 && nanos / 1000 == 0)) {
            return OkStatus();
        }
    }
    out_.FieldName(field.json);
    if (begin == end) {
        return WriteValue(field.kind, field.message, wrapped, nullptr);
    }
    if (field.kind == Kind::kMessage || (!IsScalar(field.kind) && !wrapped)) {
        std::string merged;
        const Occurrence whole{0, 2, 0, MessageBytes(begin, end, merged)};
        return WriteValue(field.kind, field.message, wrapped, &whole);
    }
    const Occurrence last = occurrences_[end - 1];
    return WriteValue(field.kind, field.message, wrapped, &last);
}

Status MessageWriter::WriteValue(Kind kind, std::int32_t message, bool wrapped, const Occurrence* value) {
    if (wrapped) {
        // A named []string with its own message: {repeated string items = 1}.
        if (value == nullptr) {
            out_.Null();
            return OkStatus();
        }
        WireReader reader(value->bytes);
        WireField item;
        out_.StartArray();
        while (reader.Next(item)) {
            if (item.number == 1 && item.wire_type == 2) {
                out_.String(item.bytes);
            }
        }
        out_.EndArray();
        return reader.error() == nullptr ? OkStatus() : Malformed(reader.error());
    }
    const std::uint64_t n = value != nullptr ? value->number : 0;
    switch (kind) {
        case Kind::kString:
            out_.String(value != nullptr ? value->bytes : std::string_view());
            break;
        case Kind::kBool:
            out_.Bool(n != 0);
            break;
        case Kind::kInt32:
            out_.Int64(static_cast<std::int32_t>(static_cast<std::uint32_t>(n)));
            break;
        case Kind::kInt64:
            out_.Int64(static_cast<std::int64_t>(n));
            break;
        case Kind::kUint32:
            out_.Uint64(static_cast<std::uint32_t>(n));
            break;
        case Kind::kUint64:
            out_.Uint64(n);
            break;
        case Kind::kFloat32:
        case Kind::kFloat64:
            return Malformed("floating-point fields are not used by built-in kinds");
        case Kind::kBytes:
            if (value == nullptr) {
                out_.Null();
            } else {
                scratch_.clear();
                AppendBase64(scratch_, value->bytes);
                WriteFormatted();
            }
            break;
        case Kind::kMessage:
            return WriteObject(message, value != nullptr ? value->bytes : std::string_view(), nullptr);
        case Kind::kNone:
        case Kind::kUnsupported:
            return Malformed("a field of a type the transcoder does not support");
        default:
            return WriteSpecial(kind, value != nullptr ? value->bytes : std::string_view(), value != nullptr);
    }
    return OkStatus();
}

}  // namespace ctrl::protobuf::internal
