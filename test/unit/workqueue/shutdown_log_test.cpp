// The work queue's one log line: its shutdown, once, at V(1); nothing per item below V(5).

#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include <boost/asio/io_context.hpp>

#include "ctrl/log/log.hpp"
#include "ctrl/workqueue/queue.hpp"

namespace ctrl::workqueue {
namespace {

TEST(ShutdownLogTest, OneLineAtTheFirstShutdownAndNonePerItem) {
    std::ostringstream out;
    log::SetSink(log::NewTextSink(out));
    log::SetVerbosity(4);
    boost::asio::io_context io;
    metrics::Registry registry;
    {
        QueueOptions<std::string> options;
        options.name = "shutdown-log";
        options.registry = &registry;
        Queue<std::string> queue(io.get_executor(), options);
        queue.Add("a");
        queue.Add("b");
        const std::optional<std::string> item = queue.Get();
        ASSERT_TRUE(item.has_value());
        queue.Done(*item);
        queue.ShutDownWithDrain();
        queue.ShutDown();
    }
    log::SetSink(nullptr);
    log::SetVerbosity(0);
    const std::string lines = out.str();
    EXPECT_NE(lines.find("workqueue] \"shutting down\" name=\"shutdown-log\" drain=true pending=1\n"),
              std::string::npos)
        << lines;
    EXPECT_EQ(lines.find("shutting down"), lines.rfind("shutting down")) << "one line for two shutdown calls";
    EXPECT_EQ(std::count(lines.begin(), lines.end(), '\n'), 1) << lines;
}

}  // namespace
}  // namespace ctrl::workqueue
