#include "test/bench/bench_workload.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include <boost/asio/io_context.hpp>

#include "ctrl/client/client.hpp"
#include "ctrl/core/run_sync.hpp"
#include "ctrl/rest/kubeconfig.hpp"
#include "test/bench/bench_process.hpp"

namespace ctrl::bench {

int PodsFromEnvironment() {
    if (const char* env = std::getenv("CTRL_BENCH_PODS"); env != nullptr && *env != '\0')
        return std::atoi(env);
    return kDefaultPods;
}

ctrl::testing::WorkloadOptions WorkloadLayout(const std::string& prefix, int pods) {
    ctrl::testing::WorkloadOptions workload;
    workload.prefix = prefix;
    workload.namespaces = std::clamp(pods, 1, kMaxNamespaces);
    workload.pods_per_namespace = (std::max(pods, 1) + workload.namespaces - 1) / workload.namespaces;
    workload.concurrency = 16;
    return workload;
}

Status StartWithWorkload(const char* program, ctrl::testing::ControlPlane& control_plane,
                         const ctrl::testing::WorkloadOptions& workload) {
    if (Status started = control_plane.Start(); !started.Ok())
        return started.Annotate("control plane");
    std::printf("%s: kube-apiserver %s + etcd %s on loopback, sharing the cores with this client\n", program,
                control_plane.Version().c_str(), control_plane.EtcdVersion().c_str());
    rest::KubeconfigOptions kubeconfig;
    kubeconfig.explicit_path = control_plane.KubeconfigPath();
    StatusOr<rest::Config> config = rest::LoadKubeconfig(kubeconfig);
    if (!config.Ok())
        return config.GetStatus().Annotate("kubeconfig");
    boost::asio::io_context io;
    StatusOr<std::unique_ptr<client::Client>> client = client::New(*config, io.get_executor());
    if (!client.Ok())
        return client.GetStatus().Annotate("client");
    std::printf("creating %d pods in %d namespaces, %d in flight (load average %s)\n",
                workload.namespaces * workload.pods_per_namespace, workload.namespaces, workload.concurrency,
                LoadAverage().c_str());
    std::fflush(stdout);
    StatusOr<ctrl::testing::WorkloadReport> created =
        RunSync(io, ctrl::testing::CreateWorkload(Context::Background(), **client, workload));
    if (!created.Ok())
        return created.GetStatus().Annotate("workload");
    std::printf("created %d pods in %.1f s: %.0f pods/s\n", created->pods,
                static_cast<double>(created->took.count()) / 1000, created->PodsPerSecond());
    return OkStatus();
}

std::vector<std::string> WorkloadProbeArgs(const ctrl::testing::ControlPlane& control_plane,
                                           const ctrl::testing::WorkloadOptions& workload) {
    return {"--kubeconfig",
            control_plane.KubeconfigPath(),
            "--prefix",
            workload.prefix,
            "--namespaces",
            std::to_string(workload.namespaces),
            "--pods-per-namespace",
            std::to_string(workload.pods_per_namespace)};
}

bool ParseWorkloadProbeArg(std::string_view name, const char* value, std::string& kubeconfig,
                           ctrl::testing::WorkloadOptions& layout) {
    if (name == "--kubeconfig")
        kubeconfig = value;
    else if (name == "--prefix")
        layout.prefix = value;
    else if (name == "--namespaces")
        layout.namespaces = std::atoi(value);
    else if (name == "--pods-per-namespace")
        layout.pods_per_namespace = std::atoi(value);
    else
        return false;
    return true;
}

}  // namespace ctrl::bench
