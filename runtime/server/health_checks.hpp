#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>

#include "ctrl/core/status.hpp"
#include "ctrl/server/http_exchange.hpp"

namespace ctrl::server {

class HttpServer;

// A named health check (controller-runtime's healthz.Checker): OK when healthy. It runs on the
// server's executor for every probe, so it must be quick and must not block (read a flag).
using Checker = std::function<Status()>;
// What a passing check adds to its "ok" (e.g. a mode the component runs in that an operator should
// see); "" adds nothing. Quick and non-blocking, like a Checker.
using Detail = std::function<std::string()>;

// The checker that always passes (healthz.Ping).
Status Ping();

// A set of named checks served as one endpoint the way controller-runtime's healthz.Handler
// (a copy of Kubernetes') does, at /healthz or /readyz:
//   GET /readyz                200 "ok" when every check passes; 500 with the verbose text otherwise
//   GET /readyz?verbose        one line per check, sorted by name ("[+]ping ok",
//                              "[+]cache excluded: ok", "[-]cache failed: reason withheld"), then
//                              "healthz check passed" or "healthz check failed"
//   GET /readyz?exclude=a&exclude=b   skips those checks (unknown names are warned about)
//   GET /readyz/<name>         that check alone: 200 "ok", or 500 "internal server error: <reason>";
//                              404 for an unknown name
// A check added with a Detail that says something shows it after a pass: "[+]name ok: <detail>" in
// the verbose list, 200 "ok: <detail>" on its own endpoint.
// A failing check's reason is logged, and shown only on its own endpoint, as controller-runtime
// does. With no check added, "ping" is the one check. Thread-safe.
class HealthChecks final {
  public:
    HealthChecks();

    // AlreadyExists when name is taken; BadRequest when it is empty or has a '/'.
    Status Add(const std::string& name, Checker check, Detail detail = {});

    // Serves these checks at root ("/healthz") and root + "/<name>" on server.
    void Register(HttpServer& server, const std::string& root) const;

    // Runs every check now (an exception is the check's Internal error): name -> result. With no
    // check added, "ping".
    std::map<std::string, Status> RunAll() const;
    // What the endpoint answers for a path below root: "" for the aggregate, "<name>" for one check.
    ServerResponse Serve(const std::string& sub_path, const ServerRequest& request) const;

  private:
    struct State;
    std::shared_ptr<State> state_;
};

}  // namespace ctrl::server
