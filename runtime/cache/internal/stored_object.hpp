#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>

#include "ctrl/cache/internal/compact_value.hpp"
#include "ctrl/core/internal/locked_slot.hpp"
#include "ctrl/core/object.hpp"

namespace ctrl::cache::internal {

// One object as a store holds it: its key ("namespace/name", or "name" for a cluster-scoped
// object), its compact form, and the decoded Object last handed out as a shared view, remembered
// only while someone holds it (so a second reader gets the same one without decoding). Immutable
// except for that remembered view, which threads read and replace under a spin lock.
class StoredObject {
  public:
    StoredObject(std::string key, std::size_t namespace_length, CompactValue value)
        : key_(std::move(key)), namespace_length_(static_cast<uint32_t>(namespace_length)), value_(std::move(value)) {}
    StoredObject(const StoredObject&) = delete;
    StoredObject& operator=(const StoredObject&) = delete;

    std::string_view Key() const { return key_; }
    std::string_view Namespace() const { return std::string_view(key_).substr(0, namespace_length_); }
    std::string_view Name() const {
        return namespace_length_ == 0 ? std::string_view(key_) : std::string_view(key_).substr(namespace_length_ + 1);
    }
    const CompactValue& Value() const { return value_; }

    // The shared view someone still holds, or null.
    std::shared_ptr<const Object> LiveView() const { return view_.Load().lock(); }
    void RememberView(const std::shared_ptr<const Object>& view) const { view_.Store(view); }
    // When it was last stored or read, in the store's ticks (a bounded store evicts the oldest).
    uint64_t LastUse() const { return last_use_.load(std::memory_order_relaxed); }
    void Touch(uint64_t tick) const { last_use_.store(tick, std::memory_order_relaxed); }

  private:
    const std::string key_;
    const uint32_t namespace_length_;
    const CompactValue value_;
    mutable ctrl::internal::LockedSlot<std::weak_ptr<const Object>> view_;
    mutable std::atomic<uint64_t> last_use_{0};
};

// "namespace/name", or "name" when namespace_name is empty (client-go's MetaNamespaceKeyFunc).
inline std::string ObjectStoreKey(std::string_view namespace_name, std::string_view name) {
    if (namespace_name.empty())
        return std::string(name);
    std::string key;
    key.reserve(namespace_name.size() + 1 + name.size());
    key.append(namespace_name).append("/").append(name);
    return key;
}

}  // namespace ctrl::cache::internal
