#include "ctrl/cache/internal/written_versions.hpp"

#include <functional>

namespace ctrl::cache::internal {
namespace {

using KeyView = std::pair<std::string_view, std::string_view>;

bool SameWrite(const WrittenVersion& a, const WrittenVersion& b) {
    return a.text == b.text && a.deleted == b.deleted;
}

}  // namespace

std::size_t WrittenVersions::SlotOf(std::string_view namespace_name, std::string_view name) {
    const std::size_t h = std::hash<std::string_view>{}(name)*31 + std::hash<std::string_view>{}(namespace_name);
    return h & (kSlots - 1);
}

WrittenVersions::Writes::iterator WrittenVersions::EraseLocked(Writes::iterator it) {
    slots_[SlotOf(it->first.first, it->first.second)].fetch_sub(1, std::memory_order_release);
    it = writes_.erase(it);
    size_.store(writes_.size(), std::memory_order_release);
    return it;
}

void WrittenVersions::Record(std::string_view namespace_name, std::string_view name, WrittenVersion written) {
    std::lock_guard lock(mu_);
    auto it = writes_.find(KeyView(namespace_name, name));
    if (it == writes_.end()) {
        writes_.emplace(Key(namespace_name, name), std::move(written));
        slots_[SlotOf(namespace_name, name)].fetch_add(1, std::memory_order_release);
        size_.store(writes_.size(), std::memory_order_release);
        return;
    }
    if (written.number != 0 && it->second.number > written.number)
        return;
    it->second = std::move(written);
}

std::optional<WrittenVersion> WrittenVersions::Find(std::string_view namespace_name, std::string_view name) const {
    if (Empty() || slots_[SlotOf(namespace_name, name)].load(std::memory_order_acquire) == 0)
        return std::nullopt;
    std::lock_guard lock(mu_);
    auto it = writes_.find(KeyView(namespace_name, name));
    if (it == writes_.end())
        return std::nullopt;
    return it->second;
}

std::vector<WrittenVersions::Pending> WrittenVersions::In(std::string_view namespace_name) const {
    std::vector<Pending> pending;
    std::lock_guard lock(mu_);
    auto it = namespace_name.empty() ? writes_.begin() : writes_.lower_bound(KeyView(namespace_name, {}));
    for (; it != writes_.end(); ++it) {
        if (!namespace_name.empty() && it->first.first != namespace_name)
            break;
        pending.push_back(Pending{it->first.first, it->first.second, it->second});
    }
    return pending;
}

void WrittenVersions::Forget(std::string_view namespace_name, std::string_view name, const WrittenVersion& written) {
    std::lock_guard lock(mu_);
    auto it = writes_.find(KeyView(namespace_name, name));
    if (it == writes_.end() || !SameWrite(it->second, written))
        return;
    EraseLocked(it);
}

std::size_t WrittenVersions::ForgetReflected(const std::function<bool(const Pending&)>& reflected) {
    std::lock_guard lock(mu_);
    for (auto it = writes_.begin(); it != writes_.end();) {
        if (reflected(Pending{it->first.first, it->first.second, it->second}))
            it = EraseLocked(it);
        else
            ++it;
    }
    return writes_.size();
}

}  // namespace ctrl::cache::internal
