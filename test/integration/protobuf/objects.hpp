#pragma once

#include <string>
#include <vector>

namespace ctrl::protobuf::test {

// An object to create: the collection to POST it to and its JSON ("NS" stands for the test's
// namespace), and, for some, a merge patch for its status subresource.
struct TestObject {
    std::string collection;  // "/api/v1/namespaces/NS/pods"
    std::string json;
    std::string status_patch{};
};

// Objects of every built-in group the transcoder is checked on, with as many optional sections,
// special types (times, quantities, int-or-strings, bytes, maps) and odd strings as the server accepts.
std::vector<TestObject> VariedObjects();

// The collections the objects went to, for LIST and watch-list comparisons.
std::vector<std::string> Collections();

}  // namespace ctrl::protobuf::test
