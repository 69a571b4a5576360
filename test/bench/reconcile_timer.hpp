#pragma once

// controller_bench's reconciler: a no-op that notes when each workload pod is first reconciled
// and, under a patch load, when a reconcile first sees each patch.

#include <atomic>
#include <chrono>
#include <cstdint>
#include <future>
#include <memory>
#include <string>
#include <string_view>

#include "ctrl/cache/cache.hpp"
#include "ctrl/reconcile/reconciler.hpp"
#include "test/bench/annotation_patch_load.hpp"
#include "test/support/workload.hpp"

namespace ctrl::bench {

// Does nothing but note the time of each reconcile (nanoseconds since origin) in structures sized
// before the run (no allocation and no lock per reconcile; safe on any number of threads):
//  - the first reconcile of every object of the workload layout (pods pod-0000 .., or the objects
//    named <name_prefix>0000 ..), and a signal when all have had one;
//  - the count of reconciles and the time of the last;
//  - when given a patch load: the pod as the cache holds it (GetSharedNow: a shared view, no
//    copy, no request), to note the start of the first reconcile that saw each patch.
class ReconcileTimer final : public reconcile::Reconciler {
  public:
    // cache and load may be null (no patch load); they must outlive the reconciles. name_prefix:
    // what the layout's object names start with before their %04d index.
    ReconcileTimer(const ctrl::testing::WorkloadOptions& layout, std::chrono::steady_clock::time_point origin,
                   const cache::Cache* cache, const AnnotationPatchLoad* load, std::string_view name_prefix = "pod-");

    Task<StatusOr<reconcile::Result>> Reconcile(Context ctx, reconcile::Request request) override;

    // Ready once every pod of the layout has been reconciled at least once.
    std::shared_future<void> AllSeen() const { return all_seen_future_; }
    int Pods() const { return pods_; }
    int PodsSeen() const { return seen_.load(); }
    int64_t Reconciles() const { return reconciles_.load(); }
    int64_t LastReconcileAt() const { return last_reconcile_.load(); }
    // The first reconcile of the first pod, and of the last pod to have one; -1 before.
    int64_t FirstReconcileAt() const;
    int64_t LastFirstReconcileAt() const;
    // The start of the first reconcile that read patch seq from the cache; -1: none did.
    int64_t PatchSeenAt(int seq) const { return patch_seen_ ? patch_seen_[seq].load() : -1; }
    // Keys reconciled that are not the workload's pods.
    int64_t Strangers() const { return strangers_.load(); }

  private:
    int64_t Now() const;
    // The object's place in the layout (namespace index * objects per namespace + its index); -1
    // if the key is not an object of the layout.
    int PodIndex(const ObjectKey& key) const;

    const ctrl::testing::WorkloadOptions layout_;
    const std::string name_prefix_;
    const std::chrono::steady_clock::time_point origin_;
    const cache::Cache* const cache_;
    const AnnotationPatchLoad* const load_;
    const int pods_;
    std::unique_ptr<std::atomic<int64_t>[]> first_;       // by pod index
    std::unique_ptr<std::atomic<int64_t>[]> patch_seen_;  // by patch seq, only with a load
    std::atomic<int> seen_{0};
    std::atomic<int64_t> reconciles_{0};
    std::atomic<int64_t> last_reconcile_{-1};
    std::atomic<int64_t> strangers_{0};
    std::promise<void> all_seen_;
    std::shared_future<void> all_seen_future_ = all_seen_.get_future().share();
};

}  // namespace ctrl::bench
