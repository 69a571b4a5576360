// How to hold 10,000 cached pods (issue 6; docs/decisions.md, decision 21): for each storage form, the RSS held
// per byte of the objects' compact JSON (after the default transform, which drops managedFields), the
// ingest cost and the cost of a read that returns an owning copy. Each form runs in a child process
// of its own, so the RSS figures do not mix; the pods arrive as a reflector receives them, in List
// pages of 500 parsed with ObjectList::Parse.
//
//   cache_storage_bench                 every form, one row each
//   cache_storage_bench <form> [--keep-managed-fields]
#include <malloc.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "ctrl/cache/internal/compact_value.hpp"
#include "ctrl/cache/store.hpp"
#include "ctrl/core/object.hpp"
#include "ctrl/core/object_list.hpp"
#include "test/support/realistic_pod.hpp"

namespace {

using Clock = std::chrono::steady_clock;
constexpr int kPods = 10000;
constexpr int kPageSize = 500;

std::size_t RssBytes() {
    std::ifstream statm("/proc/self/statm");
    std::size_t pages = 0;
    std::size_t resident = 0;
    statm >> pages >> resident;
    return resident * static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
}

std::size_t SettledRss() {
    malloc_trim(0);
    return RssBytes();
}

double Micros(Clock::duration d) {
    return std::chrono::duration<double, std::micro>(d).count();
}

std::string Page(int first) {
    std::string page = R"({"kind":"PodList","apiVersion":"v1","metadata":{"resourceVersion":"1000000"},"items":[)";
    for (int i = first; i < first + kPageSize && i < kPods; ++i) {
        if (i != first)
            page += ',';
        page += ctrl::testing::RealisticPodJson(static_cast<uint64_t>(i), 900000 + static_cast<uint64_t>(i), 0);
    }
    return page + "]}";
}

// One storage form: what it keeps per object and how a read materializes an owning Object.
class Form {
  public:
    virtual ~Form() = default;
    virtual void Add(ctrl::Object object) = 0;
    virtual ctrl::Object Read(std::size_t i) const = 0;
    // After the last Add.
    virtual void Finish() {}
};

// The object as parsed (a compact copy out of the page), transformed in place: the dropped
// managedFields stay in its pool.
class DocumentForm final : public Form {
  public:
    void Add(ctrl::Object object) override { objects_.push_back(std::move(object)); }
    ctrl::Object Read(std::size_t i) const override { return objects_[i].DeepCopy(); }

  private:
    std::vector<ctrl::Object> objects_;
};

// The transformed object deep-copied into an exact pool.
class CompactedDocumentForm final : public Form {
  public:
    void Add(ctrl::Object object) override { objects_.push_back(object.DeepCopy()); }
    ctrl::Object Read(std::size_t i) const override { return objects_[i].DeepCopy(); }

  private:
    std::vector<ctrl::Object> objects_;
};

// Compact JSON text; a read parses it.
class JsonTextForm final : public Form {
  public:
    void Add(ctrl::Object object) override {
        std::string text = object.ToJson();
        text.shrink_to_fit();
        texts_.push_back(std::move(text));
    }
    ctrl::Object Read(std::size_t i) const override { return std::move(ctrl::Object::Parse(texts_[i])).Value(); }

  private:
    std::vector<std::string> texts_;
};

// The cache's compact binary form; a read decodes it.
class CompactForm final : public Form {
  public:
    explicit CompactForm(uint32_t max_keys) : keys_(max_keys) {}
    void Add(ctrl::Object object) override {
        values_.push_back(ctrl::cache::internal::CompactValue::Encode(object, keys_));
    }
    ctrl::Object Read(std::size_t i) const override { return values_[i].Decode(keys_); }

  private:
    ctrl::cache::internal::InternTable keys_;
    std::vector<ctrl::cache::internal::CompactValue> values_;
};

// The whole cache::Store as a reflector fills it: each page's objects gathered into a replacement
// (encoded as they come), then one Replace (the transform already ran; the store's own is off).
// Reads are Get(namespace, name).Copy().
class StoreForm final : public Form {
  public:
    // updates: after the Replace, every object is updated once more (a new resourceVersion) through
    // Store::Update, as a watch does; the measure then includes what churn leaves behind.
    explicit StoreForm(bool updates = false)
        : updates_(updates), store_({.transform = nullptr}), pending_(store_.BeginReplace()) {}
    void Add(ctrl::Object object) override {
        if (!pending_.Add(std::move(object)).Ok())
            std::abort();
    }
    void Finish() override {
        if (!store_.Replace(std::move(pending_), "1000000").Ok())
            std::abort();
        if (!updates_)
            return;
        for (const ctrl::cache::CachedObject& held : store_.List()) {
            ctrl::Object object = held.Copy();
            object.SetResourceVersion("2000000");
            if (!store_.Update(std::move(object)).Ok())
                std::abort();
        }
    }
    ctrl::Object Read(std::size_t i) const override {
        if (keys_.empty())
            keys_ = store_.List();
        return store_.Get(keys_[i].Namespace(), keys_[i].Name()).Copy();
    }

  private:
    bool updates_;
    ctrl::cache::Store store_;
    ctrl::cache::StoreReplacement pending_;
    mutable std::vector<ctrl::cache::CachedObject> keys_;
};

std::unique_ptr<Form> MakeForm(std::string_view name) {
    if (name == "store")
        return std::make_unique<StoreForm>();
    if (name == "store-updated")
        return std::make_unique<StoreForm>(/*updates=*/true);
    if (name == "document")
        return std::make_unique<DocumentForm>();
    if (name == "document-compacted")
        return std::make_unique<CompactedDocumentForm>();
    if (name == "json-text")
        return std::make_unique<JsonTextForm>();
    if (name == "compact-binary")
        return std::make_unique<CompactForm>(ctrl::cache::internal::InternTable::kMaxNames);
    if (name == "compact-binary-no-intern")
        return std::make_unique<CompactForm>(0);
    return nullptr;
}

int RunForm(std::string_view name, bool keep_managed_fields) {
    std::unique_ptr<Form> form = MakeForm(name);
    if (form == nullptr) {
        std::fprintf(stderr, "unknown form %.*s\n", static_cast<int>(name.size()), name.data());
        return 2;
    }
    const std::size_t rss_before = SettledRss();
    std::size_t json_bytes = 0;
    for (int first = 0; first < kPods; first += kPageSize) {
        const std::string page = Page(first);
        auto list = ctrl::ObjectList::Parse(page);
        if (!list.Ok()) {
            std::fprintf(stderr, "parse: %s\n", list.GetStatus().ToString().c_str());
            return 1;
        }
        for (ctrl::Object& item : list->Items()) {
            if (!keep_managed_fields)
                item.RemoveManagedFields();
            json_bytes += item.ToJson().size();
            form->Add(std::move(item));
        }
    }
    form->Finish();
    const std::size_t held = SettledRss() - rss_before;

    // Costs, on the objects held, best of three passes (the machine is shared): a read that returns an
    // owning copy, and an ingest (transform done) into a fresh form.
    std::size_t check = 0;
    Clock::duration read = Clock::duration::max();
    Clock::duration ingest = Clock::duration::max();
    for (int pass = 0; pass < 3; ++pass) {
        Clock::time_point start = Clock::now();
        for (std::size_t i = 0; i < kPods; ++i)
            check += form->Read(i).Name().size();
        read = std::min(read, Clock::now() - start);
        std::unique_ptr<Form> scratch = MakeForm(name);
        Clock::duration adding{};
        for (std::size_t i = 0; i < kPods; ++i) {
            ctrl::Object object = form->Read(i);
            start = Clock::now();
            scratch->Add(std::move(object));
            adding += Clock::now() - start;
        }
        start = Clock::now();
        scratch->Finish();
        adding += Clock::now() - start;
        ingest = std::min(ingest, adding);
    }
    if (check == 0)
        return 1;

    std::printf(
        "%-26s %-9s json %5.0f B/pod  held %6.0f B/pod  ratio %.2f  ingest %6.2f us/pod  read-copy %6.2f us/pod\n",
        std::string(name).c_str(), keep_managed_fields ? "+managed" : "stripped",
        static_cast<double>(json_bytes) / kPods, static_cast<double>(held) / kPods,
        static_cast<double>(held) / static_cast<double>(json_bytes), Micros(ingest) / kPods, Micros(read) / kPods);
    return 0;
}

int RunChild(const char* self, const char* form, bool keep_managed_fields) {
    std::fflush(stdout);
    const pid_t pid = fork();
    if (pid == 0) {
        const char* args[] = {self, form, keep_managed_fields ? "--keep-managed-fields" : nullptr, nullptr};
        execv(self, const_cast<char* const*>(args));
        _exit(127);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc >= 2)
        return RunForm(argv[1], argc >= 3 && std::string_view(argv[2]) == "--keep-managed-fields");
    int failures = 0;
    for (const char* form : {"document", "document-compacted", "json-text", "compact-binary",
                             "compact-binary-no-intern", "store", "store-updated"})
        failures += RunChild(argv[0], form, false) != 0 ? 1 : 0;
    for (const char* form : {"document-compacted", "compact-binary", "store"})
        failures += RunChild(argv[0], form, true) != 0 ? 1 : 0;
    return failures == 0 ? 0 : 1;
}
