#pragma once

// Keeps pods, ServiceAccounts and SecurityGroupPolicies changing in a few namespaces while a fault
// runs: creates, label changes and deletes at a steady rate, chosen by a seeded generator so a run
// can be replayed (the sequence of operations is the seed's; which ones the server accepted depends
// on the fault). Every operation is a kubectl call as admin straight to the control plane (not
// through the operator's proxy), with a short deadline; failures are counted, not fatal: during an
// outage most of them fail. The final state is whatever the server holds: the tests read it afresh.

#include <atomic>
#include <cstdint>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "ctrl/core/status.hpp"

namespace ctrl::e2e {

class ChurnDriver final {
  public:
    ChurnDriver(std::vector<std::string> namespaces, uint32_t seed);
    ChurnDriver(const ChurnDriver&) = delete;
    ChurnDriver& operator=(const ChurnDriver&) = delete;
    // Stops it.
    ~ChurnDriver();

    // Makes the starting objects (ServiceAccounts, policies, pods in every namespace), synchronously;
    // an error when the server refuses them.
    Status Seed();
    // Starts changing things on a thread of its own, one operation every `interval`.
    void Start(std::chrono::milliseconds interval = std::chrono::milliseconds(150));
    // Finishes the operation under way and joins the thread. Idempotent.
    void Stop();

    uint32_t SeedValue() const { return seed_; }
    int Operations() const { return operations_.load(); }
    int Failures() const { return failures_.load(); }

  private:
    void Loop(std::chrono::milliseconds interval);
    // One random operation; false when the server refused or did not answer.
    bool Step();
    bool CreatePod(const std::string& ns);
    bool RelabelPod(const std::string& ns);
    bool DeletePod(const std::string& ns);
    bool RelabelServiceAccount(const std::string& ns);
    bool ChangePolicy(const std::string& ns);
    std::string RandomPodLabels();
    std::string PolicyYaml(const std::string& name);
    template <typename T>
    const T& Pick(const std::vector<T>& items) {
        return items[std::uniform_int_distribution<size_t>(0, items.size() - 1)(random_)];
    }

    const std::vector<std::string> namespaces_;
    const uint32_t seed_;
    std::mt19937 random_;
    int next_pod_ = 0;
    std::thread thread_;
    std::atomic<bool> stop_{false};
    std::atomic<int> operations_{0};
    std::atomic<int> failures_{0};
};

}  // namespace ctrl::e2e
