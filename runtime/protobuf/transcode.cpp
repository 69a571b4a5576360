#include "runtime/protobuf/transcode.hpp"

#include "runtime/protobuf/internal/message_writer.hpp"
#include "runtime/protobuf/internal/schema.hpp"

namespace ctrl::protobuf {

bool HasBuiltinSchema(std::string_view api_version, std::string_view kind) {
    return internal::Schema::Builtin().MessageFor(api_version, kind) >= 0;
}

Status AppendJsonForEnvelope(std::string_view envelope, std::string& out) {
    internal::MessageWriter writer(internal::Schema::Builtin(), out);
    return writer.WriteEnvelope(envelope);
}

StatusOr<std::string> JsonForEnvelope(std::string_view envelope) {
    std::string out;
    out.reserve(envelope.size() * 3 / 2);
    if (Status status = AppendJsonForEnvelope(envelope, out); !status.Ok()) {
        return status;
    }
    return out;
}

Status AppendJsonForWatchEvent(std::string_view event, std::string& out, bool drop_managed_fields) {
    const internal::Schema& schema = internal::Schema::Builtin();
    internal::MessageWriter writer(schema, out, drop_managed_fields);
    return writer.WriteObject(schema.watch_event_message(), event, nullptr);
}

}  // namespace ctrl::protobuf
