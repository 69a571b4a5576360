#include "ctrl/fake/internal/object_meta.hpp"

#include <chrono>
#include <cstdio>
#include <mutex>
#include <random>

#include "ctrl/api/timestamp.hpp"
#include "ctrl/fake/internal/api_errors.hpp"

namespace ctrl::fake::internal {
namespace {

constexpr std::string_view kNameAlphabet = "bcdfghjklmnpqrstvwxz2456789";
constexpr std::size_t kGeneratedLength = 5;
constexpr std::size_t kMaxGeneratePrefix = 58;
constexpr std::size_t kMaxLabel = 63;
constexpr std::size_t kMaxSubdomain = 253;

uint64_t Random() {
    static std::mutex mutex;
    static std::mt19937_64 engine(std::random_device{}());
    std::lock_guard lock(mutex);
    return engine();
}

bool IsAlnum(char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

bool IsLabel(std::string_view s) {
    if (s.empty() || s.size() > kMaxLabel || !IsAlnum(s.front()) || !IsAlnum(s.back()))
        return false;
    for (char c : s) {
        if (!IsAlnum(c) && c != '-')
            return false;
    }
    return true;
}

bool IsSubdomain(std::string_view s) {
    if (s.empty() || s.size() > kMaxSubdomain)
        return false;
    std::size_t start = 0;
    while (true) {
        const std::size_t dot = s.find('.', start);
        const std::string_view part = s.substr(start, dot == std::string_view::npos ? s.npos : dot - start);
        if (part.empty() || !IsAlnum(part.front()) || !IsAlnum(part.back()))
            return false;
        for (char c : part) {
            if (!IsAlnum(c) && c != '-')
                return false;
        }
        if (dot == std::string_view::npos)
            return true;
        start = dot + 1;
    }
}

// A copy of o without metadata and status.
Object Body(const Object& o) {
    Object body = o.DeepCopy();
    body.RemoveNestedField({"metadata"});
    body.RemoveNestedField({"status"});
    return body;
}

Object WithoutVersion(const Object& o) {
    Object copy = o.DeepCopy();
    copy.RemoveNestedField({"metadata", "resourceVersion"});
    copy.RemoveManagedFields();
    return copy;
}

}  // namespace

std::string NewUid() {
    const uint64_t high = (Random() & 0xffffffffffff0fffULL) | 0x0000000000004000ULL;
    const uint64_t low = (Random() & 0x3fffffffffffffffULL) | 0x8000000000000000ULL;
    char text[37];
    std::snprintf(text, sizeof(text), "%08x-%04x-%04x-%04x-%012llx", static_cast<unsigned>(high >> 32),
                  static_cast<unsigned>((high >> 16) & 0xffff), static_cast<unsigned>(high & 0xffff),
                  static_cast<unsigned>(low >> 48), static_cast<unsigned long long>(low & 0xffffffffffffULL));
    return text;
}

std::string Now() {
    return api::FormatRfc3339(std::chrono::system_clock::now());
}

std::string GenerateName(std::string_view prefix) {
    std::string name(prefix.substr(0, kMaxGeneratePrefix));
    for (std::size_t i = 0; i < kGeneratedLength; ++i)
        name += kNameAlphabet[Random() % kNameAlphabet.size()];
    return name;
}

Status ValidateName(const GroupVersionKind& gvk, std::string_view name) {
    if (gvk.group.empty() && gvk.kind == "Namespace") {
        if (IsLabel(name))
            return OkStatus();
        return InvalidField(QualifiedKind(gvk), name, "metadata.name", "FieldValueInvalid",
                            "Invalid value: \"" + std::string(name) +
                                "\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters "
                                "or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or "
                                "'123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')");
    }
    if (IsSubdomain(name))
        return OkStatus();
    return InvalidField(QualifiedKind(gvk), name, "metadata.name", "FieldValueInvalid",
                        "Invalid value: \"" + std::string(name) +
                            "\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, "
                            "'-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', "
                            "regex used for validation is "
                            "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')");
}

bool SpecChanged(const Object& a, const Object& b) {
    return !(Body(a) == Body(b));
}

bool SameButVersion(const Object& a, const Object& b) {
    return WithoutVersion(a) == WithoutVersion(b);
}

}  // namespace ctrl::fake::internal
