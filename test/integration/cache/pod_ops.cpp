#include "test/integration/cache/pod_ops.hpp"

#include <atomic>
#include <cstdio>
#include <memory>
#include <mutex>
#include <set>
#include <utility>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/this_coro.hpp>

#include "ctrl/core/object.hpp"
#include "ctrl/core/object_list.hpp"
#include "ctrl/core/sleep.hpp"
#include "ctrl/rest/request_builder.hpp"
#include "test/support/realistic_pod.hpp"

namespace ctrl::cache::test {

namespace {

const GroupVersion kCoreV1{"", "v1"};

Task<Status> Send(Context ctx, rest::RestClient& client, StatusOr<rest::HttpRequest> request) {
    if (!request.Ok())
        co_return request.GetStatus();
    StatusOr<rest::HttpResponse> response = co_await client.Do(ctx, std::move(request).Value());
    co_return response.GetStatus();
}

}  // namespace

std::string PodName(const std::string& prefix, std::size_t index) {
    char digits[16];
    std::snprintf(digits, sizeof digits, "%04zu", index);
    return prefix + digits;
}

std::string CreatablePod(const std::string& namespace_name, const std::string& name, std::size_t index) {
    Object pod = std::move(Object::Parse(testing::RealisticPodJson(index, 1, 0))).Value();
    for (std::string_view field :
         {"uid", "resourceVersion", "creationTimestamp", "managedFields", "generateName", "ownerReferences"}) {
        (void)pod.RemoveNestedField({"metadata", field});
    }
    (void)pod.RemoveNestedField({"status"});
    (void)pod.RemoveNestedField({"spec", "nodeName"});
    pod.SetName(name);
    pod.SetNamespace(namespace_name);
    return pod.ToJson();
}

Task<Status> CreateNamespace(rest::RestClient& client, std::string name, Context ctx) {
    const std::string body = R"({"apiVersion":"v1","kind":"Namespace","metadata":{"name":")" + name + R"("}})";
    StatusOr<rest::HttpRequest> request =
        rest::RequestBuilder("POST").GroupVersion(kCoreV1).Resource("namespaces").Body(body).Build();
    co_return co_await Send(ctx, client, std::move(request));
}

Task<Status> CreatePod(rest::RestClient& client, std::string namespace_name, std::string name, std::size_t index,
                       Context ctx) {
    std::string body = CreatablePod(namespace_name, name, index);
    StatusOr<rest::HttpRequest> request = rest::RequestBuilder("POST")
                                              .GroupVersion(kCoreV1)
                                              .Namespace(namespace_name)
                                              .Resource("pods")
                                              .Body(std::move(body))
                                              .Build();
    co_return co_await Send(ctx, client, std::move(request));
}

Task<Status> LabelPod(rest::RestClient& client, std::string namespace_name, std::string name, std::string key,
                      std::string value, Context ctx) {
    std::string body = R"({"metadata":{"labels":{")" + key + R"(":")" + value + R"("}}})";
    StatusOr<rest::HttpRequest> request = rest::RequestBuilder("PATCH")
                                              .GroupVersion(kCoreV1)
                                              .Namespace(namespace_name)
                                              .Resource("pods")
                                              .Name(name)
                                              .Body(std::move(body), "application/merge-patch+json")
                                              .Build();
    co_return co_await Send(ctx, client, std::move(request));
}

Task<Status> DeletePod(rest::RestClient& client, std::string namespace_name, std::string name, Context ctx) {
    rest::WriteParams params;
    params.grace_period_seconds = 0;
    StatusOr<rest::HttpRequest> request = rest::RequestBuilder("DELETE")
                                              .GroupVersion(kCoreV1)
                                              .Namespace(namespace_name)
                                              .Resource("pods")
                                              .Name(name)
                                              .Write(params)
                                              .Build();
    co_return co_await Send(ctx, client, std::move(request));
}

Task<StatusOr<std::vector<Object>>> ListPods(rest::RestClient& client, std::string namespace_name, Context ctx) {
    std::vector<Object> pods;
    std::string continue_token;
    do {
        rest::ListParams params;
        params.limit = 500;
        params.continue_token = continue_token;
        StatusOr<rest::HttpRequest> request = rest::RequestBuilder("GET")
                                                  .GroupVersion(kCoreV1)
                                                  .Namespace(namespace_name)
                                                  .Resource("pods")
                                                  .List(params)
                                                  .Build();
        if (!request.Ok())
            co_return request.GetStatus();
        StatusOr<rest::HttpResponse> response = co_await client.Do(ctx, std::move(request).Value());
        if (!response.Ok())
            co_return response.GetStatus();
        StatusOr<ObjectList> list = ObjectList::Parse(response->body);
        if (!list.Ok())
            co_return list.GetStatus();
        (void)list->FillItemTypeMeta();
        for (Object& pod : list->Items()) {
            pod.RemoveManagedFields();
            pods.push_back(std::move(pod));
        }
        continue_token = std::string(list->Continue());
    } while (!continue_token.empty());
    co_return pods;
}

std::string CompareStore(const Store& store, const std::vector<Object>& objects) {
    std::string differences;
    int shown = 0;
    auto note = [&](const std::string& line) {
        if (shown++ < 10)
            differences += (differences.empty() ? "" : "; ") + line;
    };
    std::set<std::string> keys;
    for (const Object& object : objects) {
        const std::string key = std::string(object.Namespace()) + "/" + std::string(object.Name());
        keys.insert(key);
        const CachedObject held = store.Get(object.Namespace(), object.Name());
        if (!held) {
            note("missing " + key);
        } else if (held.ResourceVersion() != object.ResourceVersion()) {
            note("stale " + key + ": rv " + held.ResourceVersion() + " in the cache, " +
                 std::string(object.ResourceVersion()) + " on the server");
        } else if (held.Copy() != object) {
            note("different " + key + " at rv " + held.ResourceVersion());
        }
    }
    for (const std::string& key : store.ListKeys()) {
        if (!keys.contains(key))
            note("extra " + key);
    }
    if (shown > 10)
        differences += "; ... " + std::to_string(shown - 10) + " more";
    return differences;
}

namespace {

struct CreateState {
    std::atomic<std::size_t> next{0};
    std::atomic<std::size_t> finished{0};
    std::mutex mu;
    Status first_error;
};

Task<void> CreateWorker(rest::RestClient& client, std::string namespace_name, std::string prefix, std::size_t count,
                        std::shared_ptr<CreateState> state, Context ctx) {
    for (std::size_t i = state->next++; i < count; i = state->next++) {
        const std::string name = PodName(prefix, i);  // named: GCC 12 mishandles temporaries inside co_await
        Status created = co_await CreatePod(client, namespace_name, name, i, ctx);
        if (!created.Ok()) {
            std::lock_guard lock(state->mu);
            if (state->first_error.Ok())
                state->first_error = created.Annotate("creating " + name);
            break;
        }
    }
    ++state->finished;
}

}  // namespace

Task<Status> CreatePods(rest::RestClient& client, std::string namespace_name, std::string name_prefix,
                        std::size_t count, std::size_t parallel, Context ctx) {
    auto state = std::make_shared<CreateState>();
    auto executor = co_await boost::asio::this_coro::executor;
    for (std::size_t w = 0; w < parallel; ++w) {
        boost::asio::co_spawn(executor, CreateWorker(client, namespace_name, name_prefix, count, state, ctx),
                              boost::asio::detached);
    }
    // Waits on a timer, so the loop keeps running the workers.
    while (state->finished.load() < parallel) {
        const auto poll = std::chrono::milliseconds(5);
        Status slept = co_await SleepFor(ctx, poll);
        if (!slept.Ok())
            co_return slept;
    }
    std::lock_guard lock(state->mu);
    co_return state->first_error;
}

}  // namespace ctrl::cache::test
