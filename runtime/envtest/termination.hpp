#pragma once

#include <string>

namespace ctrl::envtest {

// Makes SIGINT and SIGTERM tear the local control plane down instead of orphaning it (the kernel
// already kills children when the process dies, see ChildProcess; this also covers grandchildren
// and temporary directories). On the first signal a helper thread stops every child process
// (SIGTERM, SIGKILL after 10 s), removes the directories registered with RemoveOnTermination,
// then raises the signal again with its default action so the process ends as it would have.
// A second signal kills the children at once and exits. Idempotent; thread-safe.
void InstallTerminationHandler();

// For a program that wants to stop gracefully itself: blocks until SIGINT or SIGTERM arrives and
// returns it; while a thread waits here, a signal is handed to it instead of tearing down.
// Requires InstallTerminationHandler.
int WaitForTerminationSignal();

// Registers (or forgets) a directory the signal teardown removes.
void RemoveOnTermination(const std::string& dir);
void ForgetOnTermination(const std::string& dir);

}  // namespace ctrl::envtest
