#pragma once

#include <string>
#include <vector>

#include "tools/ctrl-gen/plan.hpp"

namespace ctrl::gen {

// One generated member function: declared in the header, defined in the source.
struct Method {
    std::vector<std::string> comment;  // header comment lines (without "// ")
    std::string return_type;
    std::string name;
    std::string params;
    bool is_const = true;
    std::vector<std::string> body;  // statements, indented by 4 per level already
    // "&" on an accessor of the kind that returns a view into its object: a view of a temporary kind
    // would dangle, so the kind declares the rvalue form deleted (DeletedRvalueDeclaration).
    std::string ref_qualifier = "";
};

// Where the accessors of one class find their JSON: the read handle expression ("ref_" in a
// nested class, "Ref()" in the kind's fields) and the write handle ("mut_", "MutableRef()").
struct Access {
    std::string read;
    std::string write;
    bool write_const = true;   // nested handles write through const methods; the kind's are non-const
    std::string member = ".";  // ".template " where the handle is dependent (the kind's fields template)
    // The accessors belong to the object that owns the JSON (the kind): those returning views are
    // ref-qualified. Nested classes are views themselves, cheap handles whose temporaries are fine.
    bool owns_object = false;
};

// The read accessors of a field (X, HasX), the first carrying the field's description.
std::vector<Method> ReadMethods(const FieldPlan& field, const Access& access);
// The write accessors of a field (SetX / MutableX / AddX, ClearX).
std::vector<Method> WriteMethods(const FieldPlan& field, const Access& access);
// The body of Validate(scheme::Validation&) for the fields of a class (rules.cpp).
std::vector<std::string> ValidateBody(const ClassPlan& plan, const Access& access);

// The C++ JSON name literal of a field: "\"podSelector\"".
std::string JsonNameLiteral(const FieldPlan& field);

// `head{item, item}tail` laid out as clang-format does within 120 columns when the statement starts
// at column `indent`: on one line, else bin-packed and aligned after the brace, else bin-packed on
// lines indented by 4 after a break behind the brace. Lines are relative to `indent`.
std::vector<std::string> BracedList(const std::string& head, const std::vector<std::string>& items,
                                    const std::string& tail, std::size_t indent);

// "// text" lines of at most width columns (indent included) for a description.
std::vector<std::string> DescribeField(const FieldPlan& field);

}  // namespace ctrl::gen
