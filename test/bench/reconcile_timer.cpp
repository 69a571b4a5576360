#include "test/bench/reconcile_timer.hpp"

#include <algorithm>
#include <charconv>
#include <string_view>

#include "ctrl/api/pod.hpp"

namespace ctrl::bench {
namespace {

// The decimal number that is the whole of text; -1 otherwise.
int WholeNumber(std::string_view text) {
    int value = -1;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    return error == std::errc() && end == text.data() + text.size() ? value : -1;
}

void NoteFirst(std::atomic<int64_t>& slot, int64_t at, bool* first = nullptr) {
    int64_t unset = -1;
    const bool noted = slot.compare_exchange_strong(unset, at);
    if (first != nullptr)
        *first = noted;
}

}  // namespace

ReconcileTimer::ReconcileTimer(const ctrl::testing::WorkloadOptions& layout,
                               std::chrono::steady_clock::time_point origin, const cache::Cache* cache,
                               const AnnotationPatchLoad* load, std::string_view name_prefix)
    : layout_(layout),
      name_prefix_(name_prefix),
      origin_(origin),
      cache_(cache),
      load_(cache != nullptr ? load : nullptr),
      pods_(layout.namespaces * layout.pods_per_namespace),
      first_(std::make_unique<std::atomic<int64_t>[]>(static_cast<std::size_t>(pods_))) {
    for (int i = 0; i < pods_; ++i)
        first_[i] = -1;
    if (load_ != nullptr) {
        patch_seen_ = std::make_unique<std::atomic<int64_t>[]>(AnnotationPatchLoad::kMaxPatches);
        for (int i = 0; i < AnnotationPatchLoad::kMaxPatches; ++i)
            patch_seen_[i] = -1;
    }
}

Task<StatusOr<reconcile::Result>> ReconcileTimer::Reconcile(Context ctx, reconcile::Request request) {
    (void)ctx;
    const int64_t at = Now();
    reconciles_.fetch_add(1, std::memory_order_relaxed);
    last_reconcile_.store(at, std::memory_order_relaxed);
    if (const int index = PodIndex(request); index >= 0) {
        bool first = false;
        NoteFirst(first_[index], at, &first);
        if (first && seen_.fetch_add(1) + 1 == pods_)
            all_seen_.set_value();
    } else {
        strangers_.fetch_add(1, std::memory_order_relaxed);
    }
    if (load_ != nullptr) {
        const StatusOr<std::shared_ptr<const Object>> pod = cache_->GetSharedNow<api::Pod>(request);
        if (pod.Ok()) {
            if (const int seq = load_->SeqOf(**pod); seq >= 0)
                NoteFirst(patch_seen_[seq], at);
        }
    }
    co_return reconcile::Result{};
}

int64_t ReconcileTimer::FirstReconcileAt() const {
    int64_t earliest = -1;
    for (int i = 0; i < pods_; ++i) {
        const int64_t at = first_[i].load();
        if (at >= 0 && (earliest < 0 || at < earliest))
            earliest = at;
    }
    return earliest;
}

int64_t ReconcileTimer::LastFirstReconcileAt() const {
    int64_t latest = -1;
    for (int i = 0; i < pods_; ++i)
        latest = std::max(latest, first_[i].load());
    return latest;
}

int64_t ReconcileTimer::Now() const {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - origin_).count();
}

int ReconcileTimer::PodIndex(const ObjectKey& key) const {
    // Namespaces "<prefix>-<1..N>", objects "<name_prefix><0000..M-1>" (WorkloadNamespace, WorkloadPodName).
    const std::string_view ns = key.namespace_name;
    const std::string_view name = key.name;
    if (ns.size() <= layout_.prefix.size() + 1 || !ns.starts_with(layout_.prefix) || ns[layout_.prefix.size()] != '-' ||
        !name.starts_with(name_prefix_))
        return -1;
    const int namespace_number = WholeNumber(ns.substr(layout_.prefix.size() + 1));
    const int pod_number = WholeNumber(name.substr(name_prefix_.size()));
    if (namespace_number < 1 || namespace_number > layout_.namespaces || pod_number < 0 ||
        pod_number >= layout_.pods_per_namespace)
        return -1;
    return (namespace_number - 1) * layout_.pods_per_namespace + pod_number;
}

}  // namespace ctrl::bench
