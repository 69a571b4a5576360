#include "ctrl/envtest/internal/http_get.hpp"

#include <string_view>

#include "ctrl/envtest/command.hpp"

namespace ctrl::envtest::internal {

StatusOr<HttpGetResult> HttpGet(const std::string& url, const TlsFiles& tls, std::chrono::milliseconds timeout) {
    std::vector<std::string> argv = {"curl",
                                     "--silent",
                                     "--show-error",
                                     "--noproxy",
                                     "*",
                                     "--max-time",
                                     std::to_string(timeout.count() / 1000.0),
                                     "--output",
                                     "-",
                                     "--write-out",
                                     "\n%{http_code}"};
    if (url.starts_with("https:")) {
        argv.insert(argv.end(), {"--cacert", tls.ca});
        if (!tls.cert.empty())
            argv.insert(argv.end(), {"--cert", tls.cert, "--key", tls.key});
    }
    argv.push_back(url);
    CTRL_ASSIGN_OR_RETURN(CommandResult result,
                          RunCommand({.argv = argv, .timeout = timeout + std::chrono::seconds(5)}));
    if (result.exit_code != 0) {
        return UnavailableError("GET " + url + ": curl exit " + std::to_string(result.exit_code) + ": " + result.err);
    }
    size_t newline = result.out.rfind('\n');
    if (newline == std::string::npos)
        return InternalError("GET " + url + ": no status code in curl's output");
    HttpGetResult out;
    out.http_code = std::atoi(result.out.c_str() + newline + 1);
    out.body = result.out.substr(0, newline);
    return out;
}

}  // namespace ctrl::envtest::internal
