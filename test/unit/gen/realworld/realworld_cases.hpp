#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "ctrl/core/status.hpp"

namespace ctrl::realworld {

// One CRD of test/unit/gen/testdata/realworld and the generated kind its sample is read as.
struct RealCrd {
    std::string name;  // "httproute": the sample samples/<name>.json, the C++ namespace rw::<name>
    std::string file;  // the manifest under testdata/realworld
    std::string kind;  // "HTTPRoute"
    // The fields the generated kind's Validate() names for json, sorted; {"parse: <message>"} when
    // json does not parse as the kind.
    std::vector<std::string> (*validate)(const std::string& json);
    // json parsed as the kind and written back ("parse: <message>" when it does not parse).
    std::string (*round_trip)(const std::string& json);
};

const std::vector<RealCrd>& RealCrds();
// The CRD of that name, or nullptr.
const RealCrd* FindCrd(std::string_view name);

// A CRD's sample (samples/<name>.json without its final newline): valid, realistic, with an unknown
// field where the test says so.
std::string Sample(std::string_view name);

// An object the API server refuses: a CRD's sample with the value at `pointer` replaced by `value`
// (JSON), or removed when `value` is empty.
struct InvalidCase {
    std::string crd;
    std::string what;
    std::string pointer;  // RFC 6901: "/spec/rules/1/filters/0/requestRedirect/statusCode"
    std::string value;
    std::vector<std::string> fields;  // the fields the API server names, sorted
    // Empty when Validate() names the same fields; else why it cannot (a CEL rule, a pattern
    // std::regex cannot read), and Validate() then names none.
    std::string gap;
};

const std::vector<InvalidCase>& InvalidCases();

// A value at the edge of what a schema allows that the API server accepts (an integer written 2.0,
// int32's largest value, an RFC 3339 time): Validate() accepts it too.
struct AcceptedCase {
    std::string crd;
    std::string what;
    std::string pointer;
    std::string value;
};

const std::vector<AcceptedCase>& AcceptedCases();

// The object of an accepted case, as compact JSON.
std::string AcceptedObject(const AcceptedCase& accepted);

// json with the value at pointer (RFC 6901) replaced by value (JSON; "" removes it), compact.
std::string WithValue(const std::string& json, const std::string& pointer, const std::string& value);

// The invalid object of a case, as compact JSON.
std::string InvalidObject(const InvalidCase& invalid);

// The sorted, distinct fields of a status's causes.
std::vector<std::string> CauseFields(const Status& status);

}  // namespace ctrl::realworld
