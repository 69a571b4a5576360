// What ctrl-gen emits for a kind whose CRD converts by webhook: the hub's list of spokes, a spoke's
// hub and the declarations of its ConvertTo and ConvertFrom, and the stubs defining them.

#include "tools/ctrl-gen/emit.hpp"
#include "tools/ctrl-gen/naming.hpp"

namespace ctrl::gen {

namespace {

std::string Comment(const std::string& text, const std::string& indent) {
    std::string out;
    for (const std::string& line : CommentLines(text, 116 - indent.size()))
        out += indent + "// " + line + "\n";
    return out;
}

std::string Qualified(const ConversionPlan::Peer& peer, const std::string& kind) {
    return "::" + peer.cpp_namespace + "::" + kind;
}

std::string ApiVersion(const KindPlan& plan, const std::string& version) {
    return plan.crd->group + "/" + version;
}

}  // namespace

std::string ConversionForwardDeclarations(const KindPlan& plan) {
    if (!plan.conversion)
        return "";
    std::string out;
    for (const ConversionPlan::Peer& peer : plan.conversion->peers)
        out += "namespace " + peer.cpp_namespace + " {\nclass " + plan.crd->kind + ";\n}  // namespace " +
               peer.cpp_namespace + "\n";
    return out + "\n";
}

std::string ConversionMembers(const KindPlan& plan) {
    if (!plan.conversion)
        return "";
    const std::string& kind = plan.crd->kind;
    const ConversionPlan& conversion = *plan.conversion;
    if (conversion.hub) {
        std::vector<std::string> spokes;
        for (const ConversionPlan::Peer& peer : conversion.peers)
            spokes.push_back(Qualified(peer, kind));
        std::string out = "\n" + Comment("The hub of " + kind + "'s versions (ctrl::webhook::conversion::Hub): the " +
                                             "others convert through it. builder::WebhookManagedBy(mgr).For<" + kind +
                                             ">() serves the conversion at /convert.",
                                         "    ");
        std::string one = "    using ConversionSpokes = ctrl::scheme::KindList<";
        for (std::size_t i = 0; i < spokes.size(); ++i)
            one += (i == 0 ? "" : ", ") + spokes[i];
        if (one.size() + 2 <= 120)
            return out + one + ">;\n";
        out += "    using ConversionSpokes = ctrl::scheme::KindList<\n";
        for (std::size_t i = 0; i < spokes.size(); ++i)
            out += "        " + spokes[i] + (i + 1 == spokes.size() ? ">;\n" : ",\n");
        return out;
    }
    const ConversionPlan::Peer& hub = conversion.peers.front();
    return "\n" +
           Comment("A spoke of " + kind + "'s versions (ctrl::webhook::conversion::Convertible): it converts through " +
                       "the hub, " + ApiVersion(plan, hub.version) + ". Define ConvertTo and ConvertFrom (`ctrl-gen " +
                       "--conversion-stubs` writes a starting point): each gets a destination holding only " +
                       "apiVersion, kind and metadata, and sets every field it carries; what it cannot carry is " +
                       "kept in an annotation and restored on the way back.",
                   "    ") +
           "    using ConversionHub = " + Qualified(hub, kind) + ";\n" +
           "    ctrl::Status ConvertTo(ConversionHub& hub) const;\n" +
           "    ctrl::Status ConvertFrom(const ConversionHub& hub);\n";
}

std::string ConversionIncludes(const KindPlan& plan, const EmitContext& context) {
    if (!plan.conversion)
        return "";
    std::string out = "\n// The other versions of " + plan.crd->kind + ", which it converts with.\n";
    for (const ConversionPlan::Peer& peer : plan.conversion->peers)
        out += "#include \"" + IncludePath(context.include_prefix, peer.header) + "\"\n";
    return out;
}

std::string EmitConversionStub(const KindPlan& plan, const EmitContext& context) {
    const std::string& kind = plan.crd->kind;
    const std::string version = ApiVersion(plan, plan.version->name);
    const std::string hub = ApiVersion(plan, plan.conversion->hub_version);
    std::string out = Comment("The conversion of " + version + " " + kind + " to and from its hub, " + hub +
                                  ": a starting point written once by `ctrl-gen --conversion-stubs` from " +
                                  context.source_name + ", yours to edit.",
                              "");
    out += "\n#include \"" + IncludePath(context.include_prefix, context.file_stem + ".hpp") + "\"\n\n";
    out += "#include <ctrl/webhook/conversion/copy_field.hpp>\n\n";
    out += "namespace " + plan.cpp_namespace + " {\n\n";
    out += "using ctrl::webhook::conversion::CopyField;\n\n";
    out += Comment(
        "This version -> the hub. hub holds apiVersion, kind and this object's metadata: set every field "
        "this version carries. Copying spec whole is right only while the two specs have the same shape: "
        "move what was renamed or restructured (the API server drops a field the hub's schema does not "
        "have). What is not carried is kept in an annotation, so a round trip loses nothing, but readers "
        "of the hub do not see it.",
        "");
    out += "ctrl::Status " + kind + "::ConvertTo(ConversionHub& hub) const {\n";
    out += "    CTRL_RETURN_IF_ERROR(CopyField(*this, hub, {\"spec\"}));\n";
    out += "    return CopyField(*this, hub, {\"status\"});\n}\n\n";
    out += Comment(
        "The hub -> this version. A value this version cannot express is an error (return one: its "
        "message reaches the client), or is left out and kept in an annotation.",
        "");
    out += "ctrl::Status " + kind + "::ConvertFrom(const ConversionHub& hub) {\n";
    out += "    CTRL_RETURN_IF_ERROR(CopyField(hub, *this, {\"spec\"}));\n";
    out += "    return CopyField(hub, *this, {\"status\"});\n}\n\n";
    out += "}  // namespace " + plan.cpp_namespace + "\n";
    return out;
}

}  // namespace ctrl::gen
