#include "runtime/rest/internal/simdjson_document.hpp"

#include <string_view>

namespace ctrl::rest::internal {

bool EmitSimdjson(simdjson::dom::element value, ctrl::internal::JsonDocument::Document& doc) {
    using Kind = simdjson::dom::element_type;
    switch (value.type()) {
        case Kind::OBJECT: {
            doc.StartObject();
            rapidjson::SizeType members = 0;
            const simdjson::dom::object object = value.get_object().value_unsafe();
            for (const simdjson::dom::key_value_pair field : object) {
                doc.Key(field.key.data(), static_cast<rapidjson::SizeType>(field.key.size()), true);
                if (!EmitSimdjson(field.value, doc))
                    return false;
                ++members;
            }
            return doc.EndObject(members);
        }
        case Kind::ARRAY: {
            doc.StartArray();
            rapidjson::SizeType elements = 0;
            const simdjson::dom::array array = value.get_array().value_unsafe();
            for (const simdjson::dom::element element : array) {
                if (!EmitSimdjson(element, doc))
                    return false;
                ++elements;
            }
            return doc.EndArray(elements);
        }
        case Kind::STRING: {
            const std::string_view text = value.get_string().value_unsafe();
            return doc.String(text.data(), static_cast<rapidjson::SizeType>(text.size()), true);
        }
        case Kind::INT64:
            return doc.Int64(value.get_int64().value_unsafe());
        case Kind::UINT64:
            return doc.Uint64(value.get_uint64().value_unsafe());
        case Kind::DOUBLE:
            return doc.Double(value.get_double().value_unsafe());
        case Kind::BOOL:
            return doc.Bool(value.get_bool().value_unsafe());
        case Kind::NULL_VALUE:
            return doc.Null();
    }
    return false;
}

}  // namespace ctrl::rest::internal
