#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "ctrl/cache/index_func.hpp"
#include "ctrl/core/object.hpp"

namespace ctrl::cache::internal {

// The user indexes of one store: for each index, value -> the keys of the objects found under it,
// and for each object the values it was indexed under (so replacing or removing it needs no
// decode). Costs nothing while no index is defined. Not thread-safe: the store locks.
class Indexer {
  public:
    using KeySet = std::set<std::string, std::less<>>;

    bool Empty() const { return indexes_.empty(); }
    bool Has(std::string_view name) const;
    // Defines an index. The caller then indexes the objects already held with IndexLast.
    void Define(std::string name, IndexFunc fn);
    // The index functions, in index order (a snapshot for computing values outside the lock).
    std::vector<IndexFunc> Funcs() const;
    std::size_t Count() const { return indexes_.size(); }
    // The values of object for each of funcs (normalized: sorted, no duplicates).
    static std::vector<std::vector<std::string>> Compute(const std::vector<IndexFunc>& funcs, const Object& object);
    // Indexes object under key in every index, replacing what key had.
    void Put(const std::string& key, const Object& object);
    // The same with values computed beforehand, one list per index in index order (fewer is fine:
    // the object is then not found in the later indexes).
    void PutValues(const std::string& key, std::vector<std::vector<std::string>> values);
    // Indexes object under key in the index defined last (an object held before it was defined).
    void IndexLast(const std::string& key, const Object& object);
    void Remove(std::string_view key);
    // Forgets every object (the indexes stay defined).
    void Clear();

    // The keys found under value in the index; nullptr when there is no such index, an empty set
    // when nothing has that value.
    const KeySet* Keys(std::string_view index, std::string_view value) const;
    // The values of an index that some object has, sorted; empty when there is no such index.
    std::vector<std::string> Values(std::string_view index) const;

  private:
    struct Index {
        std::string name;
        IndexFunc fn;
        std::unordered_map<std::string, KeySet> keys_by_value;
    };
    void Unindex(const std::string& key, std::size_t index, const std::vector<std::string>& values);
    void IndexOne(const std::string& key, std::size_t index, std::vector<std::string> values,
                  std::vector<std::vector<std::string>>& held);

    std::vector<Index> indexes_;
    // key -> per index, the values the object is found under.
    std::unordered_map<std::string, std::vector<std::vector<std::string>>> values_by_key_;
};

}  // namespace ctrl::cache::internal
