// RE2 patterns (Go's regexp: OpenAPI `pattern`, CEL's matches()) read by std::regex (ECMAScript).
// The two agree on the syntax CRDs use, but for flags: RE2's (?i) (for the rest of its group) and
// (?i:...) are rewritten, every letter in their scope becoming both cases ([aA], [a-zA-Z]), and a
// named group (?P<name>...) becomes a plain group.
#include "ctrl/cel/internal/regex.hpp"

#include <cctype>
#include <map>
#include <mutex>
#include <vector>

namespace ctrl::cel::internal {

namespace {

char OtherCase(char c) {
    const auto u = static_cast<unsigned char>(c);
    return static_cast<char>(std::islower(u) ? std::toupper(u) : std::tolower(u));
}

bool IsLetter(char c) {
    return std::isalpha(static_cast<unsigned char>(c)) != 0;
}

// A character class from pattern[pos] ('[') to its ']': copied, and in an (?i) scope with the other
// case of each letter and letter range added. Advances pos past the class.
StatusOr<std::string> TranslateClass(std::string_view pattern, std::size_t& pos, bool icase) {
    std::string out = "[";
    std::string extra;
    ++pos;
    if (pos < pattern.size() && pattern[pos] == '^')
        out += pattern[pos++];
    for (bool first = true; pos < pattern.size() && (first || pattern[pos] != ']'); first = false) {
        if (pattern.substr(pos, 2) == "[:") {  // [:alpha:]
            const std::size_t end = pattern.find(":]", pos + 2);
            if (end == std::string_view::npos)
                return BadRequestError("unterminated [: in a character class");
            out += pattern.substr(pos, end + 2 - pos);
            pos = end + 2;
            continue;
        }
        if (pattern[pos] == '\\' && pos + 1 < pattern.size()) {
            out += pattern.substr(pos, 2);
            pos += 2;
            continue;
        }
        const char c = pattern[pos];
        const bool range = pos + 2 < pattern.size() && pattern[pos + 1] == '-' && pattern[pos + 2] != ']';
        if (range) {
            const char last = pattern[pos + 2];
            out += pattern.substr(pos, 3);
            if (icase && IsLetter(c) && IsLetter(last) && (std::islower(c) != 0) == (std::islower(last) != 0))
                extra += std::string{OtherCase(c), '-', OtherCase(last)};
            pos += 3;
            continue;
        }
        out += c;
        if (icase && IsLetter(c))
            extra += OtherCase(c);
        ++pos;
    }
    if (pos >= pattern.size())
        return BadRequestError("missing closing ]");
    ++pos;
    return out + extra + "]";
}

// The flags group at pattern[pos] ("(?i)", "(?i:", "(?:", "(?P<name>"): what replaces it, and whether
// an (?i) scope starts. Advances pos past it.
StatusOr<std::string> TranslateGroupStart(std::string_view pattern, std::size_t& pos, bool& icase, bool& opens) {
    opens = true;
    if (pattern.substr(pos, 3) == "(?:") {
        pos += 3;
        return std::string("(?:");
    }
    if (pattern.substr(pos, 4) == "(?P<") {
        const std::size_t end = pattern.find('>', pos);
        if (end == std::string_view::npos)
            return BadRequestError("unterminated group name");
        pos = end + 1;
        return std::string("(");
    }
    if (pattern.substr(pos, 4) == "(?i)") {
        pos += 4;
        icase = true;
        opens = false;
        return std::string();
    }
    if (pattern.substr(pos, 4) == "(?i:") {
        pos += 4;
        icase = true;
        return std::string("(?:");
    }
    if (pattern.substr(pos, 2) == "(?" && pattern.substr(pos, 3) != "(?=" && pattern.substr(pos, 3) != "(?!")
        return BadRequestError("flags group " + std::string(pattern.substr(pos, 4)) + " is not supported");
    ++pos;
    return std::string("(");
}

// A repetition "{m}", "{m,}" or "{m,n}" at pattern[pos]: refused past RE2's limit of 1000 (a larger
// count overflows libstdc++'s parser and would build an enormous automaton). Anything else at a
// '{' is left to std::regex.
Status CheckRepetition(std::string_view pattern, std::size_t pos) {
    const std::size_t close = pattern.find('}', pos);
    if (close == std::string_view::npos)
        return OkStatus();
    const std::string_view inside = pattern.substr(pos + 1, close - pos - 1);
    if (inside.empty() || inside.find_first_not_of("0123456789,") != std::string_view::npos)
        return OkStatus();
    for (std::size_t start = 0; start <= inside.size();) {
        const std::size_t comma = std::min(inside.find(',', start), inside.size());
        const std::string_view number = inside.substr(start, comma - start);
        if (!number.empty() && (number.size() > 4 || std::stoi(std::string(number)) > 1000))
            return BadRequestError("repetition count in {" + std::string(inside) + "} above 1000 (RE2's limit)");
        start = comma + 1;
    }
    return OkStatus();
}

StatusOr<std::string> Translate(std::string_view pattern) {
    std::string out;
    std::vector<bool> scopes{false};  // (?i) in force, per open group
    for (std::size_t pos = 0; pos < pattern.size();) {
        const char c = pattern[pos];
        if (c == '\\' && pos + 1 < pattern.size()) {
            out += pattern.substr(pos, 2);
            pos += 2;
        } else if (c == '[') {
            StatusOr<std::string> cls = TranslateClass(pattern, pos, scopes.back());
            if (!cls.Ok())
                return cls.GetStatus();
            out += *cls;
        } else if (c == '(') {
            bool icase = scopes.back();
            bool opens = true;
            StatusOr<std::string> group = TranslateGroupStart(pattern, pos, icase, opens);
            if (!group.Ok())
                return group.GetStatus();
            out += *group;
            if (opens)
                scopes.push_back(icase);
            else
                scopes.back() = icase;
        } else if (Status repetition = c == '{' ? CheckRepetition(pattern, pos) : OkStatus(); !repetition.Ok()) {
            return repetition;
        } else if (c == ')') {
            if (scopes.size() > 1)
                scopes.pop_back();
            out += c;
            ++pos;
        } else {
            out += scopes.back() && IsLetter(c) ? std::string{'[', c, OtherCase(c), ']'} : std::string(1, c);
            ++pos;
        }
    }
    return out;
}

StatusOr<std::shared_ptr<const std::regex>> Build(std::string_view pattern) {
    StatusOr<std::string> translated = Translate(pattern);
    if (!translated.Ok())
        return translated.GetStatus();
    try {
        return std::make_shared<const std::regex>(*translated, std::regex::ECMAScript);
    } catch (const std::regex_error& error) {
        return BadRequestError(error.what());
    }
}

}  // namespace

StatusOr<std::shared_ptr<const std::regex>> CompileRegex(std::string_view pattern) {
    static std::mutex mutex;
    static std::map<std::string, StatusOr<std::shared_ptr<const std::regex>>, std::less<>> cache;
    const std::lock_guard lock(mutex);
    if (auto it = cache.find(pattern); it != cache.end())
        return it->second;
    if (cache.size() >= 4096)
        cache.clear();  // bounds a process that matches many generated patterns
    return cache.emplace(std::string(pattern), Build(pattern)).first->second;
}

StatusOr<bool> RegexSearch(std::string_view pattern, const std::string& text) {
    StatusOr<std::shared_ptr<const std::regex>> regex = CompileRegex(pattern);
    if (!regex.Ok())
        return regex.GetStatus();
    try {
        return std::regex_search(text, **regex);
    } catch (const std::regex_error& error) {  // e.g. error_complexity on a long input
        return BadRequestError(error.what());
    }
}

}  // namespace ctrl::cel::internal
