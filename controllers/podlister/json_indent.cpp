#include "controllers/podlister/json_indent.hpp"

namespace ctrl::podlister {

std::string IndentJson(std::string_view compact, int indent, int base_level) {
    std::string out;
    out.reserve(compact.size() * 3 / 2);
    int level = base_level;
    auto new_line = [&] {
        out += '\n';
        out.append(static_cast<size_t>(level * indent), ' ');
    };
    for (size_t i = 0; i < compact.size(); ++i) {
        const char c = compact[i];
        switch (c) {
            case '"': {
                // Copy the whole string, escapes included.
                size_t end = i + 1;
                while (end < compact.size() && compact[end] != '"')
                    end += compact[end] == '\\' ? 2 : 1;
                out.append(compact.substr(i, end + 1 - i));
                i = end;
                break;
            }
            case '{':
            case '[':
                if (i + 1 < compact.size() && (compact[i + 1] == '}' || compact[i + 1] == ']')) {
                    out += c;
                    out += compact[++i];
                    break;
                }
                out += c;
                ++level;
                new_line();
                break;
            case '}':
            case ']':
                --level;
                new_line();
                out += c;
                break;
            case ',':
                out += c;
                new_line();
                break;
            case ':':
                out += ": ";
                break;
            default:
                out += c;
        }
    }
    return out;
}

}  // namespace ctrl::podlister
