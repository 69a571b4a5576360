#include "ctrl/cache/internal/cache_reader.hpp"

#include <algorithm>
#include <optional>

namespace ctrl::cache::internal {
namespace {

// Whether a field term can be answered without an index.
bool IsMetadataField(std::string_view field) {
    return field == "metadata.name" || field == "metadata.namespace";
}

bool MatchesMetadataTerm(const CachedObject& object, const FieldTerm& term) {
    const std::string_view value = term.field == "metadata.name" ? object.Name() : object.Namespace();
    return term.Matches({{term.field, std::string(value)}});
}

// The candidates of one store: through the first indexed `=` term when there is one, else all.
// indexed_field is set to the term used.
StatusOr<std::vector<CachedObject>> Candidates(const Store& store, const client::ListOptions& options,
                                               std::optional<std::string>& indexed_field) {
    for (const FieldTerm& term : options.field_selector.Terms()) {
        if (IsMetadataField(term.field))
            continue;
        if (term.op != FieldOperator::kEquals) {
            return BadRequestError("field selector \"" + options.field_selector.String() + "\": the cache answers \"" +
                                   term.field + "\" through its field index, which only matches `=` terms");
        }
        if (indexed_field && *indexed_field != term.field) {
            return BadRequestError("field selector \"" + options.field_selector.String() +
                                   "\": the cache answers one indexed field per list; read the rest from the objects");
        }
        StatusOr<std::vector<CachedObject>> found = store.ByIndex(FieldIndexName(term.field), term.value);
        if (!found.Ok()) {
            return BadRequestError("field selector \"" + options.field_selector.String() +
                                   "\": the cache has no index " + "for field \"" + term.field +
                                   "\"; add one with Cache::IndexField before reading");
        }
        indexed_field = term.field;
        return found;
    }
    return store.List(options.namespace_name);
}

}  // namespace

std::string FieldIndexName(std::string_view field) {
    return "field:" + std::string(field);
}

Status ObjectNotFound(const discovery::RESTMapping& mapping, std::string_view name) {
    std::string resource = mapping.resource.resource;
    if (!mapping.resource.group.empty())
        resource += "." + mapping.resource.group;
    return NotFoundError(resource + " \"" + std::string(name) + "\" not found")
        .WithHttpCode(404)
        .WithReason("NotFound");
}

StatusOr<std::vector<CachedObject>> SelectObjects(const std::vector<const Store*>& stores,
                                                  const client::ListOptions& options) {
    if (!options.continue_token.empty())
        return BadRequestError("the cache has no pages: a List from the cache takes no continue token");
    std::vector<CachedObject> selected;
    for (const Store* store : stores) {
        std::optional<std::string> indexed_field;
        CTRL_ASSIGN_OR_RETURN(std::vector<CachedObject> candidates, Candidates(*store, options, indexed_field));
        for (CachedObject& object : candidates) {
            if (!options.namespace_name.empty() && object.Namespace() != options.namespace_name)
                continue;
            if (!options.label_selector.Empty() && !options.label_selector.Matches(object.Labels()))
                continue;
            const bool fields_match =
                std::all_of(options.field_selector.Terms().begin(), options.field_selector.Terms().end(),
                            [&](const FieldTerm& term) {
                                return !IsMetadataField(term.field) || MatchesMetadataTerm(object, term);
                            });
            if (!fields_match)
                continue;
            selected.push_back(std::move(object));
        }
    }
    if (stores.size() > 1 || !options.field_selector.Empty()) {
        std::sort(selected.begin(), selected.end(),
                  [](const CachedObject& a, const CachedObject& b) { return a.StoreKey() < b.StoreKey(); });
    }
    if (options.limit && *options.limit > 0 && selected.size() > static_cast<std::size_t>(*options.limit))
        selected.resize(static_cast<std::size_t>(*options.limit));
    return selected;
}

Object MaterializeCopy(const CachedObject& cached, client::ObjectForm form, const GroupVersionKind& gvk) {
    Object copy = cached.Copy();
    if (form == client::ObjectForm::kMetadata || copy.Kind().empty())
        copy.SetGroupVersionKind(gvk);
    return copy;
}

}  // namespace ctrl::cache::internal
