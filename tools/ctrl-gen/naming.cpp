#include "tools/ctrl-gen/naming.hpp"

#include <cctype>
#include <charconv>

#include "ctrl/core/json_string.hpp"

namespace ctrl::gen {

namespace {

bool IsAlnum(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0;
}
bool IsUpper(char c) {
    return std::isupper(static_cast<unsigned char>(c)) != 0;
}
bool IsLower(char c) {
    return std::islower(static_cast<unsigned char>(c)) != 0 || std::isdigit(static_cast<unsigned char>(c)) != 0;
}

}  // namespace

std::string PascalName(std::string_view json_name) {
    std::string out;
    bool start_of_word = true;
    for (char c : json_name) {
        if (!IsAlnum(c)) {
            start_of_word = true;
            continue;
        }
        out += start_of_word ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
        start_of_word = false;
    }
    if (out.empty() || std::isdigit(static_cast<unsigned char>(out[0])) != 0)
        out = "Field" + out;
    return out;
}

std::string EnumConstantName(std::string_view value) {
    std::string out;
    bool start_of_word = true;
    bool separated = false;
    if (value.size() > 1 && value[0] == '-' && std::isdigit(static_cast<unsigned char>(value[1])) != 0)
        out = "Minus";
    for (char c : value) {
        if (!IsAlnum(c)) {
            start_of_word = true;
            separated = !out.empty();
            continue;
        }
        const bool digit = std::isdigit(static_cast<unsigned char>(c)) != 0;
        if (separated && digit && std::isdigit(static_cast<unsigned char>(out.back())) != 0)
            out += '_';
        out += start_of_word ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
        start_of_word = false;
        separated = false;
    }
    return "k" + (out.empty() ? std::string("Empty") : out);
}

std::optional<int64_t> ParseDecimalInteger(std::string_view text) {
    const bool plus = text.starts_with('+');
    if (plus)
        text.remove_prefix(1);
    if (text.empty() || (plus && text.front() == '-'))
        return std::nullopt;
    int64_t value = 0;
    const char* end = text.data() + text.size();
    const auto [ptr, error] = std::from_chars(text.data(), end, value);
    if (error != std::errc() || ptr != end)
        return std::nullopt;
    return value;
}

std::optional<std::string> CanonicalNumber(std::string_view text) {
    if (text.starts_with('+'))
        text.remove_prefix(1);
    double value = 0;
    const char* end = text.data() + text.size();
    const auto [ptr, error] = std::from_chars(text.data(), end, value);
    if (text.empty() || error != std::errc() || ptr != end)
        return std::nullopt;
    char out[32];
    return std::string(out, std::to_chars(out, out + sizeof out, value).ptr);
}

std::string SnakeName(std::string_view name) {
    std::string out;
    for (std::size_t i = 0; i < name.size(); ++i) {
        const char c = name[i];
        if (!IsAlnum(c)) {
            if (!out.empty() && out.back() != '_')
                out += '_';
            continue;
        }
        if (IsUpper(c) && i > 0) {
            const bool after_lower = IsLower(name[i - 1]);
            const bool acronym_end = IsUpper(name[i - 1]) && i + 1 < name.size() && IsLower(name[i + 1]) &&
                                     std::isalpha(static_cast<unsigned char>(name[i + 1])) != 0;
            if ((after_lower || acronym_end) && !out.empty() && out.back() != '_')
                out += '_';
        }
        out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    return out;
}

std::string Identifier(std::string_view text) {
    std::string out;
    for (char c : text)
        out += IsAlnum(c) ? c : '_';
    if (out.empty() || std::isdigit(static_cast<unsigned char>(out[0])) != 0)
        out = "_" + out;
    return out;
}

std::string GroupLabel(std::string_view group) {
    return Identifier(group.substr(0, group.find('.')));
}

std::string CppStringLiteral(std::string_view text) {
    // A JSON string literal is a C++ one (C++17 dropped trigraphs; \u escapes name characters).
    std::string out;
    AppendJsonString(out, text);
    return out;
}

std::vector<std::string> CommentLines(std::string_view text, std::size_t width) {
    std::vector<std::string> lines;
    std::string line;
    std::string word;
    int newlines = 0;
    const auto flush_word = [&] {
        if (word.empty())
            return;
        if (!line.empty() && line.size() + 1 + word.size() > width) {
            lines.push_back(line);
            line.clear();
        }
        line += (line.empty() ? "" : " ") + word;
        word.clear();
    };
    for (char c : text) {
        if (c == '\n' || c == ' ' || c == '\t' || c == '\r') {
            flush_word();
            newlines += c == '\n' ? 1 : 0;
            continue;
        }
        if (newlines >= 2 && !line.empty()) {
            lines.push_back(line);
            lines.emplace_back();
            line.clear();
        }
        newlines = 0;
        word += c;
    }
    flush_word();
    if (!line.empty())
        lines.push_back(line);
    for (std::string& l : lines) {
        if (!l.empty() && l.back() == '\\')
            l += '.';
    }
    return lines;
}

bool NameScope::Free(const std::vector<std::string>& names) const {
    for (const std::string& name : names) {
        if (taken_.contains(name))
            return false;
    }
    return true;
}

void NameScope::Take(const std::vector<std::string>& names) {
    taken_.insert(names.begin(), names.end());
}

std::string NameScope::Unique(const std::string& name) {
    std::string candidate = name;
    for (int n = 2; taken_.contains(candidate); ++n)
        candidate = name + std::to_string(n);
    taken_.insert(candidate);
    return candidate;
}

}  // namespace ctrl::gen
