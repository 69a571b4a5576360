#pragma once

// A transport that counts the bytes of the bodies it receives (answers and watch streams): what a
// test compares to show how much a cache downloads. Header-only. Thread-safe.

#include <atomic>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "ctrl/core/context.hpp"
#include "ctrl/core/status_or.hpp"
#include "ctrl/core/task.hpp"
#include "ctrl/rest/transport.hpp"

namespace ctrl::testing {

// Counts what a wrapped transport's bodies deliver. Shared by the transport and its streams.
struct ReceivedBytes {
    std::atomic<int64_t> answers{0};  // bodies of plain requests (lists, gets, writes)
    std::atomic<int64_t> streams{0};  // bodies of streamed requests (watches, watch-lists)
    int64_t Total() const { return answers.load() + streams.load(); }
};

// A body stream that adds what it reads to a counter.
class ByteCountingStream final : public rest::BodyStream {
  public:
    ByteCountingStream(std::unique_ptr<rest::BodyStream> inner, std::shared_ptr<ReceivedBytes> counter)
        : inner_(std::move(inner)), counter_(std::move(counter)) {}
    int StatusCode() const override { return inner_->StatusCode(); }
    const std::vector<rest::Header>& Headers() const override { return inner_->Headers(); }
    Task<StatusOr<std::size_t>> ReadSome(Context ctx, char* data, std::size_t size) override {
        StatusOr<std::size_t> read = co_await inner_->ReadSome(std::move(ctx), data, size);
        if (read.Ok())
            counter_->streams += static_cast<int64_t>(*read);
        co_return read;
    }
    void Close() override { inner_->Close(); }

  private:
    std::unique_ptr<rest::BodyStream> inner_;
    std::shared_ptr<ReceivedBytes> counter_;
};

// Forwards to a real transport and counts the body bytes of every answer and stream.
class ByteCountingTransport final : public rest::Transport {
  public:
    ByteCountingTransport(std::unique_ptr<rest::Transport> inner, std::shared_ptr<ReceivedBytes> counter)
        : inner_(std::move(inner)), counter_(std::move(counter)) {}
    Task<StatusOr<rest::HttpResponse>> Send(Context ctx, rest::HttpRequest request) override {
        StatusOr<rest::HttpResponse> response = co_await inner_->Send(std::move(ctx), std::move(request));
        if (response.Ok())
            counter_->answers += static_cast<int64_t>(response->body.size());
        co_return response;
    }
    Task<StatusOr<std::unique_ptr<rest::BodyStream>>> Open(Context ctx, rest::HttpRequest request) override {
        StatusOr<std::unique_ptr<rest::BodyStream>> opened = co_await inner_->Open(std::move(ctx), std::move(request));
        if (!opened.Ok())
            co_return opened;
        co_return std::unique_ptr<rest::BodyStream>(std::make_unique<ByteCountingStream>(std::move(*opened), counter_));
    }

  private:
    std::unique_ptr<rest::Transport> inner_;
    std::shared_ptr<ReceivedBytes> counter_;
};

}  // namespace ctrl::testing
