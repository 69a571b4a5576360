#pragma once

#include <functional>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>

#include "ctrl/controller/controller.hpp"
#include "ctrl/manager/runnable.hpp"

namespace ctrl::manager::internal {

// Runs anything with Run, NeedLeaderElection and Name (a Controller, an HttpServer) as a manager
// runnable.
template <typename T>
class RunnableOf final : public Runnable {
  public:
    explicit RunnableOf(std::shared_ptr<T> target) : target_(std::move(target)) {}
    Task<Status> Run(Context ctx) override { return target_->Run(std::move(ctx)); }
    bool NeedLeaderElection() const override { return target_->NeedLeaderElection(); }
    std::string Name() const override { return Prefix() + target_->Name(); }

  private:
    static std::string Prefix() { return std::is_same_v<T, controller::Controller> ? "controller " : ""; }
    std::shared_ptr<T> target_;
};

// Runs a task function as a runnable.
class FunctionRunnable final : public Runnable {
  public:
    FunctionRunnable(std::string name, std::function<Task<Status>(Context)> run, bool needs_leader)
        : name_(std::move(name)), run_(std::move(run)), needs_leader_(needs_leader) {}
    Task<Status> Run(Context ctx) override { return run_(std::move(ctx)); }
    bool NeedLeaderElection() const override { return needs_leader_; }
    std::string Name() const override { return name_; }

  private:
    std::string name_;
    std::function<Task<Status>(Context)> run_;
    bool needs_leader_;
};

}  // namespace ctrl::manager::internal
