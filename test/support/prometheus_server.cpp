#include "test/support/prometheus_server.hpp"

#include <stdlib.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "test/support/command.hpp"
#include "test/support/free_port.hpp"

namespace ctrl::testing {

CurlResult Curl(const std::string& url, const std::string& token) {
    Command command;
    command.argv = {"curl", "-sk", "--max-time", "20", "-o", "-", "-w", "\n%{http_code}", url};
    if (!token.empty()) {
        command.argv.push_back("-H");
        command.argv.push_back("Authorization: Bearer " + token);
    }
    StatusOr<CommandResult> ran = RunCommand(command);
    CurlResult result;
    if (!ran.Ok() || ran->exit_code != 0)
        return result;
    const size_t newline = ran->out.rfind('\n');
    result.status = std::atoi(ran->out.substr(newline + 1).c_str());
    result.body = ran->out.substr(0, newline);
    return result;
}

int Occurrences(const std::string& text, const std::string& what) {
    int count = 0;
    for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
        ++count;
    return count;
}

PrometheusServer::~PrometheusServer() {
    if (process_.Pid() != 0)
        process_.Stop(std::chrono::seconds(5));
    std::error_code ignored;
    if (!dir_.empty())
        std::filesystem::remove_all(dir_, ignored);
}

Status PrometheusServer::Start(const std::string& scrape_configs) {
    char pattern[] = "/tmp/ctrl-prometheus-XXXXXX";
    if (mkdtemp(pattern) == nullptr)
        return InternalError("mkdtemp failed");
    dir_ = pattern;
    CTRL_ASSIGN_OR_RETURN(std::vector<int> ports, FreePorts(1));
    url_ = "http://127.0.0.1:" + std::to_string(ports[0]);
    std::ofstream(dir_ + "/prometheus.yml")
        << "global:\n  scrape_interval: 1s\n  scrape_timeout: 1s\n  evaluation_interval: 1s\nscrape_configs:\n"
        << scrape_configs;
    CTRL_ASSIGN_OR_RETURN(process_, ChildProcess::Start({"prometheus", "--config.file=" + dir_ + "/prometheus.yml",
                                                         "--storage.tsdb.path=" + dir_ + "/data",
                                                         "--web.listen-address=127.0.0.1:" + std::to_string(ports[0]),
                                                         "--log.level=warn"},
                                                        dir_ + "/prometheus.log"));
    return OkStatus();
}

std::string PrometheusServer::Api(const std::string& path) const {
    return Curl(url_ + path).body;
}

std::string PrometheusServer::Log() const {
    return TailOfFile(dir_ + "/prometheus.log", 30);
}

}  // namespace ctrl::testing
