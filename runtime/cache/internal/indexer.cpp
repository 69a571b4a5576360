#include "ctrl/cache/internal/indexer.hpp"

#include <algorithm>
#include <utility>

namespace ctrl::cache::internal {

namespace {

const Indexer::KeySet& EmptyKeySet() {
    static const Indexer::KeySet empty;
    return empty;
}

// Sorted, without duplicates: an object is found once under each value.
std::vector<std::string> Normalize(std::vector<std::string> values) {
    std::sort(values.begin(), values.end());
    values.erase(std::unique(values.begin(), values.end()), values.end());
    return values;
}

}  // namespace

bool Indexer::Has(std::string_view name) const {
    return std::any_of(indexes_.begin(), indexes_.end(), [&](const Index& index) { return index.name == name; });
}

void Indexer::Define(std::string name, IndexFunc fn) {
    indexes_.push_back(Index{std::move(name), std::move(fn), {}});
}

void Indexer::Unindex(const std::string& key, std::size_t index, const std::vector<std::string>& values) {
    auto& keys_by_value = indexes_[index].keys_by_value;
    for (const std::string& value : values) {
        auto it = keys_by_value.find(value);
        if (it == keys_by_value.end())
            continue;
        it->second.erase(key);
        if (it->second.empty())
            keys_by_value.erase(it);
    }
}

void Indexer::IndexOne(const std::string& key, std::size_t index, std::vector<std::string> values,
                       std::vector<std::vector<std::string>>& held) {
    values = Normalize(std::move(values));
    for (const std::string& value : values)
        indexes_[index].keys_by_value[value].insert(key);
    if (held.size() <= index)
        held.resize(index + 1);
    held[index] = std::move(values);
}

void Indexer::Put(const std::string& key, const Object& object) {
    if (indexes_.empty())
        return;
    std::vector<std::vector<std::string>>& held = values_by_key_[key];
    for (std::size_t i = 0; i < indexes_.size(); ++i) {
        if (i < held.size())
            Unindex(key, i, held[i]);
        IndexOne(key, i, indexes_[i].fn(object), held);
    }
}

std::vector<IndexFunc> Indexer::Funcs() const {
    std::vector<IndexFunc> funcs;
    funcs.reserve(indexes_.size());
    for (const Index& index : indexes_)
        funcs.push_back(index.fn);
    return funcs;
}

std::vector<std::vector<std::string>> Indexer::Compute(const std::vector<IndexFunc>& funcs, const Object& object) {
    std::vector<std::vector<std::string>> values;
    values.reserve(funcs.size());
    for (const IndexFunc& fn : funcs)
        values.push_back(Normalize(fn(object)));
    return values;
}

void Indexer::PutValues(const std::string& key, std::vector<std::vector<std::string>> values) {
    if (indexes_.empty())
        return;
    std::vector<std::vector<std::string>>& held = values_by_key_[key];
    for (std::size_t i = 0; i < indexes_.size(); ++i) {
        if (i < held.size())
            Unindex(key, i, held[i]);
        IndexOne(key, i, i < values.size() ? std::move(values[i]) : std::vector<std::string>(), held);
    }
}

void Indexer::IndexLast(const std::string& key, const Object& object) {
    if (indexes_.empty())
        return;
    const std::size_t last = indexes_.size() - 1;
    IndexOne(key, last, indexes_[last].fn(object), values_by_key_[key]);
}

void Indexer::Remove(std::string_view key) {
    auto it = values_by_key_.find(std::string(key));
    if (it == values_by_key_.end())
        return;
    for (std::size_t i = 0; i < it->second.size(); ++i)
        Unindex(it->first, i, it->second[i]);
    values_by_key_.erase(it);
}

void Indexer::Clear() {
    for (Index& index : indexes_)
        index.keys_by_value.clear();
    values_by_key_.clear();
}

const Indexer::KeySet* Indexer::Keys(std::string_view index, std::string_view value) const {
    for (const Index& candidate : indexes_) {
        if (candidate.name != index)
            continue;
        auto it = candidate.keys_by_value.find(std::string(value));
        return it == candidate.keys_by_value.end() ? &EmptyKeySet() : &it->second;
    }
    return nullptr;
}

std::vector<std::string> Indexer::Values(std::string_view index) const {
    std::vector<std::string> values;
    for (const Index& candidate : indexes_) {
        if (candidate.name != index)
            continue;
        for (const auto& [value, keys] : candidate.keys_by_value)
            values.push_back(value);
    }
    std::sort(values.begin(), values.end());
    return values;
}

}  // namespace ctrl::cache::internal
