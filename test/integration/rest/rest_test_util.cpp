#include "test/integration/rest/rest_test_util.hpp"

#include <fstream>
#include <sstream>

#include "ctrl/rest/kubeconfig.hpp"

namespace ctrl::rest::test {

std::string ReadFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream out;
    out << in.rdbuf();
    EXPECT_FALSE(out.str().empty()) << "cannot read " << path;
    return out.str();
}

TransportOptions AdminTransportOptions() {
    ctrl::testing::ControlPlane& cp = ctrl::testing::SharedControlPlane();
    TransportOptions options;
    options.server = cp.Host();
    options.tls.ca_pem = ReadFile(cp.CaFile());
    options.tls.client_cert_pem = ReadFile(cp.AdminCertFile());
    options.tls.client_key_pem = ReadFile(cp.AdminKeyFile());
    return options;
}

Config ConfigFromKubeconfig(const std::string& path, TransportKind kind) {
    KubeconfigOptions options;
    options.explicit_path = path;
    StatusOr<Config> config = LoadKubeconfig(options);
    EXPECT_TRUE(config.Ok()) << config.GetStatus();
    if (!config.Ok())
        return Config{};
    config->transport = kind;
    return *config;
}

Config AdminConfig(TransportKind kind) {
    return ConfigFromKubeconfig(ctrl::testing::SharedControlPlane().KubeconfigPath(), kind);
}

ClientFixture::ClientFixture(const Config& config) {
    StatusOr<std::unique_ptr<RestClient>> client = RestClient::New(config, io_.get_executor());
    EXPECT_TRUE(client.Ok()) << client.GetStatus();
    if (client.Ok())
        client_ = std::move(client).Value();
}

StatusOr<HttpResponse> ClientFixture::Send(Context ctx, const RequestBuilder& builder) {
    StatusOr<HttpRequest> request = builder.Build();
    EXPECT_TRUE(request.Ok()) << request.GetStatus();
    if (!request.Ok())
        return request.GetStatus();
    return Run(client_->Do(std::move(ctx), std::move(request).Value()));
}

StatusOr<Object> ClientFixture::SendForObject(const RequestBuilder& builder, Context ctx) {
    CTRL_ASSIGN_OR_RETURN(HttpResponse response, Send(std::move(ctx), builder));
    return Object::Parse(response.body);
}

}  // namespace ctrl::rest::test
