#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "ctrl/api/lease.hpp"
#include "ctrl/api/timestamp.hpp"
#include "ctrl/client/client.hpp"
#include "ctrl/core/context.hpp"
#include "ctrl/core/gvk.hpp"
#include "ctrl/core/status.hpp"
#include "ctrl/core/status_or.hpp"
#include "ctrl/core/task.hpp"

namespace ctrl::leaderelection {

// What a leader writes into its lock (client-go's LeaderElectionRecord): the spec of the Lease.
struct LeaderElectionRecord {
    std::string holder_identity;  // "" when nobody holds it (after a release)
    int64_t lease_duration_seconds = 0;
    std::optional<api::Timestamp> acquire_time;
    std::optional<api::Timestamp> renew_time;
    int64_t leader_transitions = 0;

    bool operator==(const LeaderElectionRecord&) const = default;
};

// Knows how to read and write a LeaderElectionRecord as a coordination.k8s.io/v1 Lease
// (client-go's resourcelock.LeaseLock). Update writes over the Lease last read or written, so it
// fails with Conflict when someone changed it since: the optimistic concurrency leader election
// relies on. Not thread-safe: one elector uses it from one coroutine at a time.
class LeaseLock final {
  public:
    LeaseLock(client::Client& client, ObjectKey key) : client_(client), key_(std::move(key)) {}

    // The record in the Lease; NotFound when there is no Lease.
    Task<StatusOr<LeaderElectionRecord>> Get(Context ctx);
    // Creates the Lease holding record; AlreadyExists when someone made it first.
    Task<Status> Create(Context ctx, LeaderElectionRecord record);
    // Writes record over the Lease last seen; Conflict when it changed since; BadRequest before
    // any Get or Create.
    Task<Status> Update(Context ctx, LeaderElectionRecord record);

    // "namespace/name", for logs.
    std::string Describe() const { return key_.namespace_name + "/" + key_.name; }

  private:
    client::Client& client_;
    ObjectKey key_;
    std::optional<api::Lease> lease_;  // as last read or written
};

// The record a Lease holds (missing fields read as zero values).
LeaderElectionRecord RecordFromLease(const api::Lease& lease);
// Writes record into lease's spec.
void SetLeaseRecord(api::Lease& lease, const LeaderElectionRecord& record);

}  // namespace ctrl::leaderelection
