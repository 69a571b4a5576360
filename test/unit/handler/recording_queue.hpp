#pragma once

// A handler::RequestQueue that records what handlers add, for handler tests.

#include <chrono>
#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ctrl/core/object.hpp"
#include "ctrl/handler/request_queue.hpp"

namespace ctrl::controller::testing {

// Records every Add in order (duplicates included: the handler's own de-duplication is what the
// tests look at); the other methods do nothing. Thread-safe.
class RecordingQueue final : public handler::RequestQueue {
  public:
    void Add(const reconcile::Request& item) override {
        const std::lock_guard<std::mutex> lock(mutex_);
        added_.push_back(item);
    }
    std::vector<reconcile::Request> Added() const {
        const std::lock_guard<std::mutex> lock(mutex_);
        return added_;
    }

    std::optional<reconcile::Request> Get() override { return std::nullopt; }
    Task<std::optional<reconcile::Request>> AsyncGet() override { co_return std::nullopt; }
    void Done(const reconcile::Request& /*item*/) override {}
    void AddAfter(const reconcile::Request& /*item*/, std::chrono::nanoseconds /*delay*/) override {}
    void AddRateLimited(const reconcile::Request& /*item*/) override {}
    void Forget(const reconcile::Request& /*item*/) override {}
    int NumRequeues(const reconcile::Request& /*item*/) const override { return 0; }
    std::size_t Len() const override { return Added().size(); }
    void ShutDown() override {}
    void ShutDownWithDrain() override {}
    Task<void> AsyncShutDownWithDrain() override { co_return; }
    bool ShuttingDown() const override { return false; }

  private:
    mutable std::mutex mutex_;
    std::vector<reconcile::Request> added_;
};

// A shared object with the given namespace, name and labels.
inline std::shared_ptr<const Object> MakeObject(std::string_view namespace_name, std::string_view name,
                                                const std::map<std::string, std::string>& labels = {}) {
    Object object;
    object.SetApiVersion("v1");
    object.SetKind("ConfigMap");
    object.SetNamespace(namespace_name);
    object.SetName(name);
    object.SetLabels(labels);
    return std::make_shared<const Object>(std::move(object));
}

}  // namespace ctrl::controller::testing
