#include "tools/ctrl-gen/generator.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <utility>

#include "tools/ctrl-gen/crd.hpp"
#include "tools/ctrl-gen/emit.hpp"
#include "tools/ctrl-gen/naming.hpp"
#include "tools/ctrl-gen/plan.hpp"

namespace ctrl::gen {

namespace {

std::string Replace(std::string text, const std::string& from, const std::string& to) {
    for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
        text.replace(at, from.size(), to);
    return text;
}

bool Wanted(const std::vector<std::string>& filter, const std::string& value) {
    return filter.empty() || std::find(filter.begin(), filter.end(), value) != filter.end();
}

std::vector<const CrdVersion*> VersionsToGenerate(const Crd& crd, const Options& options) {
    std::vector<const CrdVersion*> out;
    if (!Wanted(options.kinds, crd.kind))
        return out;
    for (const CrdVersion& version : crd.versions) {
        if (version.served && Wanted(options.versions, version.name))
            out.push_back(&version);
    }
    return out;
}

}  // namespace

StatusOr<std::vector<GeneratedFile>> Generate(const std::vector<InputFile>& inputs, const Options& options) {
    std::vector<std::unique_ptr<Crd>> crds;
    for (const InputFile& input : inputs) {
        const std::string base_name = std::filesystem::path(input.name).filename().string();
        CTRL_ASSIGN_OR_RETURN(std::vector<Crd> read, ReadCrds(base_name, input.text));
        for (Crd& crd : read)
            crds.push_back(std::make_unique<Crd>(std::move(crd)));
    }

    std::map<std::string, std::pair<std::string, std::string>> extensions;  // kind -> template, header
    for (const std::string& extension : options.extensions) {
        const std::size_t equals = extension.find('=');
        const std::size_t colon = extension.find(':', equals == std::string::npos ? 0 : equals);
        if (equals == std::string::npos || colon == std::string::npos || equals == 0 || colon == equals + 1 ||
            colon + 1 == extension.size()) {
            return BadRequestError("extension \"" + extension + "\" is not Kind=Template:header");
        }
        extensions[extension.substr(0, equals)] = {extension.substr(equals + 1, colon - equals - 1),
                                                   extension.substr(colon + 1)};
    }
    std::set<std::string> used_extensions;

    std::vector<GeneratedFile> files;
    std::map<std::string, NameScope> scopes;        // by namespace
    std::map<std::string, std::string> kinds_seen;  // namespace::kind -> source
    std::map<std::pair<std::string, std::string>, GroupVersionPlan> group_versions;
    const bool namespace_per_group_version = options.cpp_namespace.find("{group}") != std::string::npos &&
                                             options.cpp_namespace.find("{version}") != std::string::npos;
    for (const auto& crd : crds) {
        const std::vector<const CrdVersion*> versions = VersionsToGenerate(*crd, options);
        for (const CrdVersion* version : versions) {
            const std::string cpp_namespace = Replace(Replace(options.cpp_namespace, "{group}", GroupLabel(crd->group)),
                                                      "{version}", Identifier(version->name));
            const std::string qualified = cpp_namespace + "::" + crd->kind;
            if (auto [it, inserted] = kinds_seen.emplace(qualified, crd->source); !inserted) {
                return BadRequestError(crd->source + ": " + crd->kind + " " + version->name +
                                       " would be generated as " + qualified + ", which " + it->second +
                                       " already defines: put {version} in the namespace, or choose versions with "
                                       "--versions");
            }
            CTRL_ASSIGN_OR_RETURN(KindPlan plan, PlanKind(*crd, *version, cpp_namespace, scopes[cpp_namespace]));
            if (auto it = extensions.find(crd->kind); it != extensions.end()) {
                plan.extension = it->second.first;
                plan.extension_header = it->second.second;
                used_extensions.insert(crd->kind);
            }
            EmitContext context{std::filesystem::path(crd->source.substr(0, crd->source.find(','))).string(),
                                options.include_prefix,
                                SnakeName(crd->kind) + (versions.size() > 1 ? "_" + Identifier(version->name) : "")};
            files.push_back(GeneratedFile{context.file_stem + ".hpp", EmitKindHeader(plan, context)});
            files.push_back(GeneratedFile{context.file_stem + ".cpp", EmitKindSource(plan, context)});

            GroupVersionPlan& gv = group_versions[{crd->group, version->name}];
            gv.group = crd->group;
            gv.version = version->name;
            gv.registration_namespace = namespace_per_group_version
                                            ? cpp_namespace
                                            : cpp_namespace + "::" + GroupLabel(crd->group) + Identifier(version->name);
            gv.file_stem = GroupLabel(crd->group) + "_" + Identifier(version->name);
            gv.kinds.push_back(crd->kind);
            gv.kind_headers.push_back(context.file_stem + ".hpp");
        }
    }
    for (const auto& [kind, extension] : extensions) {
        if (!used_extensions.contains(kind))
            return BadRequestError("extension for " + kind + ": no such kind is generated");
    }
    if (files.empty())
        return BadRequestError(
            "no CRD version to generate: no served version matches the --versions and --kinds given");

    std::map<std::string, std::string> stems;  // registration stem -> group, to detect two groups with one label
    for (const auto& [key, gv] : group_versions) {
        if (auto [it, inserted] = stems.emplace(gv.file_stem, gv.group); !inserted) {
            return BadRequestError("the groups " + it->second + " and " + gv.group + " both give " + gv.file_stem +
                                   ".hpp: generate them into separate output directories");
        }
        files.push_back(GeneratedFile{gv.file_stem + ".hpp", EmitRegistrationHeader(gv, options.include_prefix)});
        files.push_back(GeneratedFile{gv.file_stem + ".cpp", EmitRegistrationSource(gv, options.include_prefix)});
    }

    std::sort(files.begin(), files.end(), [](const auto& a, const auto& b) { return a.path < b.path; });
    for (std::size_t i = 1; i < files.size(); ++i) {
        if (files[i].path == files[i - 1].path)
            return BadRequestError("two generated files would be named " + files[i].path);
    }
    if (!options.bundle.empty()) {
        std::vector<std::string> headers;
        std::vector<std::string> sources;
        for (const GeneratedFile& file : files)
            (file.path.ends_with(".hpp") ? headers : sources).push_back(file.path);
        files.push_back(GeneratedFile{options.bundle + ".hpp", EmitBundle(headers, options.include_prefix, true)});
        files.push_back(GeneratedFile{options.bundle + ".cpp", EmitBundle(sources, options.include_prefix, false)});
        std::sort(files.begin(), files.end(), [](const auto& a, const auto& b) { return a.path < b.path; });
    }
    return files;
}

Status WriteFiles(const std::string& directory, const std::vector<GeneratedFile>& files) {
    std::error_code error;
    std::filesystem::create_directories(directory, error);
    if (error)
        return InternalError("creating " + directory + ": " + error.message());
    for (const GeneratedFile& file : files) {
        const std::filesystem::path path = std::filesystem::path(directory) / file.path;
        {
            std::ifstream existing(path, std::ios::binary);
            if (existing) {
                std::ostringstream content;
                content << existing.rdbuf();
                if (content.str() == file.content)
                    continue;
            }
        }
        std::ofstream out(path, std::ios::binary | std::ios::trunc);
        out << file.content;
        out.close();
        if (!out)
            return InternalError("writing " + path.string() + " failed");
    }
    return OkStatus();
}

}  // namespace ctrl::gen
