#pragma once

#include <string>
#include <vector>

#include "tools/ctrl-gen/methods.hpp"
#include "tools/ctrl-gen/plan.hpp"

namespace ctrl::gen {

// What the emitters need besides the plan: where the input came from (for the banner) and how the
// generated files include each other.
struct EmitContext {
    std::string source_name;     // the CRD file's base name
    std::string include_prefix;  // "" or "gen/vpc": #include "gen/vpc/security_group_policy.hpp"
    std::string file_stem;       // "security_group_policy"
};

// The kinds of one group version and where their AddToScheme goes.
struct GroupVersionPlan {
    std::string group;
    std::string version;
    std::string registration_namespace;  // "ctrl::vpcresources::vpcresourcesv1beta1"
    std::string file_stem;               // "vpcresources_v1beta1"
    std::vector<std::string> kinds;      // class names, qualified from registration_namespace's view
    std::vector<std::string> kind_headers;
};

// The header and source of one kind: its accessor classes, the kind, its view and list.
std::string EmitKindHeader(const KindPlan& plan, const EmitContext& context);
std::string EmitKindSource(const KindPlan& plan, const EmitContext& context);
// A kind's part in its CRD's conversion (plan.conversion; empty without): the declarations of the
// other versions it names, before its namespace; the members of the hub or spoke; the headers of
// the other versions, included at the end of its header (each includes the others: #pragma once
// ends the cycle, and each class only needs the others declared).
std::string ConversionForwardDeclarations(const KindPlan& plan);
std::string ConversionMembers(const KindPlan& plan);
std::string ConversionIncludes(const KindPlan& plan, const EmitContext& context);
// A spoke's <file stem>_conversion.cpp: ConvertTo and ConvertFrom carrying spec and status whole,
// for the author to edit (ctrl-gen --conversion-stubs).
std::string EmitConversionStub(const KindPlan& plan, const EmitContext& context);
// AddToScheme of one group version.
std::string EmitRegistrationHeader(const GroupVersionPlan& plan, const std::string& include_prefix);
std::string EmitRegistrationSource(const GroupVersionPlan& plan, const std::string& include_prefix);
// A header including every generated header and a source including every generated source: what
// the CMake function compiles (it cannot know the generated file names before ctrl-gen runs).
std::string EmitBundle(const std::vector<std::string>& files, const std::string& include_prefix, bool header);

// Shared by the emitters.
std::string Banner(const std::string& what);
std::string IncludePath(const std::string& include_prefix, const std::string& file);
// "    Type Name(params) const;" (wrapped after the type past 120 columns).
std::string Declaration(const Method& method);
// "    Type Name(params) const&& = delete;": method's rvalue form, refused (a view of a temporary).
std::string DeletedRvalueDeclaration(const Method& method);
// "Type Qualifier::Name(params) const {" and the body, and "}".
std::string Definition(const Method& method, const std::string& qualifier, const std::string& template_head);

}  // namespace ctrl::gen
