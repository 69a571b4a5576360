#include "controllers/podlister/app.hpp"

#include <chrono>
#include <exception>
#include <memory>
#include <string>
#include <utility>

#include <boost/asio/io_context.hpp>

#include "controllers/podlister/flags.hpp"
#include "controllers/podlister/pod_lister.hpp"
#include "controllers/podlister/pod_output.hpp"
#include "ctrl/client/client.hpp"
#include "ctrl/core/run_sync.hpp"
#include "ctrl/log/log.hpp"
#include "ctrl/rest/load_config.hpp"

namespace ctrl::podlister {
namespace {

using Clock = std::chrono::steady_clock;

// Prints the one error line and returns the exit code 1. Line breaks inside the message (a YAML
// parser's context, a server's multi-line answer) are folded so the report stays one line.
int Fail(std::ostream& err, const std::string& message) {
    std::string line = message;
    for (char& c : line) {
        if (c == '\n' || c == '\r')
            c = ' ';
    }
    err << "podlister: error: " << line << std::endl;
    return 1;
}

// "kubeconfig /x, context \"y\"" plus the server: where the pods were read from.
std::string Where(const rest::Config& config) {
    std::string where = config.host;
    if (!config.source.empty())
        where += " (" + config.source + ")";
    return where;
}

int Run(const Flags& flags, std::ostream& out, std::ostream& err) {
    StatusOr<rest::Config> config = rest::LoadConfig({.kubeconfig = flags.kubeconfig, .context = flags.context});
    if (!config.Ok())
        return Fail(err, "loading the client config: " + config.GetStatus().ToString());
    config->timeout = flags.request_timeout;

    boost::asio::io_context io;
    StatusOr<std::unique_ptr<client::Client>> client = client::New(*config, io.get_executor());
    if (!client.Ok())
        return Fail(err, "making a client for " + Where(*config) + ": " + client.GetStatus().ToString());

    const Clock::time_point start = Clock::now();
    StatusOr<PodListing> listing = RunSync(io, ListAllPods(Context::Background(), **client, flags.chunk_size));
    const auto took = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start);
    if (!listing.Ok())
        return Fail(err, "reading from " + Where(*config) + ": " + listing.GetStatus().ToString());

    const api::PodList& pods = listing->pods;
    if (flags.output == OutputFormat::kJson) {
        WritePodListJson(out, pods);
    } else {
        WritePodTable(out, pods, std::chrono::system_clock::now(), flags.no_headers);
    }
    out.flush();
    if (!out)
        return Fail(err, "writing the output: the output stream failed (closed pipe or full disk?)");
    err << "podlister: "
        << (pods.Items().empty() ? "no pods found in any namespace" : std::to_string(pods.Items().size()) + " pods")
        << " from " << config->host << " in " << listing->pages << (listing->pages == 1 ? " page" : " pages")
        << " of at most " << flags.chunk_size << (listing->relisted ? " (relisted after an expired continue)" : "")
        << ", " << took.count() << " ms" << std::endl;
    return 0;
}

}  // namespace

int RunPodLister(int argc, const char* const* argv, std::ostream& out, std::ostream& err) {
    StatusOr<Flags> flags = ParseFlags(argc, argv);
    if (!flags.Ok())
        return Fail(err, flags.GetStatus().Message());
    if (flags->help) {
        out << Usage();
        return 0;
    }
    // The runtime's lines go to err while the program runs (err may not outlive this call).
    log::Configure(flags->log, err);
    struct RestoreLogging {
        ~RestoreLogging() {
            log::SetSink(nullptr);
            log::SetVerbosity(0);
        }
    } restore;
    try {
        return Run(*flags, out, err);
    } catch (const std::exception& e) {
        return Fail(err, std::string("unexpected exception: ") + e.what());
    }
}

}  // namespace ctrl::podlister
