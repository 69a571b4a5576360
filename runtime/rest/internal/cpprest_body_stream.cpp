#include "runtime/rest/internal/cpprest_body_stream.hpp"

#include <utility>

#include "runtime/rest/internal/cpprest_wait.hpp"

namespace ctrl::rest::internal::cpprest {
namespace {

// Made by a function, not as a lambda in the co_await expression: GCC 12 destroys a capturing
// lambda (or a braced aggregate) built inside a co_await expression twice.
std::function<void(Resume<WaitEnd>)> WakeOnData(std::shared_ptr<BodyQueue> queue) {
    return [queue](Resume<WaitEnd> resume) { queue->NotifyOnData([resume] { resume(WaitEnd::kDone); }); };
}

}  // namespace

CppRestBodyStream::CppRestBodyStream(boost::asio::any_io_executor executor, int status, std::vector<Header> headers,
                                     std::shared_ptr<BodyQueue> queue, std::function<void()> cancel,
                                     std::string operation)
    : executor_(std::move(executor)),
      status_(status),
      headers_(std::move(headers)),
      queue_(std::move(queue)),
      cancel_(std::move(cancel)),
      operation_(std::move(operation)) {}

CppRestBodyStream::~CppRestBodyStream() {
    Close();
}

Task<StatusOr<std::size_t>> CppRestBodyStream::ReadSome(char* data, std::size_t size, Context ctx) {
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
        const WaitEnd end = co_await WaitUntil(executor_, WakeOnData(queue_), ctx, ctx.Deadline());
        if (end != WaitEnd::kDone) {
            Status err = ctx.Err();
            if (err.Ok())
                err = TimeoutError("context deadline exceeded");
            co_return err.Annotate("reading the body of " + operation_);
        }
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
