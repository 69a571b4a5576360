#pragma once

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace ctrl::testing {

// The bytes of the file at path; empty when it cannot be read (the test's comparison then fails).
inline std::string ReadFile(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

// A sample object's JSON as a test compares it: the file without its trailing newlines (a
// serialized object has none).
inline std::string ReadSample(const std::filesystem::path& path) {
    std::string text = ReadFile(path);
    while (!text.empty() && text.back() == '\n')
        text.pop_back();
    return text;
}

}  // namespace ctrl::testing
