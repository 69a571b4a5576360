#include <string>

#include "ctrl/protobuf/internal/go_json.hpp"
#include "ctrl/protobuf/internal/message_writer.hpp"
#include "ctrl/protobuf/internal/wire.hpp"

// The types that marshal themselves: metav1.Time, MicroTime, Duration, resource.Quantity,
// intstr.IntOrString, metav1.FieldsV1, runtime.RawExtension (facts from k8s.io/apimachinery
// v0.37.2: time_proto.go, micro_time_proto.go, duration.go, quantity_proto.go, intstr.go,
// helpers.go, extension.go).
namespace ctrl::protobuf::internal {
namespace {

constexpr std::int64_t kZeroTimeSeconds = -62135596800;  // Go's time.Time{} as Unix seconds

bool LooksLikeCbor(unsigned char c) {
    return c == 0xF6 || (c >= 0xA0 && c <= 0xBF) || (c >= 0xC6 && c <= 0xDB);
}

}  // namespace

Status MessageWriter::WriteSpecial(Kind kind, std::string_view bytes, bool present) {
    std::uint64_t numbers[4] = {0, 0, 0, 0};
    std::string_view strings[4];
    bool seen[4] = {false, false, false, false};
    WireReader reader(bytes);
    WireField wire;
    while (reader.Next(wire)) {
        if (wire.number < 4) {
            numbers[wire.number] = wire.number_value;
            strings[wire.number] = wire.bytes;
            seen[wire.number] = true;
        }
    }
    if (reader.error() != nullptr) {
        return Malformed(reader.error());
    }
    switch (kind) {
        case Kind::kTime:
        case Kind::kMicroTime: {
            // Time keeps seconds only; MicroTime truncates nanos to microseconds. Empty is zero.
            const auto seconds = static_cast<std::int64_t>(numbers[1]);
            const std::int64_t nanos = kind == Kind::kTime ? 0 : static_cast<std::int32_t>(numbers[2]) / 1000 * 1000;
            if (bytes.empty() || (seconds == kZeroTimeSeconds && nanos == 0)) {
                out_.Null();
            } else {
                scratch_.clear();
                AppendRfc3339(scratch_, seconds, nanos, kind == Kind::kMicroTime);
                WriteFormatted();
            }
            return OkStatus();
        }
        case Kind::kDuration:
            scratch_.clear();
            AppendGoDuration(scratch_, static_cast<std::int64_t>(numbers[1]));
            WriteFormatted();
            return OkStatus();
        case Kind::kQuantity:
            // The server writes the canonical string; a zero Quantity writes "0".
            out_.String(strings[1].empty() ? std::string_view("0") : strings[1]);
            return OkStatus();
        case Kind::kIntOrString:
            if (numbers[1] == 1) {
                out_.String(strings[3]);
            } else {
                out_.Int64(static_cast<std::int32_t>(static_cast<std::uint32_t>(numbers[2])));
            }
            return OkStatus();
        case Kind::kFieldsV1:
            if (strings[1].empty()) {
                out_.Null();
                return OkStatus();
            }
            if (LooksLikeCbor(static_cast<unsigned char>(strings[1][0]))) {
                return Malformed("FieldsV1 holds CBOR, which the transcoder does not convert");
            }
            if (!out_.RawJson(strings[1])) {
                return Malformed("FieldsV1 holds malformed JSON");
            }
            return OkStatus();
        case Kind::kRawExtension:
            if (!present || !seen[1]) {
                out_.Null();
                return OkStatus();
            }
            if (strings[1].substr(0, 4) == std::string_view("k8s\0", 4)) {
                return WriteEnvelope(strings[1]);
            }
            if (!out_.RawJson(strings[1])) {
                return Malformed("RawExtension holds neither JSON nor a protobuf envelope");
            }
            return OkStatus();
        default:
            return Malformed("unexpected kind");
    }
}

}  // namespace ctrl::protobuf::internal
