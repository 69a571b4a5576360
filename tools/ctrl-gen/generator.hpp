#pragma once

#include <string>
#include <vector>

#include "ctrl/core/status_or.hpp"

namespace ctrl::gen {

// What to generate and how to name it (the ctrl-gen command line).
struct Options {
    // The C++ namespace of the kinds; "{group}" becomes the group's first DNS label
    // ("vpcresources"), "{version}" the version ("v1beta1"). Each group version's AddToScheme goes
    // into <namespace>::<group label><version> (ctrl::vpcresources::vpcresourcesv1beta1::AddToScheme), or
    // into <namespace> itself when it names both {group} and {version}.
    std::string cpp_namespace = "{group}::{version}";
    // Prefix of the #include lines between generated files: "gen" -> #include "gen/x.hpp".
    std::string include_prefix;
    // Only these versions / kinds; empty means every served version / every kind.
    std::vector<std::string> versions;
    std::vector<std::string> kinds;
    // When not empty: also <bundle>.hpp and <bundle>.cpp including every generated header / source.
    std::string bundle;
    // Hand-written additions to generated kinds: "Kind=Template:header". The kind and its view also
    // derive from Template<Self> (a CRTP class template, named as seen from the kind's namespace,
    // declared by header), which may add accessors and setters the schema cannot express and
    // `void ValidateRules(ctrl::scheme::Validation&) const`, which Validate() runs before the
    // schema's checks.
    std::vector<std::string> extensions;
    // Instead of the kinds: one <kind>_<version>_conversion.cpp per spoke of a CRD whose conversion
    // strategy is Webhook, defining its ConvertTo and ConvertFrom as a starting point for the author
    // (WriteStubFiles leaves a file that exists alone).
    bool conversion_stubs = false;
};

// One input manifest: its name (as given; the banner shows its base name) and its text.
struct InputFile {
    std::string name;
    std::string text;
};

// One output file, relative to the output directory.
struct GeneratedFile {
    std::string path;
    std::string content;
};

// Generates the typed kinds of every CRD in inputs, in a deterministic order: files sorted by
// path, contents depending only on the inputs' text, base names and options. Errors (BadRequest)
// name the file, the document and the schema path. What is generated but checks less than the CRD
// says goes into warnings, one line each naming the CRD: a pattern std::regex cannot compile (with
// the field and the schema path), the count of a version's CEL rules (x-kubernetes-validations).
StatusOr<std::vector<GeneratedFile>> Generate(const std::vector<InputFile>& inputs, const Options& options,
                                              std::vector<std::string>* warnings = nullptr);

// Writes files under directory (created when missing); a file whose content is unchanged is not
// touched, so builds that depend on it do not rerun.
Status WriteFiles(const std::string& directory, const std::vector<GeneratedFile>& files);
// Writes the files that do not exist yet under directory (conversion stubs: the author's once
// written); kept gets the names of those left as they were.
Status WriteStubFiles(const std::string& directory, const std::vector<GeneratedFile>& files,
                      std::vector<std::string>& kept);

}  // namespace ctrl::gen
