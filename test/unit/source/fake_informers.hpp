#pragma once

// A cache::Informers for unit tests of sources: real cache::Informers over a scripted transport
// (no sockets). The transport answers every list with the pods it holds (or 403 while forbidden)
// and every watch with a stream fed by PushWatchEvent; GetInformers answers NoMatch while the kind
// is not served.

#include <algorithm>
#include <atomic>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/this_coro.hpp>

#include "ctrl/cache/informer.hpp"
#include "ctrl/cache/informers.hpp"
#include "ctrl/core/notification.hpp"
#include "ctrl/rest/rest_client.hpp"
#include "ctrl/rest/transport.hpp"

namespace ctrl::source::test {

// What the scripted server holds: pods (as JSON objects) and whether lists are forbidden.
class FakePodServer {
  public:
    void SetPods(std::vector<std::string> names) {
        std::lock_guard lock(mu_);
        pods_ = std::move(names);
    }
    void SetForbidden(bool forbidden) { forbidden_ = forbidden; }
    bool Forbidden() const { return forbidden_; }
    int Lists() const { return lists_; }

    static std::string PodJson(const std::string& name, int resource_version) {
        return R"({"apiVersion":"v1","kind":"Pod","metadata":{"namespace":"ns","name":")" + name +
               R"(","resourceVersion":")" + std::to_string(resource_version) + R"("}})";
    }
    std::string ListBody() {
        ++lists_;
        std::lock_guard lock(mu_);
        std::string items;
        for (const std::string& name : pods_)
            items += (items.empty() ? "" : ",") + PodJson(name, 1);
        return R"({"apiVersion":"v1","kind":"PodList","metadata":{"resourceVersion":"1"},"items":[)" + items + "]}";
    }

    // What a watch-list sends first: every pod as ADDED, then the bookmark that ends them.
    std::string InitialEvents() {
        ++lists_;
        std::lock_guard lock(mu_);
        std::string lines;
        for (const std::string& name : pods_)
            lines += R"({"type":"ADDED","object":)" + PodJson(name, 1) + "}\n";
        return lines + R"({"type":"BOOKMARK","object":{"apiVersion":"v1","kind":"Pod","metadata":)"
                       R"({"resourceVersion":"1","annotations":{"k8s.io/initial-events-end":"true"}}}})"
                       "\n";
    }

    // Sends one watch event ("ADDED", "MODIFIED", "DELETED") to every open watch.
    void PushWatchEvent(const std::string& type, const std::string& object_json) {
        const std::string line = R"({"type":")" + type + R"(","object":)" + object_json + "}\n";
        std::vector<std::shared_ptr<Feed>> feeds;
        {
            std::lock_guard lock(mu_);
            feeds = feeds_;
        }
        for (const auto& feed : feeds)
            feed->Push(line);
    }
    int OpenWatches() const {
        std::lock_guard lock(mu_);
        return static_cast<int>(feeds_.size());
    }

    // The bytes of one watch, as they arrive.
    struct Feed {
        std::mutex mu;
        std::string data;
        std::shared_ptr<Notification> wake;
        void Push(const std::string& line) {
            std::shared_ptr<Notification> to_wake;
            {
                std::lock_guard lock(mu);
                data += line;
                to_wake = std::move(wake);
            }
            if (to_wake)
                to_wake->Notify();
        }
    };
    std::shared_ptr<Feed> OpenFeed() {
        auto feed = std::make_shared<Feed>();
        std::lock_guard lock(mu_);
        feeds_.push_back(feed);
        return feed;
    }

  private:
    mutable std::mutex mu_;
    std::vector<std::string> pods_;
    std::vector<std::shared_ptr<Feed>> feeds_;
    std::atomic<bool> forbidden_{false};
    std::atomic<int> lists_{0};
};

class FakeWatchStream final : public rest::BodyStream {
  public:
    explicit FakeWatchStream(std::shared_ptr<FakePodServer::Feed> feed) : feed_(std::move(feed)) {
        headers_.push_back({"Content-Type", "application/json"});
    }
    int StatusCode() const override { return 200; }
    const std::vector<rest::Header>& Headers() const override { return headers_; }
    Task<StatusOr<std::size_t>> ReadSome(Context ctx, char* data, std::size_t size) override {
        for (;;) {
            std::shared_ptr<Notification> wait;
            {
                std::lock_guard lock(feed_->mu);
                if (!feed_->data.empty()) {
                    const std::size_t n = std::min(size, feed_->data.size());
                    std::copy_n(feed_->data.begin(), n, data);
                    feed_->data.erase(0, n);
                    co_return n;
                }
                feed_->wake = std::make_shared<Notification>();
                wait = feed_->wake;
            }
            if (Status woke = co_await wait->Wait(ctx); !woke.Ok())
                co_return woke;
        }
    }
    void Close() override {}

  private:
    std::shared_ptr<FakePodServer::Feed> feed_;
    std::vector<rest::Header> headers_;
};

class FakePodTransport final : public rest::Transport {
  public:
    explicit FakePodTransport(std::shared_ptr<FakePodServer> server) : server_(std::move(server)) {}

    Task<StatusOr<rest::HttpResponse>> Send(Context, rest::HttpRequest) override {
        rest::HttpResponse response;
        response.headers.push_back({"Content-Type", "application/json"});
        if (server_->Forbidden()) {
            response.status = 403;
            response.body = R"({"kind":"Status","apiVersion":"v1","status":"Failure","reason":"Forbidden","code":403,)"
                            R"("message":"pods is forbidden: User \"someone\" cannot list resource \"pods\""})";
            co_return response;
        }
        response.status = 200;
        response.body = server_->ListBody();
        co_return response;
    }
    Task<StatusOr<std::unique_ptr<rest::BodyStream>>> Open(Context, rest::HttpRequest request) override {
        if (server_->Forbidden())
            co_return ForbiddenError(R"(pods is forbidden: User "someone" cannot watch resource "pods")");
        std::shared_ptr<FakePodServer::Feed> feed = server_->OpenFeed();
        // A watch-list (as the API server streams it): every pod as ADDED, then the end bookmark.
        if (request.target.find("sendInitialEvents=true") != std::string::npos)
            feed->Push(server_->InitialEvents());
        std::unique_ptr<rest::BodyStream> stream = std::make_unique<FakeWatchStream>(std::move(feed));
        co_return stream;
    }

  private:
    std::shared_ptr<FakePodServer> server_;
};

// Informers of pods from a FakePodServer; NoMatch for the first no_match_answers calls, then for
// as long as Serve(false). Informers run on the executor of the GetInformers call that made them,
// until the FakeInformers is stopped (Stop, or destruction).
class FakeInformers final : public cache::Informers {
  public:
    explicit FakeInformers(std::shared_ptr<FakePodServer> server, int no_match_answers = 0)
        : server_(std::move(server)), no_match_answers_(no_match_answers) {
        rest::Config config;
        config.host = "https://fake.invalid";
        client_ =
            std::make_shared<rest::RestClient>(config, std::make_unique<FakePodTransport>(server_), nullptr, registry_);
    }
    ~FakeInformers() override { Stop(); }

    void Stop() { run_ctx_.Cancel(); }
    int Calls() const { return calls_; }

    Task<StatusOr<std::vector<cache::Informer*>>> GetInformers(Context, GroupVersionKind gvk, bool) override {
        if (++calls_ <= no_match_answers_)
            co_return NoMatchError("no matches for kind \"" + gvk.kind + "\" in version \"" + gvk.version + "\"");
        const boost::asio::any_io_executor executor = co_await boost::asio::this_coro::executor;
        std::vector<cache::Informer*> informers;
        std::lock_guard lock(mu_);
        if (!informer_) {
            cache::ListWatchTarget target;
            target.resource = {"", "v1", "pods"};
            target.namespaced = true;
            cache::ReflectorOptions reflector;
            reflector.initial_backoff = std::chrono::milliseconds(20);
            reflector.max_backoff = std::chrono::milliseconds(40);
            informer_ =
                std::make_shared<cache::Informer>(gvk, client_, target, cache::StoreOptions{}, reflector, registry_);
            boost::asio::co_spawn(executor, informer_->Run(run_ctx_), boost::asio::detached);
        }
        informers.push_back(informer_.get());
        co_return informers;
    }
    Task<Status> WaitForCacheSync(Context) override { co_return OkStatus(); }
    Task<Status> IndexField(Context, GroupVersionKind, std::string, cache::FieldExtractor) override {
        co_return OkStatus();
    }
    // Stops the informer; the next GetInformers makes a new one (the stopped one is kept: a
    // source may still hold it).
    Status RemoveInformer(const GroupVersionKind&, bool) override {
        std::lock_guard lock(mu_);
        if (!informer_)
            return NotFoundError("no informer");
        informer_->Stop();
        removed_.push_back(std::move(informer_));
        informer_.reset();
        return OkStatus();
    }

  private:
    metrics::Registry registry_;
    std::shared_ptr<FakePodServer> server_;
    std::shared_ptr<rest::RestClient> client_;
    const int no_match_answers_;
    std::atomic<int> calls_{0};
    std::mutex mu_;
    std::shared_ptr<cache::Informer> informer_;
    std::vector<std::shared_ptr<cache::Informer>> removed_;
    Context run_ctx_ = Context::WithCancel(Context::Background());
};

}  // namespace ctrl::source::test
