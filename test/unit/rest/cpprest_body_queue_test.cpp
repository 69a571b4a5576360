// The queue between cpprestsdk's thread pool and a reading coroutine: bounded, with backpressure
// on the producer, wake-ups for the reader, and a clean or failed end.

#include "ctrl/rest/internal/cpprest_body_queue.hpp"

#include <gtest/gtest.h>

#include <string>

namespace ctrl::rest::internal::cpprest {
namespace {

pplx::task<std::size_t> Push(BodyQueue& queue, const std::string& data) {
    return queue.Push(reinterpret_cast<const uint8_t*>(data.data()), data.size());
}

std::string Read(BodyQueue& queue, std::size_t size) {
    std::string out(size, '\0');
    const BodyQueue::Read read = queue.TryRead(out.data(), size);
    out.resize(read.bytes);
    return out;
}

TEST(BodyQueueTest, PushesBelowTheLimitCompleteAtOnce) {
    BodyQueue queue(10);
    pplx::task<std::size_t> pushed = Push(queue, "hello");
    ASSERT_TRUE(pushed.is_done());
    EXPECT_EQ(pushed.get(), 5u);
    EXPECT_EQ(Read(queue, 3), "hel");
    EXPECT_EQ(Read(queue, 100), "lo");
    const BodyQueue::Read empty = queue.TryRead(nullptr, 0);
    EXPECT_EQ(empty.bytes, 0u);
    EXPECT_FALSE(empty.ended);
}

TEST(BodyQueueTest, APushOverTheLimitWaitsUntilTheReaderDrainsHalf) {
    BodyQueue queue(10);
    EXPECT_TRUE(Push(queue, "12345678").is_done());
    pplx::task<std::size_t> blocked = Push(queue, "abcdefgh");  // 16 unread > 10
    EXPECT_FALSE(blocked.is_done());
    EXPECT_EQ(Read(queue, 4), "1234");  // 12 unread: still above half
    EXPECT_FALSE(blocked.is_done());
    EXPECT_EQ(Read(queue, 8), "5678abcd");  // 4 unread: room again
    ASSERT_TRUE(blocked.is_done());
    EXPECT_EQ(blocked.get(), 8u);
    EXPECT_EQ(Read(queue, 100), "efgh");
}

TEST(BodyQueueTest, TheReaderIsWokenOnceByDataOrTheEnd) {
    BodyQueue queue(BodyQueue::kUnbounded);
    int wakes = 0;
    queue.NotifyOnData([&] { ++wakes; });
    EXPECT_EQ(wakes, 0);
    Push(queue, "x");
    EXPECT_EQ(wakes, 1);
    Push(queue, "y");
    EXPECT_EQ(wakes, 1) << "a registration wakes once";
    queue.NotifyOnData([&] { ++wakes; });
    EXPECT_EQ(wakes, 2) << "bytes are buffered: at once";
    EXPECT_EQ(Read(queue, 10), "xy");
    queue.NotifyOnData([&] { ++wakes; });
    queue.Finish(OkStatus());
    EXPECT_EQ(wakes, 3);
}

TEST(BodyQueueTest, BufferedBytesAreReadBeforeTheEnd) {
    BodyQueue queue(BodyQueue::kUnbounded);
    Push(queue, "ab");
    queue.Finish(UnavailableError("connection lost"));
    queue.Finish(OkStatus());  // only the first end counts
    EXPECT_EQ(Read(queue, 10), "ab");
    char byte;
    const BodyQueue::Read end = queue.TryRead(&byte, 1);
    EXPECT_TRUE(end.ended);
    EXPECT_TRUE(IsUnavailable(end.status)) << end.status;
}

TEST(BodyQueueTest, AbandonUnblocksTheProducerAndEndsTheBody) {
    BodyQueue queue(4);
    pplx::task<std::size_t> blocked = Push(queue, "123456");
    EXPECT_FALSE(blocked.is_done());
    int wakes = 0;
    queue.Abandon(CancelledError("closed"));
    EXPECT_TRUE(blocked.is_done());
    queue.NotifyOnData([&] { ++wakes; });
    EXPECT_EQ(wakes, 1);
    EXPECT_TRUE(Push(queue, "more").is_done());
    char byte;
    const BodyQueue::Read end = queue.TryRead(&byte, 1);
    EXPECT_EQ(end.bytes, 0u);
    EXPECT_TRUE(end.ended);
    EXPECT_TRUE(IsCancelled(end.status)) << end.status;
}

TEST(BodyQueueTest, TakeAllReturnsWhatIsUnread) {
    BodyQueue queue(BodyQueue::kUnbounded);
    Push(queue, "hello ");
    Push(queue, "world");
    EXPECT_EQ(Read(queue, 2), "he");
    queue.Finish(OkStatus());
    EXPECT_EQ(queue.TakeAll(), "llo world");
}

}  // namespace
}  // namespace ctrl::rest::internal::cpprest
