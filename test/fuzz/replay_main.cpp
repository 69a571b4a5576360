// The fuzz targets' main when libFuzzer is not linked (every build but hack/fuzz.sh's): runs the
// target once on each file named, or on each file of each directory named, in name order, so the
// corpus replays in the ordinary, sanitizer and clang builds. Arguments starting with '-' (libFuzzer
// flags) are ignored. Fails when no input was found: an empty corpus tests nothing.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {

std::vector<std::filesystem::path> InputsNamedBy(const std::filesystem::path& argument) {
    std::vector<std::filesystem::path> inputs;
    if (std::filesystem::is_directory(argument)) {
        for (const auto& entry : std::filesystem::directory_iterator(argument))
            if (entry.is_regular_file())
                inputs.push_back(entry.path());
        std::sort(inputs.begin(), inputs.end());
    } else {
        inputs.push_back(argument);
    }
    return inputs;
}

}  // namespace

int main(int argc, char** argv) {
    std::size_t replayed = 0;
    for (int i = 1; i < argc; ++i) {
        const std::string argument = argv[i];
        if (argument.starts_with("-"))
            continue;
        for (const std::filesystem::path& input : InputsNamedBy(argument)) {
            std::ifstream file(input, std::ios::binary);
            if (!file) {
                std::fprintf(stderr, "replay: cannot read %s\n", input.c_str());
                return 1;
            }
            const std::string bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
            LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
            ++replayed;
        }
    }
    std::printf("replay: %zu inputs, no failure\n", replayed);
    if (replayed == 0) {
        std::fprintf(stderr, "replay: no input found in the arguments\n");
        return 1;
    }
    return 0;
}
