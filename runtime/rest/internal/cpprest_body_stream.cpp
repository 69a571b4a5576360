#include "ctrl/rest/internal/cpprest_body_stream.hpp"

#include <utility>

#include "ctrl/core/notification.hpp"

namespace ctrl::rest::internal::cpprest {

CppRestBodyStream::CppRestBodyStream(int status, std::vector<Header> headers, std::shared_ptr<BodyQueue> queue,
                                     std::function<void()> cancel, std::string operation)
    : status_(status),
      headers_(std::move(headers)),
      queue_(std::move(queue)),
      cancel_(std::move(cancel)),
      operation_(std::move(operation)) {}

CppRestBodyStream::~CppRestBodyStream() {
    Close();
}

Task<StatusOr<std::size_t>> CppRestBodyStream::ReadSome(Context ctx, char* data, std::size_t size) {
    if (size == 0)
        co_return std::size_t{0};
    while (true) {
        const BodyQueue::Read read = queue_->TryRead(data, size);
        if (read.bytes > 0)
            co_return read.bytes;
        if (read.ended) {
            if (read.status.Ok())
                co_return std::size_t{0};
            co_return read.status;
        }
        if (Status err = ctx.Err(); !err.Ok())
            co_return err.Annotate("reading the body of " + operation_);
        auto data_arrived = std::make_shared<Notification>();
        queue_->NotifyOnData([data_arrived] { data_arrived->Notify(); });
        if (Status waited = co_await data_arrived->Wait(ctx); !waited.Ok())
            co_return waited.Annotate("reading the body of " + operation_);
    }
}

void CppRestBodyStream::Close() {
    if (closed_.exchange(true))
        return;
    queue_->Abandon(CancelledError("reading the body of " + operation_ + ": the stream was closed"));
    if (cancel_)
        cancel_();
}

}  // namespace ctrl::rest::internal::cpprest
