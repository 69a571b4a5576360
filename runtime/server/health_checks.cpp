#include "ctrl/server/health_checks.hpp"

#include <map>
#include <mutex>
#include <set>
#include <utility>
#include <vector>

#include "ctrl/log/log.hpp"
#include "ctrl/server/http_server.hpp"

namespace ctrl::server {

namespace {

struct NamedCheck {
    Checker check;
    Detail detail;
};

}  // namespace

struct HealthChecks::State {
    mutable std::mutex mu;
    std::map<std::string, NamedCheck> checks;  // sorted by name, as the output is

    std::map<std::string, NamedCheck> Snapshot() const {
        std::lock_guard lock(mu);
        if (checks.empty())
            return {{"ping", NamedCheck{Ping, {}}}};
        return checks;
    }
};

namespace {

const log::Logger& Logger() {
    static const log::Logger logger = log::Logger().WithName("manager").WithName("healthz");
    return logger;
}

Status RunCheck(const std::string& name, const Checker& check) {
    Status status;
    try {
        status = check();
    } catch (const std::exception& e) {
        status = InternalError(std::string("check threw: ") + e.what());
    }
    if (!status.Ok())
        Logger().V(1).Info("healthz check failed", "checker", name, "error", status);
    return status;
}

// "ok", or "ok: <detail>" when the check's detail says something.
std::string Passed(const NamedCheck& check) {
    const std::string detail = check.detail ? check.detail() : std::string();
    return detail.empty() ? "ok" : "ok: " + detail;
}

ServerResponse Aggregate(const std::map<std::string, NamedCheck>& checks, const ServerRequest& request) {
    std::set<std::string> excluded;
    for (std::string& name : request.QueryValues("exclude"))
        excluded.insert(std::move(name));
    std::string lines;
    std::vector<std::string> failed;
    for (const auto& [name, check] : checks) {
        if (excluded.erase(name) > 0) {
            lines += "[+]" + name + " excluded: ok\n";
        } else if (RunCheck(name, check.check).Ok()) {
            lines += "[+]" + name + " " + Passed(check) + "\n";
        } else {
            // Withheld: the endpoint is public; /<root>/<name> tells those who may ask.
            lines += "[-]" + name + " failed: reason withheld\n";
            failed.push_back(name);
        }
    }
    if (!failed.empty() || request.HasQuery("verbose")) {
        if (!excluded.empty()) {
            std::string quoted;
            for (const std::string& name : excluded)
                quoted += (quoted.empty() ? "\"" : ",\"") + name + "\"";
            lines += "warn: some health checks cannot be excluded: no matches for " + quoted + "\n";
        }
        if (!failed.empty()) {
            Logger().Info("healthz check failed", "failed", failed.size(), "first", failed.front());
            return TextResponse(500, lines + "healthz check failed\n");
        }
        return TextResponse(200, lines + "healthz check passed\n");
    }
    return TextResponse(200, "ok");
}

}  // namespace

Status Ping() {
    return OkStatus();
}

HealthChecks::HealthChecks() : state_(std::make_shared<State>()) {}

Status HealthChecks::Add(const std::string& name, Checker check, Detail detail) {
    if (name.empty() || name.find('/') != std::string::npos)
        return BadRequestError("health check name \"" + name + "\": must be non-empty and have no '/'");
    if (!check)
        return BadRequestError("health check " + name + ": no checker");
    std::lock_guard lock(state_->mu);
    if (!state_->checks.emplace(name, NamedCheck{std::move(check), std::move(detail)}).second)
        return AlreadyExistsError("health check " + name + " is already added");
    return OkStatus();
}

std::map<std::string, Status> HealthChecks::RunAll() const {
    std::map<std::string, Status> results;
    for (const auto& [name, check] : state_->Snapshot())
        results.emplace(name, RunCheck(name, check.check));
    return results;
}

ServerResponse HealthChecks::Serve(const std::string& sub_path, const ServerRequest& request) const {
    const std::map<std::string, NamedCheck> checks = state_->Snapshot();
    // Like path.Clean: "/readyz/" is the aggregate; "/readyz/ping/" is "ping".
    std::string name = sub_path;
    while (!name.empty() && name.front() == '/')
        name.erase(0, 1);
    while (!name.empty() && name.back() == '/')
        name.pop_back();
    if (name.empty())
        return Aggregate(checks, request);
    auto it = checks.find(name);
    if (it == checks.end())
        return TextResponse(404, "404 page not found\n");
    if (Status status = RunCheck(name, it->second.check); !status.Ok())
        return TextResponse(500, "internal server error: " + status.ToString() + "\n");
    return TextResponse(200, Passed(it->second));
}

void HealthChecks::Register(HttpServer& server, const std::string& root) const {
    HealthChecks self = *this;
    server.Handle(root,
                  [self](const ServerRequest& request) -> Task<ServerResponse> { co_return self.Serve("", request); });
    server.HandlePrefix(root + "/", [self, size = root.size()](const ServerRequest& request) -> Task<ServerResponse> {
        co_return self.Serve(request.path.substr(size), request);
    });
}

}  // namespace ctrl::server
