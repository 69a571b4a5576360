#pragma once

// Helpers for the reflector's tests: an event recorder, JSON builders for a scripted API server,
// and Eventually (test/support/eventually.hpp).

#include <chrono>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "ctrl/cache/event_handler.hpp"
#include "test/support/eventually.hpp"

namespace ctrl::cache::test {

// Records every event as a line: "add ns/a 3 initial", "update ns/a 3->4", "delete ns/b 7 unknown".
class Recorder final : public EventHandler {
  public:
    void OnAdd(const std::shared_ptr<const Object>& object, bool is_initial_list) override {
        Record("add " + Name(*object) + " " + std::string(object->ResourceVersion()) +
               (is_initial_list ? " initial" : ""));
    }
    void OnUpdate(const std::shared_ptr<const Object>& old_object,
                  const std::shared_ptr<const Object>& new_object) override {
        Record("update " + Name(*new_object) + " " + std::string(old_object->ResourceVersion()) + "->" +
               std::string(new_object->ResourceVersion()));
    }
    void OnDelete(const std::shared_ptr<const Object>& last_known, bool final_state_unknown) override {
        Record("delete " + Name(*last_known) + " " + std::string(last_known->ResourceVersion()) +
               (final_state_unknown ? " unknown" : ""));
    }

    std::vector<std::string> Events() const {
        std::lock_guard lock(mu_);
        return events_;
    }
    std::size_t Count() const {
        std::lock_guard lock(mu_);
        return events_.size();
    }

  private:
    static std::string Name(const Object& object) {
        return std::string(object.Namespace()) + "/" + std::string(object.Name());
    }
    void Record(std::string line) {
        std::lock_guard lock(mu_);
        events_.push_back(std::move(line));
    }

    mutable std::mutex mu_;
    std::vector<std::string> events_;
};

using ctrl::testing::Eventually;

// A pod as a list item (no apiVersion and kind, as the API server sends items).
inline std::string PodItem(const std::string& name, const std::string& rv, const std::string& ns = "ns") {
    return R"({"metadata":{"name":")" + name + R"(","namespace":")" + ns + R"(","resourceVersion":")" + rv +
           R"(","managedFields":[{"manager":"test"}]},"spec":{"nodeName":"n1"}})";
}

// A pod as a watch event carries it.
inline std::string PodObject(const std::string& name, const std::string& rv, const std::string& ns = "ns") {
    return R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":")" + name + R"(","namespace":")" + ns +
           R"(","resourceVersion":")" + rv + R"(","managedFields":[{"manager":"test"}]},"spec":{"nodeName":"n1"}})";
}

inline std::string PodList(const std::string& rv, const std::vector<std::string>& items,
                           const std::string& continue_token = "") {
    std::string out = R"({"kind":"PodList","apiVersion":"v1","metadata":{"resourceVersion":")" + rv + "\"";
    if (!continue_token.empty())
        out += R"(,"continue":")" + continue_token + "\"";
    out += R"(},"items":[)";
    for (std::size_t i = 0; i < items.size(); ++i)
        out += (i ? "," : "") + items[i];
    return out + "]}";
}

inline std::string Event(const std::string& type, const std::string& object) {
    return R"({"type":")" + type + R"(","object":)" + object + "}\n";
}

inline std::string Bookmark(const std::string& rv) {
    return Event("BOOKMARK", R"({"kind":"Pod","apiVersion":"v1","metadata":{"resourceVersion":")" + rv + R"("}})");
}

// The ERROR event a watch from too old a resourceVersion gets.
inline std::string ExpiredEvent() {
    return Event("ERROR", R"json({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",)json"
                          R"json("message":"too old resource version: 10 (25)","reason":"Expired","code":410})json");
}

}  // namespace ctrl::cache::test
