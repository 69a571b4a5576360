#include "test/bench/annotation_patch_load.hpp"

#include <cstdlib>
#include <latch>
#include <utility>

#include <boost/asio/co_spawn.hpp>

#include "ctrl/api/pod.hpp"
#include "ctrl/client/client.hpp"
#include "ctrl/core/task.hpp"
#include "ctrl/metrics/registry.hpp"
#include "test/bench/bench_process.hpp"

namespace ctrl::bench {

using namespace std::chrono_literals;

// What the patch coroutines share; they run on one thread, so plain fields are enough.
struct AnnotationPatchLoad::Worker {
    // Merge-patches pod seq % pods, one patch after another, until end.
    static Task<void> Run(AnnotationPatchLoad& load, client::Client& client,
                          const ctrl::testing::WorkloadOptions& layout, std::chrono::steady_clock::time_point end) {
        const int pods = layout.namespaces * layout.pods_per_namespace;
        while (load.next_ < kMaxPatches && std::chrono::steady_clock::now() < end) {
            const int seq = load.next_++;
            const int index = seq % pods;
            api::Pod pod;
            pod.SetNamespace(ctrl::testing::WorkloadNamespace(layout, index / layout.pods_per_namespace));
            pod.SetName(ctrl::testing::WorkloadPodName(layout, index % layout.pods_per_namespace));
            const std::string body = R"({"metadata":{"annotations":{")" + std::string(kAnnotation) + R"(":")" +
                                     load.nonce_ + "-" + std::to_string(seq) + "\"}}}";
            const client::Patch patch = client::RawPatch(client::PatchType::kMergePatch, body);
            Context ctx = Context::WithTimeout(Context::Background(), 30s);
            load.sent_[seq] = load.Now();
            Status patched = co_await client.Patch(std::move(ctx), pod, patch);
            if (patched.Ok()) {
                load.answered_[seq] = load.Now();
                ++load.ok_;
            } else if (++load.errors_ == 1) {
                load.first_error_ = patched.ToString();
            }
        }
    }
};

AnnotationPatchLoad::AnnotationPatchLoad(std::chrono::steady_clock::time_point origin)
    : start_(origin),
      nonce_(std::to_string(std::chrono::system_clock::now().time_since_epoch().count())),
      sent_(std::make_unique<std::atomic<int64_t>[]>(kMaxPatches)),
      answered_(std::make_unique<std::atomic<int64_t>[]>(kMaxPatches)) {
    for (int i = 0; i < kMaxPatches; ++i) {
        sent_[i] = -1;
        answered_[i] = -1;
    }
}

int AnnotationPatchLoad::SeqOf(const Object& object) const {
    const std::optional<std::string_view> value = object.Annotation(kAnnotation);
    if (!value)
        return -1;
    const std::size_t dash = value->find('-');
    if (dash == std::string_view::npos || value->substr(0, dash) != nonce_)
        return -1;
    const int seq = std::atoi(std::string(value->substr(dash + 1)).c_str());
    return seq >= 0 && seq < kMaxPatches ? seq : -1;
}

Status AnnotationPatchLoad::Run(const rest::Config& config, const ctrl::testing::WorkloadOptions& layout,
                                int concurrency, double seconds) {
    Loop loop;
    metrics::Registry registry;
    client::Options options;
    options.registry = &registry;
    StatusOr<std::unique_ptr<client::Client>> direct = client::New(config, loop.Executor(), std::move(options));
    if (!direct.Ok())
        return direct.GetStatus().Annotate("making the patch client");
    const auto load_start = std::chrono::steady_clock::now();
    started_at_ = Now();
    const auto end = load_start + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                      std::chrono::duration<double>(seconds));
    std::latch done(concurrency);
    for (int i = 0; i < concurrency; ++i)
        boost::asio::co_spawn(loop.Executor(), Worker::Run(*this, **direct, layout, end),
                              [&done](std::exception_ptr) { done.count_down(); });
    done.wait();
    seconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - load_start).count();
    return OkStatus();
}

}  // namespace ctrl::bench
