#pragma once

#include <string>

#include "ctrl/core/context.hpp"
#include "ctrl/core/status.hpp"
#include "ctrl/core/task.hpp"

namespace ctrl::manager {

// Something the manager runs (controller-runtime's manager.Runnable plus its
// LeaderElectionRunnable): Run works until ctx ends and returns once it has stopped; an error
// from Run stops the manager. Runnables that need the leader start only once the manager is
// elected.
class Runnable {
  public:
    virtual ~Runnable() = default;
    virtual Task<Status> Run(Context ctx) = 0;
    // Whether Run waits for this process to be elected leader. Default true, as controller-runtime's.
    virtual bool NeedLeaderElection() const { return true; }
    // For logs and errors.
    virtual std::string Name() const { return "runnable"; }
};

}  // namespace ctrl::manager
