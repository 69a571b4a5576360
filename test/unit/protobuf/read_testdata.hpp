#pragma once

#include <fstream>
#include <sstream>
#include <string>

#include "test/support/repo_path.hpp"

namespace ctrl::protobuf::test {

// A file of test/unit/protobuf/testdata (recorded API server bodies), whole; empty when it cannot
// be read. The including target defines CTRL_PROTOBUF_TESTDATA_DIR, relative to the repository.
inline std::string ReadTestdata(const std::string& name) {
    std::ifstream in(::ctrl::testing::RepoPath(CTRL_PROTOBUF_TESTDATA_DIR) + "/" + name, std::ios::binary);
    std::stringstream buffer;
    buffer << in.rdbuf();
    return buffer.str();
}

}  // namespace ctrl::protobuf::test
