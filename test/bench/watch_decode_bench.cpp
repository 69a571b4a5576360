// Watch-stream decode throughput: a recorded-like stream of 10,000 pod watch events (~8 KB each, with
// managedFields, as a real API server sends them) decoded in 64 KiB blocks. Reports MB/s (bytes_per_second)
// and events/s (items_per_second) for the decoder with its fast path (simdjson), with RapidJSON alone, and
// through WatchStream over an in-memory body (the coroutine per event included).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "runtime/core/internal/json.hpp"
#include "runtime/rest/watch_decoder.hpp"
#include "runtime/rest/watch_stream.hpp"

namespace ctrl::rest {
namespace {

constexpr int kEvents = 10000;
constexpr std::size_t kBlockBytes = std::size_t{64} << 10;

// A pod as the API server sends it: compact JSON in Go's field order, two containers, managedFields from
// kube-controller-manager and kubelet. Line breaks are only for reading (they are dropped); ${...} is filled
// per event.
constexpr std::string_view kPodTemplate = R"json(
{"kind":"Pod","apiVersion":"v1","metadata":{"name":"${NAME}","generateName":"${RS}-","namespace":"${NS}",
"uid":"${UID}","resourceVersion":"${RV}","creationTimestamp":"2026-03-14T09:26:53Z",
"labels":{"app.kubernetes.io/name":"checkout","app.kubernetes.io/part-of":"shop","pod-template-hash":"${HASH}",
"team":"payments","version":"v1.42.0"},
"annotations":{"kubectl.kubernetes.io/restartedAt":"2026-03-14T09:26:50Z","prometheus.io/port":"9090",
"prometheus.io/scrape":"true"},
"ownerReferences":[{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"${RS}","uid":"${OWNER}","controller":true,
"blockOwnerDeletion":true}],
"managedFields":[{"manager":"kube-controller-manager","operation":"Update","apiVersion":"v1",
"time":"2026-03-14T09:26:53Z","fieldsType":"FieldsV1","fieldsV1":{"f:metadata":{"f:annotations":{".":{},
"f:kubectl.kubernetes.io/restartedAt":{},"f:prometheus.io/port":{},"f:prometheus.io/scrape":{}},
"f:generateName":{},"f:labels":{".":{},"f:app.kubernetes.io/name":{},"f:app.kubernetes.io/part-of":{},
"f:pod-template-hash":{},"f:team":{},"f:version":{}},"f:ownerReferences":{".":{},"k:{\"uid\":\"${OWNER}\"}":{}}},
"f:spec":{"f:containers":{"k:{\"name\":\"checkout\"}":{".":{},"f:args":{},"f:env":{".":{},
"k:{\"name\":\"LOG_LEVEL\"}":{".":{},"f:name":{},"f:value":{}},"k:{\"name\":\"POD_NAME\"}":{".":{},"f:name":{},
"f:valueFrom":{".":{},"f:fieldRef":{}}},"k:{\"name\":\"POD_NAMESPACE\"}":{".":{},"f:name":{},"f:valueFrom":{".":{},
"f:fieldRef":{}}}},"f:image":{},"f:imagePullPolicy":{},"f:name":{},"f:ports":{".":{},
"k:{\"containerPort\":8080,\"protocol\":\"TCP\"}":{".":{},
"f:containerPort":{},"f:name":{},"f:protocol":{}},"k:{\"containerPort\":9090,\"protocol\":\"TCP\"}":{".":{},
"f:containerPort":{},"f:name":{},"f:protocol":{}}},"f:readinessProbe":{".":{},"f:failureThreshold":{},
"f:httpGet":{".":{},"f:path":{},"f:port":{},"f:scheme":{}},"f:periodSeconds":{},"f:successThreshold":{},
"f:timeoutSeconds":{}},"f:resources":{".":{},"f:limits":{".":{},"f:cpu":{},"f:memory":{}},"f:requests":{".":{},
"f:cpu":{},"f:memory":{}}},"f:securityContext":{".":{},"f:allowPrivilegeEscalation":{},"f:readOnlyRootFilesystem":{},
"f:runAsNonRoot":{}},"f:terminationMessagePath":{},"f:terminationMessagePolicy":{},"f:volumeMounts":{".":{},
"k:{\"mountPath\":\"/etc/checkout\"}":{".":{},"f:mountPath":{},"f:name":{},"f:readOnly":{}}}},
"k:{\"name\":\"log-shipper\"}":{".":{},"f:image":{},"f:imagePullPolicy":{},"f:name":{},"f:resources":{".":{},
"f:limits":{".":{},"f:memory":{}},"f:requests":{".":{},"f:cpu":{},"f:memory":{}}},"f:terminationMessagePath":{},
"f:terminationMessagePolicy":{}}},"f:dnsPolicy":{},"f:enableServiceLinks":{},"f:restartPolicy":{},
"f:schedulerName":{},"f:securityContext":{},"f:serviceAccount":{},"f:serviceAccountName":{},
"f:terminationGracePeriodSeconds":{},"f:volumes":{".":{},
"k:{\"name\":\"config\"}":{".":{},"f:configMap":{".":{},"f:defaultMode":{},"f:name":{}},"f:name":{}}}}}},
{"manager":"kubelet","operation":"Update","apiVersion":"v1","time":"2026-03-14T09:27:01Z","fieldsType":"FieldsV1",
"fieldsV1":{"f:status":{"f:conditions":{"k:{\"type\":\"ContainersReady\"}":{".":{},"f:lastProbeTime":{},
"f:lastTransitionTime":{},"f:status":{},"f:type":{}},"k:{\"type\":\"Initialized\"}":{".":{},"f:lastProbeTime":{},
"f:lastTransitionTime":{},"f:status":{},"f:type":{}},"k:{\"type\":\"PodReadyToStartContainers\"}":{".":{},
"f:lastProbeTime":{},"f:lastTransitionTime":{},"f:status":{},"f:type":{}},"k:{\"type\":\"Ready\"}":{".":{},
"f:lastProbeTime":{},"f:lastTransitionTime":{},"f:status":{},"f:type":{}}},"f:containerStatuses":{},"f:hostIP":{},
"f:hostIPs":{},"f:phase":{},"f:podIP":{},"f:podIPs":{".":{},"k:{\"ip\":\"${IP}\"}":{".":{},"f:ip":{}}},
"f:startTime":{}}},"subresource":"status"}]},
"spec":{"volumes":[{"name":"config","configMap":{"name":"checkout-config","defaultMode":420}},
{"name":"kube-api-access-${SUFFIX}","projected":{"sources":[{"serviceAccountToken":{"expirationSeconds":3607,
"path":"token"}},{"configMap":{"name":"kube-root-ca.crt","items":[{"key":"ca.crt","path":"ca.crt"}]}},
{"downwardAPI":{"items":[{"path":"namespace","fieldRef":{"apiVersion":"v1","fieldPath":"metadata.namespace"}}]}}],
"defaultMode":420}}],
"containers":[{"name":"checkout","image":"registry.example.com/shop/checkout:1.42.0",
"args":["--port=8080","--metrics-port=9090","--log-format=json"],
"ports":[{"name":"http","containerPort":8080,"protocol":"TCP"},
{"name":"metrics","containerPort":9090,"protocol":"TCP"}],
"env":[{"name":"LOG_LEVEL","value":"info"},{"name":"POD_NAME","valueFrom":{"fieldRef":{"apiVersion":"v1",
"fieldPath":"metadata.name"}}},{"name":"POD_NAMESPACE","valueFrom":{"fieldRef":{"apiVersion":"v1",
"fieldPath":"metadata.namespace"}}}],
"resources":{"limits":{"cpu":"1","memory":"512Mi"},"requests":{"cpu":"250m","memory":"256Mi"}},
"volumeMounts":[{"name":"config","readOnly":true,"mountPath":"/etc/checkout"},{"name":"kube-api-access-${SUFFIX}",
"readOnly":true,"mountPath":"/var/run/secrets/kubernetes.io/serviceaccount"}],
"readinessProbe":{"httpGet":{"path":"/readyz","port":8080,"scheme":"HTTP"},"timeoutSeconds":1,"periodSeconds":5,
"successThreshold":1,"failureThreshold":3},
"terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File","imagePullPolicy":"IfNotPresent",
"securityContext":{"runAsNonRoot":true,"readOnlyRootFilesystem":true,"allowPrivilegeEscalation":false}},
{"name":"log-shipper","image":"registry.example.com/infra/log-shipper:3.1.4",
"resources":{"limits":{"memory":"64Mi"},"requests":{"cpu":"10m","memory":"32Mi"}},
"volumeMounts":[{"name":"kube-api-access-${SUFFIX}","readOnly":true,
"mountPath":"/var/run/secrets/kubernetes.io/serviceaccount"}],
"terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File","imagePullPolicy":"IfNotPresent"}],
"restartPolicy":"Always","terminationGracePeriodSeconds":30,"dnsPolicy":"ClusterFirst",
"serviceAccountName":"default","serviceAccount":"default","nodeName":"${NODE}","securityContext":{},
"schedulerName":"default-scheduler",
"tolerations":[{"key":"node.kubernetes.io/not-ready","operator":"Exists","effect":"NoExecute","tolerationSeconds":300},
{"key":"node.kubernetes.io/unreachable","operator":"Exists","effect":"NoExecute","tolerationSeconds":300}],
"priority":0,"enableServiceLinks":true,"preemptionPolicy":"PreemptLowerPriority"},
"status":{"phase":"Running","conditions":[{"type":"PodReadyToStartContainers","status":"True","lastProbeTime":null,
"lastTransitionTime":"2026-03-14T09:26:55Z"},{"type":"Initialized","status":"True","lastProbeTime":null,
"lastTransitionTime":"2026-03-14T09:26:53Z"},{"type":"Ready","status":"True","lastProbeTime":null,
"lastTransitionTime":"2026-03-14T09:27:01Z"},{"type":"ContainersReady","status":"True","lastProbeTime":null,
"lastTransitionTime":"2026-03-14T09:27:01Z"},{"type":"PodScheduled","status":"True","lastProbeTime":null,
"lastTransitionTime":"2026-03-14T09:26:53Z"}],"hostIP":"${HOSTIP}","hostIPs":[{"ip":"${HOSTIP}"}],"podIP":"${IP}",
"podIPs":[{"ip":"${IP}"}],"startTime":"2026-03-14T09:26:53Z",
"containerStatuses":[{"name":"checkout","state":{"running":{"startedAt":"2026-03-14T09:26:55Z"}},"lastState":{},
"ready":true,"restartCount":${RESTARTS},"image":"registry.example.com/shop/checkout:1.42.0",
"imageID":"registry.example.com/shop/checkout@sha256:${DIGEST}","containerID":"containerd://${CID1}",
"started":true},{"name":"log-shipper","state":{"running":{"startedAt":"2026-03-14T09:26:54Z"}},"lastState":{},
"ready":true,"restartCount":0,"image":"registry.example.com/infra/log-shipper:3.1.4",
"imageID":"registry.example.com/infra/log-shipper@sha256:${DIGEST}","containerID":"containerd://${CID2}",
"started":true}],"qosClass":"Burstable"}}
)json";

// splitmix64: deterministic pseudo-random numbers, so every run decodes the same bytes.
uint64_t Mix(uint64_t x) {
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

std::string Hex(uint64_t seed, int digits) {
    static constexpr char kDigits[] = "0123456789abcdef";
    std::string out;
    for (int i = 0; i < digits; ++i) {
        if (i % 16 == 0)
            seed = Mix(seed);
        out.push_back(kDigits[(seed >> ((i % 16) * 4)) & 0xf]);
    }
    return out;
}

std::string Uid(uint64_t seed) {
    const std::string h = Hex(seed, 32);
    return h.substr(0, 8) + "-" + h.substr(8, 4) + "-" + h.substr(12, 4) + "-" + h.substr(16, 4) + "-" + h.substr(20);
}

std::string Ip(const char* prefix, uint64_t a, uint64_t b) {
    return prefix + std::to_string(a) + "." + std::to_string(b);
}

// Pod number `pod` at resourceVersion `rv`: 50 pods per ReplicaSet, 20 namespaces, 40 nodes.
std::string MakePod(uint64_t pod, uint64_t rv, uint64_t restarts) {
    const std::string hash = Hex(pod / 50 + 7, 9);
    const std::string suffix = Hex(pod * 31 + 5, 5);
    const std::pair<std::string_view, std::string> values[] = {
        {"NAME", "checkout-" + hash + "-" + suffix},
        {"RS", "checkout-" + hash},
        {"NS", "shop-" + std::to_string(pod % 20)},
        {"UID", Uid(pod * 2 + 1)},
        {"OWNER", Uid(pod / 50 * 2)},
        {"RV", std::to_string(rv)},
        {"HASH", hash},
        {"SUFFIX", suffix},
        {"IP", Ip("10.244.", pod / 250 % 256, pod % 250 + 2)},
        {"HOSTIP", Ip("10.0.", 0, pod % 40 + 10)},
        {"NODE", "worker-" + std::to_string(pod % 40)},
        {"RESTARTS", std::to_string(restarts)},
        {"DIGEST", Hex(pod / 50 + 99, 64)},
        {"CID1", Hex(pod * 3 + restarts, 64)},
        {"CID2", Hex(pod * 5 + 1, 64)},
    };
    std::string out;
    for (std::size_t i = 0; i < kPodTemplate.size();) {
        if (kPodTemplate[i] == '\n') {
            ++i;
        } else if (kPodTemplate.substr(i, 2) != "${") {
            out.push_back(kPodTemplate[i++]);
        } else {
            const std::size_t end = kPodTemplate.find('}', i);
            const std::string_view key = kPodTemplate.substr(i + 2, end - i - 2);
            for (const auto& [name, value] : values) {
                if (name == key)
                    out += value;
            }
            i = end + 1;
        }
    }
    return out;
}

// kEvents watch event lines: the first fifth ADDED, then status updates (MODIFIED) of random pods, 2% DELETED,
// and a BOOKMARK every 1000 events, as a busy cluster's pod watch sends them.
std::string MakeStream() {
    std::string stream;
    uint64_t rv = 918273;
    const uint64_t pods = kEvents / 5;
    for (int i = 0; i < kEvents; ++i) {
        ++rv;
        if (i % 1000 == 999) {
            stream += R"({"type":"BOOKMARK","object":{"kind":"Pod","apiVersion":"v1","metadata":{"resourceVersion":")" +
                      std::to_string(rv) + R"(","annotations":{"k8s.io/initial-events-end":"true"}}}})" + "\n";
            continue;
        }
        const uint64_t r = Mix(static_cast<uint64_t>(i));
        const bool added = static_cast<uint64_t>(i) < pods;
        const char* type = added ? "ADDED" : r % 50 == 0 ? "DELETED" : "MODIFIED";
        const uint64_t pod = added ? static_cast<uint64_t>(i) : r % pods;
        stream += std::string(R"({"type":")") + type + R"(","object":)" + MakePod(pod, rv, r % 4) + "}\n";
    }
    return stream;
}

const std::string& Stream() {
    static const std::string stream = MakeStream();
    return stream;
}

void SetCounters(benchmark::State& state, std::size_t events) {
    state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * Stream().size()));
    state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * events));
    state.counters["event_bytes"] = static_cast<double>(Stream().size()) / kEvents;
}

// The decoder alone, fed in 64 KiB blocks written straight into its buffer (as WatchStream feeds it).
void DecodeInBlocks(benchmark::State& state, const WatchDecoderOptions& options) {
    const std::string& stream = Stream();
    std::size_t events = 0;
    std::size_t pool_bytes = 0;
    for (auto _ : state) {
        WatchDecoder decoder(options);
        events = 0;
        pool_bytes = 0;
        for (std::size_t offset = 0; offset < stream.size(); offset += kBlockBytes) {
            const std::size_t size = std::min(kBlockBytes, stream.size() - offset);
            std::memcpy(decoder.Prepare(size).data(), stream.data() + offset, size);
            if (!decoder.Commit(size).Ok())
                state.SkipWithError("commit failed");
            while (true) {
                auto event = decoder.Next();
                if (!event.Ok()) {
                    state.SkipWithError(event.GetStatus().ToString().c_str());
                    return;
                }
                if (!event->has_value())
                    break;
                ++events;
                pool_bytes += (*event)->object.Document().pool.Capacity();
                benchmark::DoNotOptimize((*event)->object);
            }
        }
    }
    SetCounters(state, events);
    state.counters["object_pool_bytes"] = static_cast<double>(pool_bytes) / static_cast<double>(events);
}

void BM_WatchDecoder(benchmark::State& state) {
    DecodeInBlocks(state, WatchDecoderOptions());
}
BENCHMARK(BM_WatchDecoder)->Unit(benchmark::kMillisecond);

void BM_WatchDecoderRapidJsonOnly(benchmark::State& state) {
    WatchDecoderOptions options;
    options.fast_path_max_event_bytes = 0;
    DecodeInBlocks(state, options);
}
BENCHMARK(BM_WatchDecoderRapidJsonOnly)->Unit(benchmark::kMillisecond);

// A body held in memory, handed out as the reads ask.
class MemoryBody final : public BodyStream {
  public:
    explicit MemoryBody(std::string_view bytes) : bytes_(bytes) {}
    int StatusCode() const override { return 200; }
    const std::vector<Header>& Headers() const override { return headers_; }
    Task<StatusOr<std::size_t>> ReadSome(char* data, std::size_t size, Context /*ctx*/) override {
        const std::size_t count = std::min(size, bytes_.size() - offset_);
        std::memcpy(data, bytes_.data() + offset_, count);
        offset_ += count;
        co_return count;
    }
    void Close() override {}

  private:
    std::string_view bytes_;
    std::size_t offset_ = 0;
    std::vector<Header> headers_;
};

Task<void> ReadAll(WatchStream& stream, std::size_t& events, Status& status) {
    const Context ctx = Context::Background();
    while (true) {
        auto event = co_await stream.Next(ctx);
        if (!event.Ok()) {
            status = event.GetStatus();
            co_return;
        }
        if (!event->has_value())
            co_return;
        ++events;
    }
}

// Through WatchStream, as an informer reads it: one co_await per event, 64 KiB reads.
void BM_WatchStream(benchmark::State& state) {
    boost::asio::io_context io;
    std::size_t events = 0;
    for (auto _ : state) {
        WatchStream stream(std::make_unique<MemoryBody>(Stream()));
        events = 0;
        Status status;
        boost::asio::co_spawn(io, ReadAll(stream, events, status), boost::asio::detached);
        io.restart();
        io.run();
        if (!status.Ok()) {
            state.SkipWithError(status.ToString().c_str());
            return;
        }
    }
    SetCounters(state, events);
}
BENCHMARK(BM_WatchStream)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace ctrl::rest

BENCHMARK_MAIN();
