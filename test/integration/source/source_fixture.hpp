#pragma once

// The fixture of the source integration tests: clusters on one io loop whose requests are
// counted, sources tracked so that the informers outlive their runs, helpers.

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "ctrl/api/namespace.hpp"
#include "ctrl/cluster/cluster.hpp"
#include "ctrl/source/kind.hpp"
#include "ctrl/workqueue/queue.hpp"
#include "test/support/control_plane_environment.hpp"
#include "test/support/counted_rest_client.hpp"
#include "test/support/counting_transport.hpp"
#include "test/support/eventually.hpp"
#include "test/support/io_loop.hpp"

namespace ctrl::source {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

inline bool Contains(const std::vector<std::string>& lines, const std::string& line) {
    return std::find(lines.begin(), lines.end(), line) != lines.end();
}

// Discovery documents among the requests: /api, /apis, /api/<v>, /apis/<g>/<v>.
inline int DiscoveryRequests(const std::vector<std::string>& paths) {
    return static_cast<int>(std::count_if(paths.begin(), paths.end(), [](const std::string& p) {
        if (p == "/api" || p == "/apis")
            return true;
        const auto slashes = std::count(p.begin(), p.end(), '/');
        const bool query = p.find('?') != std::string::npos;
        return !query && ((p.rfind("/api/", 0) == 0 && slashes == 2) || (p.rfind("/apis/", 0) == 0 && slashes == 3));
    }));
}

inline double Seconds(Clock::duration d) {
    return std::chrono::duration<double>(d).count();
}

class SourceTest : public ::testing::Test {
  protected:
    SourceTest() {}
    ~SourceTest() override {
        stop_.Cancel();
        // The informers must outlive the sources' runs.
        EXPECT_TRUE(ctrl::testing::Eventually([&] {
            return std::none_of(sources_.begin(), sources_.end(), [](const auto& s) { return s->Running(); });
        }));
        clusters_.clear();
        loop_.Stop();
    }

    // A started Cluster for config whose requests pass a CountingTransport (counter_ for the first).
    cluster::Cluster* MakeCluster(const rest::Config& config) {
        StatusOr<ctrl::testing::CountedCluster> made =
            ctrl::testing::NewCountedCluster(config, loop_.Executor(), registry_);
        EXPECT_TRUE(made.Ok()) << made.GetStatus();
        if (counter_ == nullptr)
            counter_ = made->transport;
        clusters_.push_back(std::move(made->cluster));
        clusters_.back()->Start(stop_);
        return clusters_.back().get();
    }

    std::shared_ptr<KindSource> Track(std::shared_ptr<Source> source) {
        sources_.push_back(std::static_pointer_cast<KindSource>(std::move(source)));
        return sources_.back();
    }

    template <typename T>
    T Run(Task<T> task) {
        return loop_.Run(std::move(task));
    }

    void CreateNamespace(cluster::Cluster& cluster, const std::string& name) {
        api::Namespace ns;
        ns.SetName(name);
        const Status created = Run(cluster.GetAPIReader().Create(ctrl::testing::Within(30s), ns));
        ASSERT_TRUE(created.Ok() || IsAlreadyExists(created)) << created;
    }

    metrics::Registry registry_;
    ctrl::testing::IoLoop loop_;
    ctrl::testing::CountingTransport* counter_ = nullptr;
    std::vector<std::unique_ptr<cluster::Cluster>> clusters_;
    std::vector<std::shared_ptr<KindSource>> sources_;
    Context stop_ = Context::WithCancel(Context::Background());
    workqueue::Queue<reconcile::Request> queue_{loop_.Executor()};
};

}  // namespace ctrl::source
