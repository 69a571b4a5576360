#include "ctrl/cache/store.hpp"

#include <mutex>
#include <utility>

#include "ctrl/cache/internal/compact_builder.hpp"
#include "ctrl/cache/internal/compact_value.hpp"
#include "ctrl/cache/internal/indexer.hpp"
#include "ctrl/cache/internal/store_context.hpp"
#include "ctrl/cache/internal/stored_object.hpp"

namespace ctrl::cache {

using internal::CompactValue;
using internal::StoredObject;

namespace {

// "ns/": where a namespace's objects start in key order.
std::string NamespacePrefix(std::string_view namespace_name) {
    std::string prefix(namespace_name);
    prefix += '/';
    return prefix;
}

}  // namespace

Store::Store(StoreOptions options)
    : options_(std::move(options)),
      context_(std::make_shared<internal::StoreContext>(options_.hot_views)),
      indexer_(std::make_unique<internal::Indexer>()) {}

Store::~Store() = default;

CachedObject Store::Handle(EntryPtr entry) const {
    if (!entry)
        return {};
    return CachedObject(std::move(entry), context_);
}

StatusOr<Store::EntryPtr> Store::Encode(Object& object) const {
    if (object.Name().empty())
        return BadRequestError("cannot store an object without metadata.name (namespace \"" +
                               std::string(object.Namespace()) + "\")");
    std::string key = internal::ObjectStoreKey(object.Namespace(), object.Name());
    if (options_.transform) {
        if (Status status = options_.transform(object); !status.Ok())
            return status.Annotate("transform of " + key);
        if (internal::ObjectStoreKey(object.Namespace(), object.Name()) != key)
            return BadRequestError("transform of " + key + " changed its namespace or name");
    }
    const std::size_t namespace_length = object.Namespace().size();
    return std::make_shared<const StoredObject>(std::move(key), namespace_length,
                                                CompactValue::Encode(object, context_->keys));
}

Store::EntryPtr Store::PutLocked(EntryMap& map, EntryPtr entry) {
    auto it = map.find(entry->Key());
    if (it == map.end()) {
        const std::string_view key = entry->Key();
        map.emplace(key, std::move(entry));
        return nullptr;
    }
    // The map's key points into the old entry: re-point it at the new one before the old can go.
    auto node = map.extract(it);
    EntryPtr previous = std::move(node.mapped());
    node.key() = entry->Key();
    node.mapped() = std::move(entry);
    map.insert(std::move(node));
    return previous;
}

StatusOr<StoreChange> Store::Upsert(Object object) {
    CTRL_ASSIGN_OR_RETURN(EntryPtr entry, Encode(object));
    // The object as ingested is the shared view while someone holds it (an event handler).
    auto view = std::make_shared<const Object>(std::move(object));
    entry->RememberView(view);
    Touch(*entry);
    EntryPtr previous;
    std::vector<EntryPtr> evicted;  // released after the lock
    {
        std::unique_lock lock(mu_);
        indexer_->Put(std::string(entry->Key()), *view);
        encoded_bytes_ += entry->Value().Size();
        previous = PutLocked(objects_, entry);
        if (previous)
            encoded_bytes_ -= previous->Value().Size();
        EvictLocked(evicted);
    }
    return StoreChange{Handle(std::move(previous)), Handle(std::move(entry))};
}

StatusOr<StoreChange> Store::Add(Object object) {
    return Upsert(std::move(object));
}

StatusOr<StoreChange> Store::Update(Object object) {
    return Upsert(std::move(object));
}

CachedObject Store::Delete(std::string_view namespace_name, std::string_view name) {
    const std::string key = internal::ObjectStoreKey(namespace_name, name);
    EntryPtr previous;
    {
        std::unique_lock lock(mu_);
        auto it = objects_.find(std::string_view(key));
        if (it == objects_.end())
            return {};
        previous = std::move(it->second);
        objects_.erase(it);
        encoded_bytes_ -= previous->Value().Size();
        indexer_->Remove(key);
    }
    return Handle(std::move(previous));
}

StoreReplacement::StoreReplacement(const Store& store, std::vector<IndexFunc> index_funcs)
    : store_(&store), index_funcs_(std::move(index_funcs)) {}
StoreReplacement::StoreReplacement(StoreReplacement&&) noexcept = default;
StoreReplacement& StoreReplacement::operator=(StoreReplacement&&) noexcept = default;
StoreReplacement::~StoreReplacement() = default;

Status StoreReplacement::Add(Object object) {
    CTRL_ASSIGN_OR_RETURN(Store::EntryPtr entry, store_->Encode(object));
    if (!index_funcs_.empty())
        index_values_.push_back(internal::Indexer::Compute(index_funcs_, object));
    entries_.push_back(std::move(entry));
    return OkStatus();
}

rest::WatchObjectSink* StoreReplacement::Sink() {
    if (store_->options_.transform && !store_->DropsManagedFields())
        return nullptr;  // a transform of the user's: it needs the Object
    if (!builder_)
        builder_ = std::make_unique<internal::CompactBuilder>(store_->context_->keys);
    return builder_.get();
}

Status StoreReplacement::AddFromSink() {
    std::optional<internal::BuiltObject> built = builder_ ? builder_->Take() : std::nullopt;
    if (!built)
        return InternalError("the store's sink holds no finished object");
    if (built->name.empty())
        return BadRequestError("cannot store an object without metadata.name (namespace \"" + built->namespace_name +
                               "\")");
    std::string key = internal::ObjectStoreKey(built->namespace_name, built->name);
    auto entry =
        std::make_shared<const StoredObject>(std::move(key), built->namespace_name.size(), std::move(built->value));
    if (!index_funcs_.empty())
        index_values_.push_back(
            internal::Indexer::Compute(index_funcs_, entry->Value().Decode(store_->context_->keys)));
    entries_.push_back(std::move(entry));
    return OkStatus();
}

StoreReplacement Store::BeginReplace() const {
    std::shared_lock lock(mu_);
    return StoreReplacement(*this, indexer_->Funcs());
}

StatusOr<StoreReplaceResult> Store::Replace(std::vector<Object> objects, std::string resource_version) {
    StoreReplacement replacement = BeginReplace();
    for (Object& object : objects)
        CTRL_RETURN_IF_ERROR(replacement.Add(std::move(object)));
    objects.clear();
    return Replace(std::move(replacement), std::move(resource_version));
}

StatusOr<StoreReplaceResult> Store::Replace(StoreReplacement replacement, std::string resource_version) {
    if (replacement.store_ != this)
        return BadRequestError("Store::Replace: the replacement was begun on another store");
    std::vector<EntryPtr>& entries = replacement.entries_;
    EntryMap fresh;
    std::size_t encoded_bytes = 0;
    std::vector<EntryPtr> evicted;  // released after the lock
    for (const EntryPtr& entry : entries) {
        Touch(*entry);
        encoded_bytes += entry->Value().Size();
        if (EntryPtr duplicate = PutLocked(fresh, entry))
            encoded_bytes -= duplicate->Value().Size();
    }

    StoreReplaceResult result;
    result.changes.reserve(entries.size());
    EntryMap old;
    {
        std::unique_lock lock(mu_);
        for (const EntryPtr& entry : entries) {
            auto it = objects_.find(entry->Key());
            result.changes.push_back(
                StoreChange{it == objects_.end() ? CachedObject() : Handle(it->second), Handle(entry)});
        }
        for (const auto& [key, entry] : objects_) {
            if (!fresh.contains(key))
                result.deleted.push_back(Handle(entry));
        }
        indexer_->Clear();
        if (!indexer_->Empty()) {
            const bool complete = replacement.index_funcs_.size() == indexer_->Count();
            const std::vector<IndexFunc> funcs = complete ? std::vector<IndexFunc>() : indexer_->Funcs();
            for (std::size_t i = 0; i < entries.size(); ++i) {
                const std::string key(entries[i]->Key());
                if (complete) {
                    indexer_->PutValues(key, std::move(replacement.index_values_[i]));
                } else {  // an index was added while the objects were gathered
                    indexer_->PutValues(key,
                                        internal::Indexer::Compute(funcs, entries[i]->Value().Decode(context_->keys)));
                }
            }
        }
        old = std::exchange(objects_, std::move(fresh));
        encoded_bytes_ = encoded_bytes;
        last_sync_resource_version_ = std::move(resource_version);
        evicted_ = false;  // a complete set
        EvictLocked(evicted);
    }
    // The old entries the result does not hold are released here, outside the lock.
    return result;
}

CachedObject Store::Get(std::string_view namespace_name, std::string_view name) const {
    const std::string key = internal::ObjectStoreKey(namespace_name, name);
    std::shared_lock lock(mu_);
    auto it = objects_.find(std::string_view(key));
    if (it == objects_.end())
        return CachedObject();
    Touch(*it->second);
    return Handle(it->second);
}

std::vector<CachedObject> Store::ListLocked(std::string_view namespace_name) const {
    std::vector<CachedObject> out;
    if (namespace_name.empty()) {
        out.reserve(objects_.size());
        for (const auto& [key, entry] : objects_)
            out.push_back(Handle(entry));
        return out;
    }
    const std::string prefix = NamespacePrefix(namespace_name);
    for (auto it = objects_.lower_bound(std::string_view(prefix));
         it != objects_.end() && it->first.starts_with(prefix); ++it)
        out.push_back(Handle(it->second));
    return out;
}

std::vector<CachedObject> Store::List(std::string_view namespace_name) const {
    std::shared_lock lock(mu_);
    return ListLocked(namespace_name);
}

std::vector<std::string> Store::ListKeys() const {
    std::shared_lock lock(mu_);
    std::vector<std::string> keys;
    keys.reserve(objects_.size());
    for (const auto& [key, entry] : objects_)
        keys.emplace_back(key);
    return keys;
}

std::size_t Store::Size() const {
    std::shared_lock lock(mu_);
    return objects_.size();
}

Status Store::AddIndex(std::string name, IndexFunc fn) {
    std::unique_lock lock(mu_);
    if (name == kNamespaceIndex || indexer_->Has(name))
        return AlreadyExistsError("the store already has an index named \"" + name + "\"");
    indexer_->Define(std::move(name), std::move(fn));
    for (const auto& [key, entry] : objects_) {
        const Object object = entry->Value().Decode(context_->keys);
        indexer_->IndexLast(std::string(key), object);
    }
    return OkStatus();
}

StatusOr<std::vector<CachedObject>> Store::ByIndex(std::string_view index, std::string_view value) const {
    std::shared_lock lock(mu_);
    if (index == kNamespaceIndex)
        return ListLocked(value.empty() ? std::string_view() : value);
    const internal::Indexer::KeySet* keys = indexer_->Keys(index, value);
    if (keys == nullptr)
        return NotFoundError("the store has no index named \"" + std::string(index) + "\"");
    std::vector<CachedObject> out;
    out.reserve(keys->size());
    for (const std::string& key : *keys) {
        if (auto it = objects_.find(std::string_view(key)); it != objects_.end())
            out.push_back(Handle(it->second));
    }
    return out;
}

StatusOr<std::vector<std::string>> Store::IndexValues(std::string_view index) const {
    std::shared_lock lock(mu_);
    if (index == kNamespaceIndex) {
        std::vector<std::string> values;
        for (const auto& [key, entry] : objects_) {
            if (!entry->Namespace().empty() && (values.empty() || values.back() != entry->Namespace()))
                values.emplace_back(entry->Namespace());
        }
        return values;
    }
    if (!indexer_->Has(index))
        return NotFoundError("the store has no index named \"" + std::string(index) + "\"");
    return indexer_->Values(index);
}

bool Store::DropsManagedFields() const {
    using Plain = Status (*)(Object&);
    const Plain* plain = options_.transform.target<Plain>();
    return plain != nullptr && *plain == &StripManagedFields;
}

Status Store::ApplyTransform(Object& object) const {
    if (!options_.transform)
        return OkStatus();
    return options_.transform(object).Annotate("transform of " +
                                               internal::ObjectStoreKey(object.Namespace(), object.Name()));
}

std::string Store::LastSyncResourceVersion() const {
    std::shared_lock lock(mu_);
    return last_sync_resource_version_;
}

std::size_t Store::EncodedBytes() const {
    std::shared_lock lock(mu_);
    return encoded_bytes_;
}

}  // namespace ctrl::cache
