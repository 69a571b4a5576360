#pragma once

// Starts ctrl-manager-testbin processes against the shared control plane and reads what they print.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <boost/asio/io_context.hpp>

#include "ctrl/client/client.hpp"
#include "test/support/process.hpp"

namespace ctrl::testing {

class ManagerProcessTest : public ::testing::Test {
  protected:
    void SetUp() override;
    void TearDown() override;

    // Starts the test operator with the given extra arguments; its output goes to a log file.
    ChildProcess StartOperator(const std::vector<std::string>& args, const std::string& name);
    // The lines of a process's output that start with prefix.
    static std::vector<std::string> Lines(const ChildProcess& process, const std::string& prefix);
    // Creates n ConfigMaps cm-000.. in the test's namespace.
    void CreateConfigMaps(int n);
    // The admin client (direct), run on the fixture's io_context.
    template <typename T>
    T Run(Task<T> task);

    std::string namespace_;
    boost::asio::io_context io_;
    std::unique_ptr<client::Client> client_;
};

}  // namespace ctrl::testing
