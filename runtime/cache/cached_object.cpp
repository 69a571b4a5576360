#include "ctrl/cache/cached_object.hpp"

#include "ctrl/cache/internal/compact_value.hpp"
#include "ctrl/cache/internal/store_context.hpp"
#include "ctrl/cache/internal/stored_object.hpp"

namespace ctrl::cache {

std::string_view CachedObject::StoreKey() const {
    return entry_ ? entry_->Key() : std::string_view();
}

std::string_view CachedObject::Namespace() const {
    return entry_ ? entry_->Namespace() : std::string_view();
}

std::string_view CachedObject::Name() const {
    return entry_ ? entry_->Name() : std::string_view();
}

std::string CachedObject::ResourceVersion() const {
    if (!entry_)
        return {};
    const internal::CompactCursor root(entry_->Value().Bytes(), context_->keys);
    std::optional<internal::CompactCursor> rv = root.Find({"metadata", "resourceVersion"});
    std::optional<std::string_view> text = rv ? rv->String() : std::nullopt;
    return text ? std::string(*text) : std::string();
}

std::map<std::string, std::string> CachedObject::Labels() const {
    if (!entry_)
        return {};
    const internal::CompactCursor root(entry_->Value().Bytes(), context_->keys);
    std::optional<internal::CompactCursor> labels = root.Find({"metadata", "labels"});
    return labels ? labels->StringMap() : std::map<std::string, std::string>();
}

Object CachedObject::Copy() const {
    return entry_ ? entry_->Value().Decode(context_->keys) : Object();
}

std::shared_ptr<const Object> CachedObject::Shared() const {
    if (!entry_)
        return nullptr;
    if (std::shared_ptr<const Object> view = entry_->LiveView())
        return view;
    // Two readers may decode at once; each gets a correct view and the last one is remembered.
    auto view = std::make_shared<const Object>(entry_->Value().Decode(context_->keys));
    entry_->RememberView(view);
    context_->views.Keep(view);
    return view;
}

std::size_t CachedObject::EncodedBytes() const {
    return entry_ ? entry_->Value().Size() : 0;
}

}  // namespace ctrl::cache
