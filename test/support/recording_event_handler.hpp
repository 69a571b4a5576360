#pragma once

// An event handler and a predicate for tests of sources and controllers (header-only; link
// ctrl::controller): the handler records each call as a line ("create a initial", "update a",
// "delete c unknown", "generic x") and enqueues the object's key.

#include <atomic>
#include <mutex>
#include <string>
#include <vector>

#include "ctrl/handler/handler.hpp"
#include "ctrl/predicate/predicate.hpp"

namespace ctrl::testing {

using handler::RequestQueue;

class RecordingHandler final : public handler::EventHandler {
  public:
    Task<Status> Prepare(Context) override {
        ++prepared;
        co_return prepare_result;
    }
    void Create(const Context&, const event::CreateEvent& e, RequestQueue& queue) override {
        Record("create " + std::string(e.object->Name()) + (e.is_in_initial_list ? " initial" : ""), *e.object, queue);
    }
    void Update(const Context&, const event::UpdateEvent& e, RequestQueue& queue) override {
        Record("update " + std::string(e.object_new->Name()), *e.object_new, queue);
    }
    void Delete(const Context&, const event::DeleteEvent& e, RequestQueue& queue) override {
        Record("delete " + std::string(e.object->Name()) + (e.delete_state_unknown ? " unknown" : ""), *e.object,
               queue);
    }
    void Generic(const Context&, const event::GenericEvent& e, RequestQueue& queue) override {
        Record("generic " + std::string(e.object->Name()), *e.object, queue);
    }

    std::vector<std::string> Log() const {
        std::lock_guard lock(mu_);
        return log_;
    }
    // Forgets the calls recorded so far.
    void Clear() {
        std::lock_guard lock(mu_);
        log_.clear();
    }

    std::atomic<int> prepared{0};
    Status prepare_result;

  private:
    void Record(std::string line, const Object& object, RequestQueue& queue) {
        {
            std::lock_guard lock(mu_);
            log_.push_back(std::move(line));
        }
        queue.Add(reconcile::Request(object.Key()));
    }

    mutable std::mutex mu_;
    std::vector<std::string> log_;
};

// Passes every event except those of the object named name.
class NameIsNot final : public predicate::Predicate {
  public:
    explicit NameIsNot(std::string name) : name_(std::move(name)) {}
    bool Create(const event::CreateEvent& e) const override { return e.object->Name() != name_; }
    bool Update(const event::UpdateEvent& e) const override { return e.object_new->Name() != name_; }
    bool Delete(const event::DeleteEvent& e) const override { return e.object->Name() != name_; }
    bool Generic(const event::GenericEvent& e) const override { return e.object->Name() != name_; }

  private:
    std::string name_;
};

}  // namespace ctrl::testing
