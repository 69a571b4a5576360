#include "test/support/metrics_text.hpp"

#include <cstdlib>
#include <functional>
#include <sstream>

namespace ctrl::testing {
namespace {

// Parses `{a="x",b="y"}` starting at text[at] == '{'; returns the index after '}' or npos.
size_t ParseLabels(std::string_view text, size_t at, std::map<std::string, std::string>& labels) {
    ++at;
    while (at < text.size() && text[at] != '}') {
        const size_t equals = text.find('=', at);
        if (equals == std::string_view::npos || equals + 1 >= text.size() || text[equals + 1] != '"')
            return std::string_view::npos;
        std::string key(text.substr(at, equals - at));
        std::string value;
        size_t i = equals + 2;
        for (; i < text.size() && text[i] != '"'; ++i) {
            if (text[i] == '\\' && i + 1 < text.size()) {
                ++i;
                value += text[i] == 'n' ? '\n' : text[i];
            } else {
                value += text[i];
            }
        }
        if (i >= text.size())
            return std::string_view::npos;
        labels[std::move(key)] = std::move(value);
        at = i + 1;
        if (at < text.size() && text[at] == ',')
            ++at;
    }
    return at < text.size() ? at + 1 : std::string_view::npos;
}

// Calls visit(value) for every sample of name whose labels include wanted.
void ForEachSample(std::string_view text, std::string_view name, const std::map<std::string, std::string>& wanted,
                   const std::function<void(double)>& visit) {
    std::istringstream in{std::string(text)};
    for (std::string line; std::getline(in, line);) {
        if (line.empty() || line[0] == '#' || line.compare(0, name.size(), name) != 0)
            continue;
        size_t at = name.size();
        std::map<std::string, std::string> labels;
        if (at < line.size() && line[at] == '{') {
            at = ParseLabels(line, at, labels);
            if (at == std::string::npos)
                continue;
        }
        if (at >= line.size() || line[at] != ' ')
            continue;  // another metric whose name starts with `name`
        bool matches = true;
        for (const auto& [key, value] : wanted) {
            auto found = labels.find(key);
            matches = matches && found != labels.end() && found->second == value;
        }
        if (matches)
            visit(std::strtod(line.c_str() + at + 1, nullptr));
    }
}

}  // namespace

std::optional<double> MetricValue(std::string_view text, std::string_view name,
                                  const std::map<std::string, std::string>& labels) {
    std::optional<double> first;
    ForEachSample(text, name, labels, [&](double value) {
        if (!first)
            first = value;
    });
    return first;
}

double MetricSum(std::string_view text, std::string_view name, const std::map<std::string, std::string>& labels) {
    double sum = 0;
    ForEachSample(text, name, labels, [&](double value) { sum += value; });
    return sum;
}

std::string MetricLines(std::string_view text, std::string_view prefix) {
    std::istringstream in{std::string(text)};
    std::string lines;
    for (std::string line; std::getline(in, line);) {
        if (line.compare(0, prefix.size(), prefix) == 0)
            lines += line + "\n";
    }
    return lines.empty() ? "(no " + std::string(prefix) + "* sample)\n" : lines;
}

}  // namespace ctrl::testing
