#include "ctrl/fake/client_builder.hpp"

#include <utility>

#include "ctrl/api/builtins.hpp"
#include "ctrl/client/object_checks.hpp"
#include "ctrl/fake/builtin_kinds.hpp"
#include "ctrl/fake/internal/object_store.hpp"

namespace ctrl::fake {

ClientBuilder NewClientBuilder() {
    return ClientBuilder();
}

ClientBuilder& ClientBuilder::WithScheme(std::shared_ptr<const scheme::Scheme> scheme) {
    scheme_ = std::move(scheme);
    return *this;
}

ClientBuilder& ClientBuilder::WithRESTMapper(std::shared_ptr<discovery::RESTMapper> mapper) {
    mapper_ = std::move(mapper);
    return *this;
}

ClientBuilder& ClientBuilder::WithLists(const ObjectList& list) {
    ObjectList copy = list.DeepCopy();
    Status filled = copy.FillItemTypeMeta();
    if (!filled.Ok() && error_.Ok())
        error_ = filled;
    for (Object& item : copy.Items())
        objects_.push_back(std::move(item));
    return *this;
}

ClientBuilder& ClientBuilder::WithStatusSubresource(const GroupKind& kind) {
    status_subresource_.insert(kind);
    if (!StatusSubresourceBuiltinKinds().contains(kind))
        generation_.insert(kind);  // a custom resource: the server keeps its generation
    return *this;
}

ClientBuilder& ClientBuilder::WithClusterScoped(const GroupKind& kind) {
    cluster_scoped_.insert(kind);
    return *this;
}

ClientBuilder& ClientBuilder::WithKind(const GroupVersionKind& gvk, std::string plural, discovery::Scope scope) {
    kinds_.push_back(Kind{gvk, std::move(plural), scope});
    return *this;
}

ClientBuilder& ClientBuilder::WithCustomResourceDefinition(const Object& crd) {
    const std::string group = crd.NestedString({"spec", "group"}).ValueOr("");
    const std::string kind = crd.NestedString({"spec", "names", "kind"}).ValueOr("");
    const std::string plural = crd.NestedString({"spec", "names", "plural"}).ValueOr("");
    const discovery::Scope scope = crd.NestedString({"spec", "scope"}).ValueOr("") == "Cluster"
                                       ? discovery::Scope::kRoot
                                       : discovery::Scope::kNamespace;
    StatusOr<std::vector<Object>> versions = crd.NestedSlice({"spec", "versions"});
    if (group.empty() || kind.empty() || plural.empty() || !versions.Ok() || versions->empty()) {
        if (error_.Ok())
            error_ = BadRequestError("CustomResourceDefinition \"" + std::string(crd.Name()) +
                                     "\" lacks spec.group, spec.names.kind, spec.names.plural or spec.versions");
        return *this;
    }
    generation_.insert(GroupKind{group, kind});
    for (const Object& version : *versions) {
        if (!version.NestedBool({"served"}).ValueOr(true))
            continue;
        kinds_.push_back(
            Kind{GroupVersionKind{group, version.NestedString({"name"}).ValueOr(""), kind}, plural, scope});
        if (version.HasNestedField({"subresources", "status"}))
            status_subresource_.insert(GroupKind{group, kind});
    }
    return *this;
}

ClientBuilder& ClientBuilder::WithIndex(const GroupKind& kind, std::string field, IndexFunc extract) {
    indexes_.emplace_back(kind, std::move(field), std::move(extract));
    return *this;
}

ClientBuilder& ClientBuilder::WithInterceptor(Interceptor interceptor) {
    interceptors_.push_back(std::move(interceptor));
    return *this;
}

StatusOr<std::unique_ptr<FakeClient>> ClientBuilder::Build() {
    CTRL_RETURN_IF_ERROR(error_);
    std::shared_ptr<const scheme::Scheme> scheme = scheme_;
    if (scheme == nullptr) {
        auto builtins = std::make_shared<scheme::Scheme>();
        CTRL_RETURN_IF_ERROR(api::AddAllBuiltinsToScheme(*builtins));
        scheme = std::move(builtins);
    }
    std::shared_ptr<discovery::RESTMapper> mapper = mapper_;
    if (mapper == nullptr) {
        std::shared_ptr<discovery::StaticRESTMapper> own = NewRESTMapperForScheme(*scheme, cluster_scoped_);
        for (const Kind& kind : kinds_) {
            const bool root = kind.scope == discovery::Scope::kRoot || cluster_scoped_.contains(kind.gvk.ToGroupKind());
            own->Add(kind.gvk, kind.plural, root ? discovery::Scope::kRoot : discovery::Scope::kNamespace);
        }
        mapper = std::move(own);
    } else if (!kinds_.empty() || !cluster_scoped_.empty()) {
        return BadRequestError(
            "the fake client builder adds kinds and scopes to its own mapper only: with WithRESTMapper, put them "
            "in the given mapper");
    }

    std::set<GroupKind> status = StatusSubresourceBuiltinKinds();
    status.insert(status_subresource_.begin(), status_subresource_.end());
    std::set<GroupKind> generation = GenerationBuiltinKinds();
    generation.insert(generation_.begin(), generation_.end());

    auto store = std::make_unique<internal::ObjectStore>();
    for (auto& [kind, field, extract] : indexes_)
        store->AddIndex(kind, field, extract);
    for (const Object& object : objects_) {
        CTRL_ASSIGN_OR_RETURN(GroupVersionKind gvk, client::KindOfObject(object));
        std::optional<discovery::RESTMapping> mapping = mapper->CachedMapping(gvk);
        if (!mapping)
            return discovery::NoKindMatch(gvk.ToGroupKind(), {gvk.version});
        internal::KindRules rules;
        rules.mapping = *std::move(mapping);
        rules.status_subresource = status.contains(gvk.ToGroupKind());
        rules.tracks_generation = generation.contains(gvk.ToGroupKind());
        CTRL_RETURN_IF_ERROR(store->Seed(rules, object.DeepCopy()));
    }
    return std::make_unique<FakeClient>(std::move(scheme), std::move(mapper), std::move(status), std::move(generation),
                                        std::move(store), interceptors_);
}

}  // namespace ctrl::fake
