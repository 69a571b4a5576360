#pragma once

#include <string>

#include "test/support/read_file.hpp"
#include "test/support/repo_path.hpp"

namespace ctrl::protobuf::test {

// A file of test/unit/protobuf/testdata (recorded API server bodies), whole; empty when it cannot
// be read. The including target defines CTRL_PROTOBUF_TESTDATA_DIR, relative to the repository.
inline std::string ReadTestdata(const std::string& name) {
    return ::ctrl::testing::ReadFile(::ctrl::testing::RepoPath(CTRL_PROTOBUF_TESTDATA_DIR) + "/" + name);
}

}  // namespace ctrl::protobuf::test
