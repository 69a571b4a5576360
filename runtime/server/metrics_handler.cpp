#include "ctrl/server/metrics_handler.hpp"

#include <string>
#include <utility>

#include "ctrl/server/internal/gzip.hpp"

namespace ctrl::server {

HttpHandler MetricsHandler(const metrics::Registry& registry) {
    const metrics::Registry* serving = &registry;
    return [serving](const ServerRequest& request) -> Task<ServerResponse> {
        ServerResponse response;
        response.content_type = kMetricsContentType;
        response.body = serving->SerializeText();
        if (auto accept = request.Header("Accept-Encoding"); accept && internal::AcceptsGzip(*accept)) {
            if (StatusOr<std::string> gzipped = internal::Gzip(response.body); gzipped.Ok()) {
                response.body = std::move(*gzipped);
                response.headers.emplace_back("Content-Encoding", "gzip");
            }
        }
        response.headers.emplace_back("Vary", "Accept-Encoding");
        co_return response;
    };
}

}  // namespace ctrl::server
