#include "tools/ctrl-gen/generator.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
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

// kind -> (template, header) from the "Kind=Template:header" options.
using Extensions = std::map<std::string, std::pair<std::string, std::string>>;

StatusOr<Extensions> ParseExtensions(const std::vector<std::string>& options) {
    Extensions extensions;
    for (const std::string& extension : options) {
        const std::size_t equals = extension.find('=');
        const std::size_t colon = extension.find(':', equals == std::string::npos ? 0 : equals);
        if (equals == std::string::npos || colon == std::string::npos || equals == 0 || colon == equals + 1 ||
            colon + 1 == extension.size()) {
            return BadRequestError("extension \"" + extension + "\" is not Kind=Template:header");
        }
        extensions[extension.substr(0, equals)] = {extension.substr(equals + 1, colon - equals - 1),
                                                   extension.substr(colon + 1)};
    }
    return extensions;
}

void SortByPath(std::vector<GeneratedFile>& files) {
    std::sort(files.begin(), files.end(), [](const auto& a, const auto& b) { return a.path < b.path; });
}

// The kinds' files of every CRD, their group versions and the warnings met on the way.
class KindGenerator {
  public:
    KindGenerator(const Options& options, Extensions extensions)
        : options_(options), extensions_(std::move(extensions)) {}

    Status Add(const Crd& crd) {
        const std::vector<const CrdVersion*> versions = VersionsToGenerate(crd, options_);
        const CrdVersion* hub = ConversionHub(crd, versions);
        for (const CrdVersion* version : versions) {
            std::optional<ConversionPlan> conversion;
            if (hub != nullptr)
                conversion = PlanConversion(crd, *version, *hub, versions);
            CTRL_RETURN_IF_ERROR(AddVersion(crd, *version, versions.size() > 1, std::move(conversion)));
        }
        return OkStatus();
    }

    // The registration of each group version, beside the kinds' files; errors for an extension of
    // no generated kind and for nothing generated.
    StatusOr<std::vector<GeneratedFile>> Finish() {
        for (const auto& [kind, extension] : extensions_) {
            if (!used_extensions_.contains(kind))
                return BadRequestError("extension for " + kind + ": no such kind is generated");
        }
        if (options_.conversion_stubs) {
            if (files_.empty())
                return BadRequestError(
                    "no conversion to write stubs for: no CRD with conversion strategy Webhook is "
                    "generated in several versions, its storage version among them");
            return std::move(files_);
        }
        if (files_.empty())
            return BadRequestError(
                "no CRD version to generate: no served version matches the --versions and --kinds given");
        std::set<std::string> kind_stems;
        for (const GeneratedFile& file : files_)
            kind_stems.insert(file.path.substr(0, file.path.rfind('.')));
        std::map<std::string, std::string> stems;  // registration stem -> group, to detect two groups with one label
        for (auto& [key, gv] : group_versions_) {
            // A kind named as its group's label, in several versions (gateway.networking.k8s.io's
            // Gateway: gateway_v1.hpp), keeps its file name; the registration moves aside.
            if (kind_stems.contains(gv.file_stem))
                gv.file_stem += "_scheme";
            if (auto [it, inserted] = stems.emplace(gv.file_stem, gv.group); !inserted) {
                return BadRequestError("the groups " + it->second + " and " + gv.group + " both give " + gv.file_stem +
                                       ".hpp: generate them into separate output directories");
            }
            files_.push_back(GeneratedFile{gv.file_stem + ".hpp", EmitRegistrationHeader(gv, options_.include_prefix)});
            files_.push_back(GeneratedFile{gv.file_stem + ".cpp", EmitRegistrationSource(gv, options_.include_prefix)});
        }
        return std::move(files_);
    }

    std::vector<std::string>& Warnings() { return warnings_; }

  private:
    std::string NamespaceOf(const Crd& crd, const CrdVersion& version) const {
        return Replace(Replace(options_.cpp_namespace, "{group}", GroupLabel(crd.group)), "{version}",
                       Identifier(version.name));
    }
    static std::string FileStemOf(const Crd& crd, const CrdVersion& version, bool several_versions) {
        return SnakeName(crd.kind) + (several_versions ? "_" + Identifier(version.name) : "");
    }

    // The hub of a CRD whose conversion strategy is Webhook, generated in several versions: its
    // storage version. Null (no conversion declared) otherwise, with a warning when the storage
    // version is not among those generated.
    const CrdVersion* ConversionHub(const Crd& crd, const std::vector<const CrdVersion*>& versions) {
        if (crd.conversion_strategy != "Webhook" || versions.size() < 2)
            return nullptr;
        for (const CrdVersion* version : versions) {
            if (version->storage)
                return version;
        }
        warnings_.push_back(crd.source + ": " + crd.name +
                            ": the storage version, the conversion hub, is not generated: no conversion is declared");
        return nullptr;
    }

    ConversionPlan PlanConversion(const Crd& crd, const CrdVersion& version, const CrdVersion& hub,
                                  const std::vector<const CrdVersion*>& versions) const {
        ConversionPlan plan;
        plan.hub = &version == &hub;
        plan.hub_version = hub.name;
        const auto peer = [&](const CrdVersion& other) {
            return ConversionPlan::Peer{other.name, NamespaceOf(crd, other), FileStemOf(crd, other, true) + ".hpp"};
        };
        if (!plan.hub)
            plan.peers.push_back(peer(hub));
        for (const CrdVersion* other : versions) {
            if (other != &hub && other != &version)
                plan.peers.push_back(peer(*other));
        }
        return plan;
    }

    Status AddVersion(const Crd& crd, const CrdVersion& version, bool several_versions,
                      std::optional<ConversionPlan> conversion) {
        const std::string cpp_namespace = NamespaceOf(crd, version);
        const std::string qualified = cpp_namespace + "::" + crd.kind;
        if (auto [it, inserted] = kinds_seen_.emplace(qualified, crd.source); !inserted) {
            return BadRequestError(crd.source + ": " + crd.kind + " " + version.name + " would be generated as " +
                                   qualified + ", which " + it->second +
                                   " already defines: put {version} in the namespace, or choose versions with "
                                   "--versions");
        }
        CTRL_ASSIGN_OR_RETURN(KindPlan plan, PlanKind(crd, version, cpp_namespace, scopes_[cpp_namespace]));
        warnings_.insert(warnings_.end(), plan.warnings.begin(), plan.warnings.end());
        if (const int unseen = version.cel_rules - plan.cel_rules_seen; unseen > 0) {
            warnings_.push_back(crd.source + ": " + crd.name + " " + version.name + ": " + std::to_string(unseen) +
                                " x-kubernetes-validations rules (CEL) on the root schema or on arrays of arrays are "
                                "not checked by Validate(); the API server checks them");
        }
        if (auto it = extensions_.find(crd.kind); it != extensions_.end()) {
            plan.extension = it->second.first;
            plan.extension_header = it->second.second;
            used_extensions_.insert(crd.kind);
        }
        plan.conversion = std::move(conversion);
        EmitContext context{std::filesystem::path(crd.source.substr(0, crd.source.find(','))).string(),
                            options_.include_prefix, FileStemOf(crd, version, several_versions)};
        if (options_.conversion_stubs) {
            if (plan.conversion && !plan.conversion->hub)
                files_.push_back(
                    GeneratedFile{context.file_stem + "_conversion.cpp", EmitConversionStub(plan, context)});
            return OkStatus();
        }
        files_.push_back(GeneratedFile{context.file_stem + ".hpp", EmitKindHeader(plan, context)});
        files_.push_back(GeneratedFile{context.file_stem + ".cpp", EmitKindSource(plan, context)});

        const bool namespace_per_group_version = options_.cpp_namespace.find("{group}") != std::string::npos &&
                                                 options_.cpp_namespace.find("{version}") != std::string::npos;
        GroupVersionPlan& gv = group_versions_[{crd.group, version.name}];
        gv.group = crd.group;
        gv.version = version.name;
        gv.registration_namespace = namespace_per_group_version
                                        ? cpp_namespace
                                        : cpp_namespace + "::" + GroupLabel(crd.group) + Identifier(version.name);
        gv.file_stem = GroupLabel(crd.group) + "_" + Identifier(version.name);
        gv.kinds.push_back(crd.kind);
        gv.kind_headers.push_back(context.file_stem + ".hpp");
        return OkStatus();
    }

    const Options& options_;
    const Extensions extensions_;
    std::set<std::string> used_extensions_;
    std::vector<GeneratedFile> files_;
    std::map<std::string, NameScope> scopes_;        // by namespace
    std::map<std::string, std::string> kinds_seen_;  // namespace::kind -> source
    std::map<std::pair<std::string, std::string>, GroupVersionPlan> group_versions_;
    std::vector<std::string> warnings_;
};

}  // namespace

StatusOr<std::vector<GeneratedFile>> Generate(const std::vector<InputFile>& inputs, const Options& options,
                                              std::vector<std::string>* warnings) {
    std::vector<std::unique_ptr<Crd>> crds;
    for (const InputFile& input : inputs) {
        const std::string base_name = std::filesystem::path(input.name).filename().string();
        CTRL_ASSIGN_OR_RETURN(std::vector<Crd> read, ReadCrds(base_name, input.text));
        for (Crd& crd : read)
            crds.push_back(std::make_unique<Crd>(std::move(crd)));
    }
    CTRL_ASSIGN_OR_RETURN(Extensions extensions, ParseExtensions(options.extensions));
    KindGenerator kinds(options, std::move(extensions));
    for (const auto& crd : crds)
        CTRL_RETURN_IF_ERROR(kinds.Add(*crd));
    CTRL_ASSIGN_OR_RETURN(std::vector<GeneratedFile> files, kinds.Finish());
    if (warnings != nullptr)
        *warnings = std::move(kinds.Warnings());

    SortByPath(files);
    for (std::size_t i = 1; i < files.size(); ++i) {
        if (files[i].path == files[i - 1].path)
            return BadRequestError("two generated files would be named " + files[i].path);
    }
    if (!options.bundle.empty() && !options.conversion_stubs) {
        std::vector<std::string> headers;
        std::vector<std::string> sources;
        for (const GeneratedFile& file : files)
            (file.path.ends_with(".hpp") ? headers : sources).push_back(file.path);
        files.push_back(GeneratedFile{options.bundle + ".hpp", EmitBundle(headers, options.include_prefix, true)});
        files.push_back(GeneratedFile{options.bundle + ".cpp", EmitBundle(sources, options.include_prefix, false)});
        SortByPath(files);
    }
    return files;
}

Status WriteStubFiles(const std::string& directory, const std::vector<GeneratedFile>& files,
                      std::vector<std::string>& kept) {
    std::vector<GeneratedFile> fresh;
    for (const GeneratedFile& file : files) {
        std::error_code error;
        if (std::filesystem::exists(std::filesystem::path(directory) / file.path, error))
            kept.push_back(file.path);
        else
            fresh.push_back(file);
    }
    return WriteFiles(directory, fresh);
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
