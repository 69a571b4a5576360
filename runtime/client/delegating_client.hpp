#pragma once

#include <memory>
#include <set>

#include "ctrl/client/client.hpp"

namespace ctrl::client {

// Which reads the cache answers (controller-runtime's client.CacheOptions). Every field says its
// default.
struct CacheReadOptions {
    // Kinds always read from the API server (Cache.DisableFor, "uncachedGVKs"). Default: none.
    std::set<GroupVersionKind> uncached{};
    // Whether unstructured objects (plain Object / ObjectList) are read from the cache.
    // Default: false, as controller-runtime's (they go to the server).
    bool unstructured = false;
};

// The client a Manager hands out (controller-runtime's client with a cache): reads come from
// cache unless the kind is uncached or the object is unstructured and unstructured caching is off;
// writes, subresources and everything else go to direct. Both must outlive it.
class DelegatingClient final : public Client {
  public:
    DelegatingClient(Client& direct, Reader& cache, CacheReadOptions options);

    // Whether a read of an object of gvk in form goes to the API server.
    bool BypassesCache(const GroupVersionKind& gvk, ObjectForm form) const;

    Task<ctrl::Status> GetObject(Context ctx, ObjectKey key, Object& object, ObjectForm form,
                                 GetOptions options) override;
    Task<ctrl::Status> ListObjects(Context ctx, ObjectList& list, ObjectForm form, ListOptions options) override;

    Task<ctrl::Status> CreateObject(Context ctx, Object& object, ObjectForm form, CreateOptions options) override;
    Task<ctrl::Status> UpdateObject(Context ctx, Object& object, ObjectForm form, UpdateOptions options) override;
    Task<ctrl::Status> PatchObject(Context ctx, Object& object, ObjectForm form, client::Patch patch,
                                   PatchOptions options) override;
    Task<ctrl::Status> DeleteObject(Context ctx, Object& object, ObjectForm form, DeleteOptions options) override;
    Task<ctrl::Status> DeleteAllOfObjects(Context ctx, Object& object, ObjectForm form,
                                          DeleteAllOfOptions options) override;

    Task<ctrl::Status> GetSubResource(Context ctx, std::string sub_resource, const Object& object, ObjectForm form,
                                      Object& sub_resource_object, SubResourceGetOptions options) override;
    Task<ctrl::Status> CreateSubResource(Context ctx, std::string sub_resource, const Object& object, ObjectForm form,
                                         Object& sub_resource_object, SubResourceCreateOptions options) override;
    Task<ctrl::Status> UpdateSubResource(Context ctx, std::string sub_resource, Object& object, ObjectForm form,
                                         Object* body, SubResourceUpdateOptions options) override;
    Task<ctrl::Status> PatchSubResource(Context ctx, std::string sub_resource, Object& object, ObjectForm form,
                                        Object* body, client::Patch patch, SubResourcePatchOptions options) override;

    const scheme::Scheme& Scheme() const override { return direct_.Scheme(); }
    discovery::RESTMapper& RESTMapper() override { return direct_.RESTMapper(); }
    StatusOr<GroupVersionKind> GroupVersionKindFor(const Object& object) const override {
        return direct_.GroupVersionKindFor(object);
    }
    Task<StatusOr<bool>> IsObjectNamespaced(Context ctx, const Object& object) override {
        return direct_.IsObjectNamespaced(std::move(ctx), object);
    }

  private:
    Client& direct_;
    Reader& cache_;
    const CacheReadOptions options_;
};

}  // namespace ctrl::client
