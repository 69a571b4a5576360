#pragma once

#include <simdjson.h>

#include <string_view>

#include "ctrl/core/internal/json.hpp"

namespace ctrl::rest::internal {

// Feeds a simdjson value to a RapidJSON-style SAX handler: a document, which builds each object and
// array at its exact size in its pool as its own parser would, or what builds another form. False
// when the handler refuses a value.
template <typename Handler>
bool EmitSimdjson(simdjson::dom::element value, Handler& handler) {
    using Kind = simdjson::dom::element_type;
    switch (value.type()) {
        case Kind::OBJECT: {
            handler.StartObject();
            rapidjson::SizeType members = 0;
            const simdjson::dom::object object = value.get_object().value_unsafe();
            for (const simdjson::dom::key_value_pair field : object) {
                handler.Key(field.key.data(), static_cast<rapidjson::SizeType>(field.key.size()), true);
                if (!EmitSimdjson(field.value, handler))
                    return false;
                ++members;
            }
            return handler.EndObject(members);
        }
        case Kind::ARRAY: {
            handler.StartArray();
            rapidjson::SizeType elements = 0;
            const simdjson::dom::array array = value.get_array().value_unsafe();
            for (const simdjson::dom::element element : array) {
                if (!EmitSimdjson(element, handler))
                    return false;
                ++elements;
            }
            return handler.EndArray(elements);
        }
        case Kind::STRING: {
            const std::string_view text = value.get_string().value_unsafe();
            return handler.String(text.data(), static_cast<rapidjson::SizeType>(text.size()), true);
        }
        case Kind::INT64:
            return handler.Int64(value.get_int64().value_unsafe());
        case Kind::UINT64:
            return handler.Uint64(value.get_uint64().value_unsafe());
        case Kind::DOUBLE:
            return handler.Double(value.get_double().value_unsafe());
        case Kind::BOOL:
            return handler.Bool(value.get_bool().value_unsafe());
        case Kind::NULL_VALUE:
            return handler.Null();
    }
    return false;
}

}  // namespace ctrl::rest::internal
