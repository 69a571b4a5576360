#include "ctrl/leaderelection/lease_lock.hpp"

#include <utility>

namespace ctrl::leaderelection {

LeaderElectionRecord RecordFromLease(const api::Lease& lease) {
    LeaderElectionRecord record;
    record.holder_identity = std::string(lease.HolderIdentity().value_or(""));
    record.lease_duration_seconds = lease.LeaseDurationSeconds().value_or(0);
    record.acquire_time = lease.AcquireTime();
    record.renew_time = lease.RenewTime();
    record.leader_transitions = lease.LeaseTransitions().value_or(0);
    return record;
}

void SetLeaseRecord(api::Lease& lease, const LeaderElectionRecord& record) {
    lease.SetHolderIdentity(record.holder_identity);
    lease.SetLeaseDurationSeconds(record.lease_duration_seconds);
    lease.SetAcquireTime(record.acquire_time);
    lease.SetRenewTime(record.renew_time);
    lease.SetLeaseTransitions(record.leader_transitions);
}

Task<StatusOr<LeaderElectionRecord>> LeaseLock::Get(Context ctx) {
    api::Lease lease;
    const Status status = co_await client_.Get(ctx, key_, lease);
    if (!status.Ok())
        co_return status;
    LeaderElectionRecord record = RecordFromLease(lease);
    lease_ = std::move(lease);
    co_return record;
}

Task<Status> LeaseLock::Create(Context ctx, LeaderElectionRecord record) {
    api::Lease lease;
    lease.SetNamespace(key_.namespace_name);
    lease.SetName(key_.name);
    SetLeaseRecord(lease, record);
    const Status status = co_await client_.Create(ctx, lease);
    if (status.Ok())
        lease_ = std::move(lease);
    co_return status;
}

Task<Status> LeaseLock::Update(Context ctx, LeaderElectionRecord record) {
    if (!lease_)
        co_return BadRequestError("lease " + Describe() + " not initialized: Get or Create it first");
    api::Lease lease = lease_->DeepCopy();
    SetLeaseRecord(lease, record);
    const Status status = co_await client_.Update(ctx, lease);
    if (status.Ok())
        lease_ = std::move(lease);
    co_return status;
}

}  // namespace ctrl::leaderelection
