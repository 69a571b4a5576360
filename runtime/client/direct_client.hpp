#pragma once

#include <memory>
#include <string>

#include "ctrl/client/client.hpp"
#include "ctrl/client/internal/request_target.hpp"
#include "ctrl/rest/rest_client.hpp"

namespace ctrl::client {

// The client that sends every call to the API server (what client.New returns in Go): resolves
// the object's kind to a resource with the RESTMapper (a cached mapping costs no Task), checks
// what it can before any request (Invalid for a missing name or namespace), sends JSON, takes
// the server's answer into the object, and tells the mapper to forget a group version whose
// resource path answered 404. Made by New / NewForRestClient.
class DirectClient final : public Client {
  public:
    DirectClient(std::shared_ptr<rest::RestClient> rest, std::shared_ptr<const scheme::Scheme> scheme,
                 std::shared_ptr<discovery::RESTMapper> mapper, Options options);

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

    const scheme::Scheme& Scheme() const override { return *scheme_; }
    discovery::RESTMapper& RESTMapper() override { return *mapper_; }
    StatusOr<GroupVersionKind> GroupVersionKindFor(const Object& object) const override;
    Task<StatusOr<bool>> IsObjectNamespaced(Context ctx, const Object& object) override;

  private:
    // The mapping of gvk: the mapper's cache, else a lookup (NoMatch when not served).
    Task<StatusOr<discovery::RESTMapping>> MappingFor(Context ctx, const GroupVersionKind& gvk);
    // The target of a call on object (named unless creating).
    Task<StatusOr<internal::RequestTarget>> NamedTarget(Context ctx, const Object& object, const GroupVersionKind& gvk,
                                                        std::string_view verb);
    // Builds and sends request; a 404 of the resource path makes the mapper forget mapping's group
    // version. Arguments are lvalues the caller keeps until the Task ends (GCC 12: no prvalue
    // arguments in a co_await expression).
    Task<StatusOr<rest::HttpResponse>> Send(Context ctx, const rest::RequestBuilder& request,
                                            const discovery::RESTMapping& mapping);
    // Whether options_.write_observer is told of a write (there is one and the write is not a dry run).
    bool ObservesWrite(bool dry_run) const;
    // Tells options_.write_observer of the write of key's object, with the server's answer (null: a
    // Status, no version).
    void Report(const GroupVersionKind& gvk, const Object& key, const Object* answer, bool deleted) const;
    // Tells options_.write_observer of an accepted write whose answer is object (not for a dry run).
    void ReportWrite(const GroupVersionKind& gvk, const Object& object, const WriteOptions& options) const;
    // The same for a delete: the answer's body is the object as deleted (or marked), or a Status.
    void ReportDelete(const GroupVersionKind& gvk, const Object& object, std::string_view answer,
                      const DeleteOptions& options) const;
    // The write parameters of options with the client's defaults filled in.
    rest::WriteParams WriteParamsFor(const WriteOptions& options) const;
    // PATCH target/sub with patch computed from source; the answer goes into into (a subresource
    // answer of another kind than the object's only when into is a body the caller passed).
    Task<ctrl::Status> SendPatch(Context ctx, const internal::RequestTarget& target, std::string_view sub_resource,
                                 const Object& source, Object& into, bool into_is_body, ObjectForm form,
                                 const client::Patch& patch, const PatchOptions& options);

    std::shared_ptr<rest::RestClient> rest_;
    std::shared_ptr<const scheme::Scheme> scheme_;
    std::shared_ptr<discovery::RESTMapper> mapper_;
    Options options_;
};

}  // namespace ctrl::client
