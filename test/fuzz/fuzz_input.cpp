#include "test/fuzz/fuzz_input.hpp"

#include <cstdio>
#include <cstdlib>
#include <set>

#include "ctrl/core/internal/json.hpp"

namespace ctrl::fuzz {

namespace {

bool HasDuplicateMembers(const ctrl::internal::JsonValue& value) {
    if (value.IsArray()) {
        for (const ctrl::internal::JsonValue& element : value.GetArray())
            if (HasDuplicateMembers(element))
                return true;
        return false;
    }
    if (!value.IsObject())
        return false;
    std::set<std::string_view> names;
    for (const auto& member : value.GetObject()) {
        if (!names.insert(std::string_view(member.name.GetString(), member.name.GetStringLength())).second ||
            HasDuplicateMembers(member.value))
            return true;
    }
    return false;
}

}  // namespace

bool HasDuplicateMembers(const Object& object) {
    return HasDuplicateMembers(object.Document().Root());
}

void ExpectOkOrBadRequest(const Status& status, std::string_view what) {
    if (!status.Ok() && status.Code() != StatusCode::kBadRequest)
        PropertyFailed(what, status.ToString());
}

void PropertyFailed(std::string_view what, std::string_view detail) {
    std::fprintf(stderr, "fuzz property failed: %.*s\n%.*s\n", static_cast<int>(what.size()), what.data(),
                 static_cast<int>(detail.size()), detail.data());
    std::abort();
}

}  // namespace ctrl::fuzz
