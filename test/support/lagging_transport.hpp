#pragma once

// A transport that holds back the body of every watch (what a slow or distant watch connection
// does to a cache): each chunk of a watch's body reaches the reader `lag` after it arrived, while
// other requests pass untouched. Header-only.

#include <atomic>
#include <chrono>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/this_coro.hpp>

#include "ctrl/core/context.hpp"
#include "ctrl/core/resume.hpp"
#include "ctrl/core/sleep.hpp"
#include "ctrl/core/status_or.hpp"
#include "ctrl/core/task.hpp"
#include "ctrl/rest/transport.hpp"

namespace ctrl::testing {

// A watch's body, read ahead by a pump on the executor and handed out `lag` after each chunk came.
class LaggingStream final : public rest::BodyStream {
  public:
    LaggingStream(std::unique_ptr<rest::BodyStream> inner, std::chrono::milliseconds lag,
                  const boost::asio::any_io_executor& executor)
        : inner_(std::move(inner)), lag_(lag), shared_(std::make_shared<Shared>()) {
        boost::asio::co_spawn(executor, Pump(inner_, shared_), boost::asio::detached);
    }
    ~LaggingStream() override { Close(); }

    int StatusCode() const override { return inner_->StatusCode(); }
    const std::vector<rest::Header>& Headers() const override { return inner_->Headers(); }

    Task<StatusOr<std::size_t>> ReadSome(Context ctx, char* data, std::size_t size) override {
        std::function<void(Resume<Status>)> enlist = [this](Resume<Status> resume) {
            {
                std::lock_guard lock(shared_->mu);
                if (shared_->chunks.empty() && !shared_->ended) {
                    shared_->waiter = std::move(resume);
                    return;
                }
            }
            resume(OkStatus());
        };
        CTRL_CO_RETURN_IF_ERROR(co_await Suspend<Status>(ctx, std::move(enlist)));
        std::chrono::steady_clock::time_point due;
        {
            std::lock_guard lock(shared_->mu);
            if (shared_->chunks.empty())
                co_return shared_->end;
            due = shared_->chunks.front().first + lag_;
        }
        CTRL_CO_RETURN_IF_ERROR(co_await SleepUntil(ctx, due));
        std::lock_guard lock(shared_->mu);
        std::string& chunk = shared_->chunks.front().second;
        const std::size_t n = std::min(size, chunk.size());
        chunk.copy(data, n);
        chunk.erase(0, n);
        if (chunk.empty())
            shared_->chunks.pop_front();
        co_return n;
    }
    void Close() override { shared_->stop.Cancel(CancelledError("the lagging stream was closed")); }

  private:
    struct Shared {
        std::mutex mu;
        std::deque<std::pair<std::chrono::steady_clock::time_point, std::string>> chunks;
        bool ended = false;
        StatusOr<std::size_t> end = std::size_t{0};  // what a read past the last chunk answers
        Resume<Status> waiter;
        Context stop = Context::WithCancel(Context::Background());
    };

    static Task<void> Pump(std::shared_ptr<rest::BodyStream> inner, std::shared_ptr<Shared> shared) {
        std::vector<char> buffer(64 * 1024);
        for (;;) {
            StatusOr<std::size_t> read = co_await inner->ReadSome(shared->stop, buffer.data(), buffer.size());
            Resume<Status> waiter;
            {
                std::lock_guard lock(shared->mu);
                if (!read.Ok() || *read == 0) {
                    shared->ended = true;
                    shared->end = std::move(read);
                } else {
                    shared->chunks.emplace_back(std::chrono::steady_clock::now(), std::string(buffer.data(), *read));
                }
                waiter = std::move(shared->waiter);
                shared->waiter = nullptr;
            }
            if (waiter)
                waiter(OkStatus());
            std::lock_guard lock(shared->mu);
            if (shared->ended)
                break;
        }
        inner->Close();
    }

    std::shared_ptr<rest::BodyStream> inner_;
    const std::chrono::milliseconds lag_;
    std::shared_ptr<Shared> shared_;
};

// Forwards to a real transport; the body of every watch (a request with watch=true) lags by
// Lag(), set at any time (a watch opened while it is 0 does not lag).
class LaggingTransport final : public rest::Transport {
  public:
    explicit LaggingTransport(std::unique_ptr<rest::Transport> inner) : inner_(std::move(inner)) {}

    void SetLag(std::chrono::milliseconds lag) { lag_ms_.store(lag.count()); }
    std::chrono::milliseconds Lag() const { return std::chrono::milliseconds(lag_ms_.load()); }

    Task<StatusOr<rest::HttpResponse>> Send(Context ctx, rest::HttpRequest request) override {
        co_return co_await inner_->Send(std::move(ctx), std::move(request));
    }
    Task<StatusOr<std::unique_ptr<rest::BodyStream>>> Open(Context ctx, rest::HttpRequest request) override {
        const bool watch = request.target.find("watch=true") != std::string::npos;
        StatusOr<std::unique_ptr<rest::BodyStream>> opened = co_await inner_->Open(std::move(ctx), std::move(request));
        if (!opened.Ok() || !watch || Lag().count() == 0)
            co_return opened;
        auto executor = co_await boost::asio::this_coro::executor;
        co_return std::unique_ptr<rest::BodyStream>(
            std::make_unique<LaggingStream>(std::move(*opened), Lag(), executor));
    }

  private:
    std::unique_ptr<rest::Transport> inner_;
    std::atomic<int64_t> lag_ms_{0};
};

}  // namespace ctrl::testing
