#pragma once

#include <fstream>
#include <sstream>
#include <string>

namespace ctrl::protobuf::test {

// A file of test/unit/protobuf/testdata (recorded API server bodies), whole; empty when it cannot
// be read. The including target defines CTRL_PROTOBUF_TESTDATA_DIR.
inline std::string ReadTestdata(const std::string& name) {
    std::ifstream in(std::string(CTRL_PROTOBUF_TESTDATA_DIR) + "/" + name, std::ios::binary);
    std::stringstream buffer;
    buffer << in.rdbuf();
    return buffer.str();
}

}  // namespace ctrl::protobuf::test
