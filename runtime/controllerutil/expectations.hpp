#pragma once

#include <chrono>
#include <map>
#include <mutex>
#include <string>

#include "ctrl/core/object.hpp"

namespace ctrl::controllerutil {

// What a controller expects to see of the children it has just created or deleted (Kubernetes'
// ControllerExpectations): "I created 3 Pods for ReplicaSet X; do not act on X's Pods until the
// cache has shown me all 3". The reconciler records what it asked the server for
// (ExpectCreations, ExpectDeletions); the children's event handler records what the cache then
// showed (CreationObserved, DeletionObserved, or ObserveOwned for a child with a controller
// reference); Satisfied says whether the owner's children in the cache can be trusted. An
// expectation not met within the timeout counts as met (a create the server accepted whose event
// was missed, a delete of an object that was gone already), so nothing waits on one forever;
// Remaining says when, for a requeue. Owners are keyed "namespace/name" (reconcile::Request's
// String()). With read-your-own-writes on (the default), a cached List after this process's own
// creates already shows them; expectations still serve counts across reconciles and controllers,
// and writes made through other clients. Thread-safe.
class Expectations final {
  public:
    explicit Expectations(std::chrono::milliseconds timeout = std::chrono::minutes(5));

    // Sets owner's expectation: count creations (or deletions) still to be seen, replacing what
    // was expected, and restarts its timeout.
    void ExpectCreations(const std::string& owner, int count);
    void ExpectDeletions(const std::string& owner, int count);
    // Adds to owner's expectation (creates one when there is none) and restarts its timeout.
    void RaiseExpectations(const std::string& owner, int creations, int deletions);
    // One creation (deletion) of owner's was seen. Nothing for an owner without an expectation.
    void CreationObserved(const std::string& owner);
    void DeletionObserved(const std::string& owner);
    // Counts child's creation (or deletion) for its controller owner (the owner reference with
    // controller: true, in child's namespace). Nothing for a child without one.
    void ObserveOwned(const Object& child, bool deleted);

    // Whether owner's expectation is met, or timed out, or there is none.
    bool Satisfied(const std::string& owner) const;
    // How long until owner's expectation times out; zero once Satisfied.
    std::chrono::milliseconds Remaining(const std::string& owner) const;
    // Drops owner's expectation (the owner was deleted).
    void Forget(const std::string& owner);

  private:
    using Clock = std::chrono::steady_clock;
    struct Expected {
        int creations = 0;
        int deletions = 0;
        Clock::time_point set{};
    };

    bool SatisfiedLocked(const Expected& expected, Clock::time_point now) const;
    void Observed(const std::string& owner, bool deleted);

    const std::chrono::milliseconds timeout_;
    mutable std::mutex mu_;
    std::map<std::string, Expected, std::less<>> expected_;
};

}  // namespace ctrl::controllerutil
