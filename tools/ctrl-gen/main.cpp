// ctrl-gen: generates ctrl typed kinds (C++) from CustomResourceDefinition manifests.
//   ctrl-gen --output-dir DIR [--namespace NS] [--include-prefix P] [--versions v1,v2] [--kinds A,B]
//            [--bundle NAME] [--extension Kind=Template:header]... CRD.yaml...
//   ctrl-gen --conversion-stubs --output-dir DIR [--namespace NS] [--include-prefix P] CRD.yaml...
// Exit codes: 0 done, 1 bad input (the message names the file, document and schema path), 2 bad usage.
// Warnings ("ctrl-gen: warning: ..." on stderr, exit 0) name what Validate() checks less than the CRD says.

#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "tools/ctrl-gen/generator.hpp"

namespace {

constexpr const char* kUsage =
    "usage: ctrl-gen --output-dir DIR [options] CRD.yaml...\n"
    "Generates C++ typed kinds (ctrl::scheme::TypedObjectBase) for every served version of the CRDs.\n"
    "  --output-dir DIR       where to write the .hpp/.cpp files (created when missing)\n"
    "  --namespace NS         C++ namespace of the kinds; {group} and {version} are replaced by the\n"
    "                         group's first DNS label and the version (default {group}::{version})\n"
    "  --include-prefix P     generated files include each other as \"P/file.hpp\" (default: no prefix)\n"
    "  --versions v1,v2       only these versions (default: every served version)\n"
    "  --kinds A,B            only these kinds (default: all)\n"
    "  --bundle NAME          also write NAME.hpp and NAME.cpp including every generated file\n"
    "  --extension K=T:H      kind K (and its view) also derive from the hand-written CRTP template T<Self>\n"
    "                         declared in header H; T may define ValidateRules(ctrl::scheme::Validation&),\n"
    "                         which Validate() runs before the schema's checks (repeatable)\n"
    "  --conversion-stubs     instead of the kinds, write <kind>_<version>_conversion.cpp for each spoke of a\n"
    "                         CRD whose conversion strategy is Webhook (its storage version is the hub):\n"
    "                         ConvertTo and ConvertFrom to edit; an existing file is left as it is\n"
    "  --help                 this text\n"
    "A CRD whose conversion strategy is Webhook, generated in several versions, gets a hub (its storage version,\n"
    "naming its spokes) and spokes (naming the hub, declaring ConvertTo and ConvertFrom for the author to define).\n"
    "Each group version's AddToScheme is in <group label>_<version>.hpp (<group label>_<version>_scheme.hpp\n"
    "when a kind's file has that name). Warnings on stderr name what Validate() checks less than the API\n"
    "server: a pattern std::regex cannot compile, a CEL rule (x-kubernetes-validations) outside the subset\n"
    "ctrl::cel evaluates, a transition rule (one that reads oldSelf).\n";

std::vector<std::string> SplitList(const std::string& text) {
    std::vector<std::string> out;
    std::stringstream stream(text);
    for (std::string item; std::getline(stream, item, ',');) {
        if (!item.empty())
            out.push_back(item);
    }
    return out;
}

int Usage(const std::string& problem) {
    std::cerr << "ctrl-gen: " << problem << "\n" << kUsage;
    return 2;
}

}  // namespace

int main(int argc, char** argv) {
    ctrl::gen::Options options;
    std::string output_dir;
    std::vector<std::string> files;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        const auto value = [&](std::string& into) {
            if (i + 1 >= argc)
                return false;
            into = argv[++i];
            return true;
        };
        std::string list;
        if (arg == "--help" || arg == "-h") {
            std::cout << kUsage;
            return 0;
        }
        if (arg == "--output-dir") {
            if (!value(output_dir))
                return Usage("--output-dir needs a value");
        } else if (arg == "--namespace") {
            if (!value(options.cpp_namespace))
                return Usage("--namespace needs a value");
        } else if (arg == "--include-prefix") {
            if (!value(options.include_prefix))
                return Usage("--include-prefix needs a value");
        } else if (arg == "--versions") {
            if (!value(list))
                return Usage("--versions needs a value");
            options.versions = SplitList(list);
        } else if (arg == "--kinds") {
            if (!value(list))
                return Usage("--kinds needs a value");
            options.kinds = SplitList(list);
        } else if (arg == "--extension") {
            if (!value(list))
                return Usage("--extension needs a value");
            options.extensions.push_back(list);
        } else if (arg == "--conversion-stubs") {
            options.conversion_stubs = true;
        } else if (arg == "--bundle") {
            if (!value(options.bundle))
                return Usage("--bundle needs a value");
        } else if (arg.rfind("--", 0) == 0) {
            return Usage("unknown flag " + arg);
        } else {
            files.push_back(arg);
        }
    }
    if (output_dir.empty())
        return Usage("--output-dir is required");
    if (files.empty())
        return Usage("no CRD file given");

    std::vector<ctrl::gen::InputFile> inputs;
    for (const std::string& file : files) {
        std::ifstream in(file, std::ios::binary);
        if (!in) {
            std::cerr << "ctrl-gen: cannot read " << file << "\n";
            return 1;
        }
        std::ostringstream text;
        text << in.rdbuf();
        inputs.push_back(ctrl::gen::InputFile{file, text.str()});
    }
    std::vector<std::string> warnings;
    auto generated = ctrl::gen::Generate(inputs, options, &warnings);
    if (!generated.Ok()) {
        std::cerr << "ctrl-gen: " << generated.GetStatus().Message() << "\n";
        return 1;
    }
    for (const std::string& warning : warnings)
        std::cerr << "ctrl-gen: warning: " << warning << "\n";
    if (options.conversion_stubs) {
        std::vector<std::string> kept;
        if (ctrl::Status written = ctrl::gen::WriteStubFiles(output_dir, *generated, kept); !written.Ok()) {
            std::cerr << "ctrl-gen: " << written.Message() << "\n";
            return 1;
        }
        for (const std::string& file : kept)
            std::cerr << "ctrl-gen: " << output_dir << "/" << file << " exists: left as it is\n";
        return 0;
    }
    if (ctrl::Status written = ctrl::gen::WriteFiles(output_dir, *generated); !written.Ok()) {
        std::cerr << "ctrl-gen: " << written.Message() << "\n";
        return 1;
    }
    return 0;
}
