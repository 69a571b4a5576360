#pragma once

#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "ctrl/client/client.hpp"
#include "ctrl/core/gvk.hpp"
#include "ctrl/fake/interceptor.hpp"

namespace ctrl::fake {

namespace internal {
class ObjectStore;
struct KindRules;
}  // namespace internal

// An in-memory client::Client with the API server's rules (controller-runtime's fake client), for
// unit tests of reconcilers: typed, unstructured and metadata-only objects; resourceVersion, uid,
// creationTimestamp and generateName on create; Conflict for a stale resourceVersion; NotFound,
// AlreadyExists and Invalid with the server's codes and messages; label and field selectors and
// pages; the status subresource; merge, JSON and strategic merge patches; finalizers, graceful
// pod deletion, preconditions and dry runs. Kinds come from its RESTMapper (NoMatch for others).
// Not implemented: server-side apply (BadRequest), subresources other than status and pods'
// eviction, watches, admission, defaulting and validation beyond object names.
// Every call completes at once, without I/O; safe to use from many threads. Reads answer from the
// store writes go to, so a read after a write always sees it (what the manager's client gets from
// read-your-own-writes, without a wait). Made by ClientBuilder.
class FakeClient final : public client::Client {
  public:
    // status_subresource: the kinds (any version) whose status is a subresource; generation: the
    // kinds whose metadata.generation the server keeps.
    FakeClient(std::shared_ptr<const scheme::Scheme> scheme, std::shared_ptr<discovery::RESTMapper> mapper,
               std::set<GroupKind> status_subresource, std::set<GroupKind> generation,
               std::unique_ptr<internal::ObjectStore> store, std::vector<Interceptor> interceptors = {});
    ~FakeClient() override;

    Task<ctrl::Status> GetObject(Context ctx, ObjectKey key, Object& object, client::ObjectForm form,
                                 client::GetOptions options) override;
    Task<ctrl::Status> ListObjects(Context ctx, ObjectList& list, client::ObjectForm form,
                                   client::ListOptions options) override;

    Task<ctrl::Status> CreateObject(Context ctx, Object& object, client::ObjectForm form,
                                    client::CreateOptions options) override;
    Task<ctrl::Status> UpdateObject(Context ctx, Object& object, client::ObjectForm form,
                                    client::UpdateOptions options) override;
    Task<ctrl::Status> PatchObject(Context ctx, Object& object, client::ObjectForm form, client::Patch patch,
                                   client::PatchOptions options) override;
    Task<ctrl::Status> DeleteObject(Context ctx, Object& object, client::ObjectForm form,
                                    client::DeleteOptions options) override;
    Task<ctrl::Status> DeleteAllOfObjects(Context ctx, Object& object, client::ObjectForm form,
                                          client::DeleteAllOfOptions options) override;

    Task<ctrl::Status> GetSubResource(Context ctx, std::string sub_resource, const Object& object,
                                      client::ObjectForm form, Object& sub_resource_object,
                                      client::SubResourceGetOptions options) override;
    Task<ctrl::Status> CreateSubResource(Context ctx, std::string sub_resource, const Object& object,
                                         client::ObjectForm form, Object& sub_resource_object,
                                         client::SubResourceCreateOptions options) override;
    Task<ctrl::Status> UpdateSubResource(Context ctx, std::string sub_resource, Object& object, client::ObjectForm form,
                                         Object* body, client::SubResourceUpdateOptions options) override;
    Task<ctrl::Status> PatchSubResource(Context ctx, std::string sub_resource, Object& object, client::ObjectForm form,
                                        Object* body, client::Patch patch,
                                        client::SubResourcePatchOptions options) override;

    const scheme::Scheme& Scheme() const override { return *scheme_; }
    discovery::RESTMapper& RESTMapper() override { return *mapper_; }
    StatusOr<GroupVersionKind> GroupVersionKindFor(const Object& object) const override;
    Task<StatusOr<bool>> IsObjectNamespaced(Context ctx, const Object& object) override;

  private:
    // The object's kind (checked against the scheme for the typed form) and its store rules.
    Task<StatusOr<internal::KindRules>> RulesFor(Context ctx, const Object& object, client::ObjectForm form);
    Task<StatusOr<internal::KindRules>> RulesForKind(Context ctx, const GroupVersionKind& gvk);
    // The first error an interceptor returns for the call, or OK.
    ctrl::Status Intercept(std::string_view verb, std::string_view sub_resource, const GroupVersionKind& gvk,
                           const ObjectKey& key) const;

    std::shared_ptr<const scheme::Scheme> scheme_;
    std::shared_ptr<discovery::RESTMapper> mapper_;
    std::set<GroupKind> status_subresource_;
    std::set<GroupKind> generation_;
    std::unique_ptr<internal::ObjectStore> store_;
    std::vector<Interceptor> interceptors_;
};

}  // namespace ctrl::fake
