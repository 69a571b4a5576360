#pragma once

// The scenarios of ctrl-vs-probe (PROTOCOL.md), one file each. Each prints its protocol lines and
// returns the process's exit code.

#include "test/bench/vs/probe_args.hpp"

namespace ctrl::bench::vs {

int RunSync(const ProbeArgs& args);             // sync [--keep-managed-fields] [--servicemonitors]
int RunWatch(const ProbeArgs& args);            // watch
int RunReads(const ProbeArgs& args);            // reads [--seconds S] [--servicemonitors]
int RunReconcile(const ProbeArgs& args);        // reconcile --workers W [--load] [--servicemonitors]
int RunQueue(const ProbeArgs& args);            // queue [--seconds S]
int RunDiscovery(const ProbeArgs& args);        // discovery --groups G [--legacy] [--misses K]
int RunIdle(const ProbeArgs& args);             // idle [--seconds S] [--servicemonitors]
int RunFailover(const ProbeArgs& args);         // failover --objects N --lease NAME [--warmup]
int RunFailoverObjects(const ProbeArgs& args);  // failover-objects --count N
int RunCustomObjects(const ProbeArgs& args);    // custom-objects [--concurrency C]
int RunPatchLoad(const ProbeArgs& args);        // patch-load --concurrency C --seconds S --out FILE
int RunWebhookSetup(const ProbeArgs& args);     // webhook-setup --cert-dir D --port P [--configuration NAME]
int RunWebhookServe(const ProbeArgs& args);     // webhook-serve --cert-dir D --port P
int RunWebhookLoad(const ProbeArgs& args);  // webhook-load --cert-dir D --port P --clients C --seconds S [--apiserver]

}  // namespace ctrl::bench::vs
