#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <random>
#include <string>

#include <boost/asio/io_context.hpp>

#include "ctrl/core/object.hpp"
#include "ctrl/core/run_sync.hpp"
#include "ctrl/rest/config.hpp"
#include "ctrl/rest/request_builder.hpp"
#include "ctrl/rest/rest_client.hpp"
#include "test/support/control_plane_environment.hpp"

namespace ctrl::rest::test {

// A name unique enough for one test run: prefix-<6 random digits>.
inline std::string UniqueName(const std::string& prefix) {
    static std::mt19937 random{std::random_device{}()};
    return prefix + "-" + std::to_string(100000 + random() % 900000);
}

inline std::string TransportName(const ::testing::TestParamInfo<TransportKind>& info) {
    return info.param == TransportKind::kBeast ? "Beast" : "CppRest";
}

// The content of a file (the test fails when it is empty or unreadable).
std::string ReadFile(const std::string& path);
// Transport options for the admin of the shared control plane (its CA and client certificate).
TransportOptions AdminTransportOptions();

// The admin's Config for the shared control plane, loaded from its kubeconfig as a user would.
Config AdminConfig(TransportKind kind);
// The Config of a kubeconfig file written by the control plane fixture (AddUser, ...).
Config ConfigFromKubeconfig(const std::string& path, TransportKind kind);

// A RestClient on an io_context that the test thread runs with Run().
class ClientFixture {
  public:
    explicit ClientFixture(const Config& config);

    template <typename T>
    T Run(Task<T> task) {
        return RunSync(io_, std::move(task));
    }
    RestClient& Client() { return *client_; }
    boost::asio::io_context& Io() { return io_; }

    // Sends a request built by builder and fails the test on a build error.
    StatusOr<HttpResponse> Send(Context ctx, const RequestBuilder& builder);
    StatusOr<HttpResponse> Send(const RequestBuilder& builder) { return Send(Context::Background(), builder); }
    // Send() whose body parses as an Object.
    StatusOr<Object> SendForObject(const RequestBuilder& builder, Context ctx = Context::Background());

  private:
    boost::asio::io_context io_;
    std::unique_ptr<RestClient> client_;
};

}  // namespace ctrl::rest::test
