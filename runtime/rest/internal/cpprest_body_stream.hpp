#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "ctrl/rest/internal/cpprest_body_queue.hpp"
#include "ctrl/rest/transport.hpp"

namespace ctrl::rest::internal::cpprest {

// The body of a cpprestsdk response opened with Open (a watch), read as it arrives from a
// BodyQueue that cpprestsdk fills. ReadSome copies what is buffered, or waits on the caller's
// executor for more. A cancelled or expired Context ends that ReadSome only; the stream stays
// usable. Close cancels the exchange (cpprestsdk closes the connection) and wakes a waiting read.
class CppRestBodyStream final : public BodyStream {
  public:
    // `cancel` aborts the cpprestsdk exchange; `operation` is "GET https://host/path", for messages.
    CppRestBodyStream(int status, std::vector<Header> headers, std::shared_ptr<BodyQueue> queue,
                      std::function<void()> cancel, std::string operation);
    ~CppRestBodyStream() override;

    int StatusCode() const override { return status_; }
    const std::vector<Header>& Headers() const override { return headers_; }
    Task<StatusOr<std::size_t>> ReadSome(Context ctx, char* data, std::size_t size) override;
    void Close() override;

  private:
    const int status_;
    const std::vector<Header> headers_;
    const std::shared_ptr<BodyQueue> queue_;
    std::function<void()> cancel_;
    const std::string operation_;
    std::atomic<bool> closed_ = false;
};

}  // namespace ctrl::rest::internal::cpprest
