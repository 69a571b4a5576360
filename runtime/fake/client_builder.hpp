#pragma once

#include <map>
#include <memory>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "ctrl/client/object_form.hpp"
#include "ctrl/core/gvk.hpp"
#include "ctrl/core/object.hpp"
#include "ctrl/core/object_list.hpp"
#include "ctrl/core/status_or.hpp"
#include "ctrl/discovery/rest_mapper.hpp"
#include "ctrl/fake/fake_client.hpp"
#include "ctrl/fake/index_func.hpp"
#include "ctrl/fake/interceptor.hpp"
#include "ctrl/scheme/scheme.hpp"
#include "ctrl/scheme/typed_object.hpp"

namespace ctrl::fake {

// Builds a FakeClient (controller-runtime's fake.ClientBuilder):
//   StatusOr<std::unique_ptr<fake::FakeClient>> client = fake::NewClientBuilder()
//       .WithObjects(pod, config_map)
//       .WithCustomResourceDefinition(widget_crd)
//       .WithInterceptor([](const fake::Call& call) {
//           return call.verb == "update" ? ConflictError("injected") : OkStatus(); })
//       .Build();
// Defaults: a scheme with every built-in kind of runtime/api; a StaticRESTMapper serving the
// built-in kinds and the scheme's (NewRESTMapperForScheme); the status subresource for the
// built-in kinds that have one. Objects are copied when given and again by each Build.
class ClientBuilder {
  public:
    // The scheme typed objects are checked against. Default: api::AddAllBuiltinsToScheme.
    ClientBuilder& WithScheme(std::shared_ptr<const scheme::Scheme> scheme);
    // Another mapper instead of the one made from the scheme; then WithKind, WithClusterScoped
    // and WithCustomResourceDefinition cannot be used, and initial objects must be of kinds the
    // mapper knows without a lookup (CachedMapping).
    ClientBuilder& WithRESTMapper(std::shared_ptr<discovery::RESTMapper> mapper);

    // Objects the client starts with, kept as given (a resourceVersion, uid and creationTimestamp
    // are filled in when missing).
    template <client::ClientObject... T>
    ClientBuilder& WithObjects(const T&... objects) {
        (objects_.push_back(objects.DeepCopy()), ...);
        return *this;
    }
    // Every item of list (items without apiVersion and kind take the list's item kind).
    ClientBuilder& WithLists(const ObjectList& list);

    // Kinds whose status is a subresource (besides the built-in ones): Update and Patch leave
    // their status alone and Status() writes change nothing else.
    template <scheme::TypedObject T>
    ClientBuilder& WithStatusSubresource() {
        return WithStatusSubresource(scheme::GroupVersionKindOf<T>().ToGroupKind());
    }
    ClientBuilder& WithStatusSubresource(const GroupKind& kind);
    // Kinds served cluster-scoped besides ClusterScopedBuiltinKinds().
    ClientBuilder& WithClusterScoped(const GroupKind& kind);
    // A kind the scheme does not register (used unstructured), served at plural with scope.
    ClientBuilder& WithKind(const GroupVersionKind& gvk, std::string plural, discovery::Scope scope);
    // The kinds a CustomResourceDefinition (its JSON object) serves: group, kind, plural, scope,
    // served versions, and the status subresource where a version declares it. BadRequest at
    // Build when the object is not a usable CRD.
    ClientBuilder& WithCustomResourceDefinition(const Object& crd);
    // Field selectors on field for kind are answered from extract (other fields than
    // metadata.name and metadata.namespace are BadRequest, as an unsupported field label is).
    ClientBuilder& WithIndex(const GroupKind& kind, std::string field, IndexFunc extract);

    // Interceptors see every call before the fake makes it, in the order given, and can answer
    // it with an error instead (interceptor.hpp).
    ClientBuilder& WithInterceptor(Interceptor interceptor);

    // A client (each call a new one, with its own copy of the initial objects). BadRequest for an unusable CRD or an
    // option the given mapper cannot take; NoMatch for an initial object of a kind the mapper does not know;
    // AlreadyExists for two initial objects with one key.
    StatusOr<std::unique_ptr<FakeClient>> Build();

  private:
    struct Kind {
        GroupVersionKind gvk;
        std::string plural;
        discovery::Scope scope;
    };

    std::shared_ptr<const scheme::Scheme> scheme_;
    std::shared_ptr<discovery::RESTMapper> mapper_;
    std::vector<Object> objects_;
    std::set<GroupKind> status_subresource_;
    std::set<GroupKind> generation_;
    std::set<GroupKind> cluster_scoped_;
    std::vector<Kind> kinds_;
    std::vector<std::tuple<GroupKind, std::string, IndexFunc>> indexes_;
    std::vector<Interceptor> interceptors_;
    Status error_;
};

// A builder with the defaults above (fake.NewClientBuilder).
ClientBuilder NewClientBuilder();

}  // namespace ctrl::fake
