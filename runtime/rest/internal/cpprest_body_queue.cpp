#include "ctrl/rest/internal/cpprest_body_queue.hpp"

#include <algorithm>
#include <cstring>
#include <utility>

namespace ctrl::rest::internal::cpprest {
namespace {

// Compact the buffer once this much has been read from its front.
constexpr std::size_t kCompactAfter = std::size_t{64} * 1024;

}  // namespace

pplx::task<std::size_t> BodyQueue::Push(const uint8_t* data, std::size_t size) {
    std::function<void()> wake;
    std::optional<pplx::task<std::size_t>> pending;
    {
        std::lock_guard lock(mu_);
        if (abandoned_ || ended_)
            return pplx::task_from_result(size);
        buffer_.append(reinterpret_cast<const char*>(data), size);
        wake = std::exchange(wake_, nullptr);
        if (UnreadLocked() > limit_) {
            blocked_.emplace();
            blocked_size_ = size;
            pending.emplace(pplx::create_task(*blocked_));
        }
    }
    if (wake)
        wake();
    return pending ? *pending : pplx::task_from_result(size);
}

void BodyQueue::Finish(Status status) {
    std::function<void()> wake;
    {
        std::lock_guard lock(mu_);
        if (ended_)
            return;
        ended_ = true;
        status_ = std::move(status);
        wake = std::exchange(wake_, nullptr);
    }
    if (wake)
        wake();
}

BodyQueue::Read BodyQueue::TryRead(char* data, std::size_t size) {
    Read read;
    std::optional<pplx::task_completion_event<std::size_t>> unblock;
    std::size_t unblock_size = 0;
    {
        std::lock_guard lock(mu_);
        const std::size_t n = std::min(size, UnreadLocked());
        if (n > 0) {
            std::memcpy(data, buffer_.data() + read_pos_, n);
            read_pos_ += n;
            if (read_pos_ == buffer_.size()) {
                buffer_.clear();
                read_pos_ = 0;
            } else if (read_pos_ >= kCompactAfter && read_pos_ * 2 >= buffer_.size()) {
                buffer_.erase(0, read_pos_);
                read_pos_ = 0;
            }
            read.bytes = n;
        } else if (ended_) {
            read.ended = true;
            read.status = status_;
        }
        if (blocked_ && UnreadLocked() <= limit_ / 2) {
            unblock = std::move(blocked_);
            blocked_.reset();
            unblock_size = blocked_size_;
        }
    }
    if (unblock)
        unblock->set(unblock_size);
    return read;
}

void BodyQueue::NotifyOnData(std::function<void()> wake) {
    {
        std::lock_guard lock(mu_);
        if (UnreadLocked() == 0 && !ended_) {
            wake_ = std::move(wake);
            return;
        }
    }
    wake();
}

std::string BodyQueue::TakeAll() {
    std::lock_guard lock(mu_);
    std::string body = buffer_.substr(read_pos_);
    buffer_.clear();
    read_pos_ = 0;
    return body;
}

void BodyQueue::Abandon(Status reason) {
    std::function<void()> wake;
    std::optional<pplx::task_completion_event<std::size_t>> unblock;
    std::size_t unblock_size = 0;
    {
        std::lock_guard lock(mu_);
        abandoned_ = true;
        buffer_.clear();
        read_pos_ = 0;
        if (!ended_) {
            ended_ = true;
            status_ = std::move(reason);
        }
        if (blocked_) {
            unblock = std::move(blocked_);
            blocked_.reset();
            unblock_size = blocked_size_;
        }
        wake = std::exchange(wake_, nullptr);
    }
    if (unblock)
        unblock->set(unblock_size);
    if (wake)
        wake();
}

}  // namespace ctrl::rest::internal::cpprest
