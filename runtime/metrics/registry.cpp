#include "ctrl/metrics/registry.hpp"

#include <prometheus/counter.h>
#include <prometheus/family.h>
#include <prometheus/gauge.h>
#include <prometheus/histogram.h>
#include <prometheus/registry.h>
#include <prometheus/text_serializer.h>

#include <cstdlib>
#include <exception>
#include <iostream>
#include <map>
#include <mutex>
#include <optional>
#include <sstream>

namespace ctrl::metrics {
namespace {

enum class Type { kCounter, kGauge, kHistogram };

struct Entry {
    Type type;
    std::vector<std::string> label_names;
    std::vector<double> buckets;
    void* family;  // prometheus::Family<T>* for the entry's type
};

[[noreturn]] void Abort(const std::string& name, const std::string& what) {
    std::cerr << "ctrl::metrics: cannot register " << name << ": " << what << std::endl;
    std::abort();
}

}  // namespace

struct Registry::State {
    std::shared_ptr<prometheus::Registry> registry = std::make_shared<prometheus::Registry>();
    std::mutex mu;
    std::map<std::string, Entry> entries;
    std::mutex hooks_mu;  // held while hooks run: one scrape's hooks at a time
    struct Hook {
        std::function<void()> run;
        std::optional<std::weak_ptr<const void>> owner;  // none: kept for the registry's life
    };
    std::vector<Hook> collect_hooks;

    // Returns the family already registered under name, checking that it is the same metric.
    void* FindLocked(const std::string& name, Type type, const std::vector<std::string>& label_names,
                     const std::vector<double>& buckets) {
        auto it = entries.find(name);
        if (it == entries.end())
            return nullptr;
        if (it->second.type != type)
            Abort(name, "already registered with another type");
        if (it->second.label_names != label_names)
            Abort(name, "already registered with other label names");
        if (it->second.buckets != buckets)
            Abort(name, "already registered with other buckets");
        return it->second.family;
    }

    template <typename T>
    prometheus::Family<T>* GetOrAdd(const std::string& name, const std::string& help, Type type,
                                    const std::vector<std::string>& label_names, const std::vector<double>& buckets,
                                    prometheus::detail::Builder<T> builder) {
        std::lock_guard lock(mu);
        if (void* found = FindLocked(name, type, label_names, buckets)) {
            return static_cast<prometheus::Family<T>*>(found);
        }
        try {
            prometheus::Family<T>* family = &builder.Name(name).Help(help).Register(*registry);
            entries.emplace(name, Entry{type, label_names, buckets, family});
            return family;
        } catch (const std::exception& e) {
            Abort(name, e.what());
        }
    }
};

Registry::Registry() : state_(std::make_unique<State>()) {}
Registry::~Registry() = default;

CounterFamily Registry::AddCounter(const std::string& name, const std::string& help,
                                   std::vector<std::string> label_names) {
    auto* family = state_->GetOrAdd(name, help, Type::kCounter, label_names, {}, prometheus::BuildCounter());
    return CounterFamily(family, name, std::move(label_names));
}

GaugeFamily Registry::AddGauge(const std::string& name, const std::string& help, std::vector<std::string> label_names) {
    auto* family = state_->GetOrAdd(name, help, Type::kGauge, label_names, {}, prometheus::BuildGauge());
    return GaugeFamily(family, name, std::move(label_names));
}

HistogramFamily Registry::AddHistogram(const std::string& name, const std::string& help,
                                       std::vector<std::string> label_names, std::vector<double> buckets) {
    auto* family = state_->GetOrAdd(name, help, Type::kHistogram, label_names, buckets, prometheus::BuildHistogram());
    return HistogramFamily(family, name, std::move(label_names), std::move(buckets));
}

void Registry::AddCollectHook(std::function<void()> hook) {
    std::lock_guard lock(state_->hooks_mu);
    state_->collect_hooks.push_back(State::Hook{std::move(hook), std::nullopt});
}

void Registry::AddCollectHook(std::weak_ptr<const void> owner, std::function<void()> hook) {
    std::lock_guard lock(state_->hooks_mu);
    state_->collect_hooks.push_back(State::Hook{std::move(hook), std::move(owner)});
}

std::string Registry::SerializeText() const {
    {
        std::lock_guard lock(state_->hooks_mu);
        std::vector<State::Hook>& hooks = state_->collect_hooks;
        std::erase_if(hooks, [](const State::Hook& hook) { return hook.owner && hook.owner->expired(); });
        for (const State::Hook& hook : hooks) {
            if (!hook.owner) {
                hook.run();
            } else if (std::shared_ptr<const void> alive = hook.owner->lock()) {
                hook.run();
            }
        }
    }
    std::ostringstream out;
    prometheus::TextSerializer().Serialize(out, state_->registry->Collect());
    return out.str();
}

Registry& DefaultRegistry() {
    static Registry* registry = new Registry();  // never destroyed: handles outlive static destructors
    return *registry;
}

}  // namespace ctrl::metrics
