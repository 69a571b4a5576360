#pragma once

#include <memory>
#include <string>
#include <vector>

#include <boost/asio/io_context.hpp>

#include "ctrl/core/status_or.hpp"
#include "ctrl/rest/rest_client.hpp"

namespace ctrl::protobuf::test {

// Raw bodies from the shared control plane's API server, as JSON or as protobuf.
class ServerBodies final {
  public:
    ServerBodies();

    // GET target with Accept `accept`; the body as sent.
    StatusOr<std::string> Get(const std::string& target, const std::string& accept);
    // POST (or, with method, another verb) of a JSON body; the answer's body.
    StatusOr<std::string> Send(const std::string& method, const std::string& target, const std::string& body,
                               const std::string& content_type = "application/json");
    // A watch-list of the collection (sendInitialEvents, bookmarks) with Accept `accept`: the body
    // read until `done` says the bytes so far hold the initial-events-end bookmark (deadline 30 s).
    StatusOr<std::string> WatchList(const std::string& collection, const std::string& accept,
                                    bool (*done)(const std::string& body));

  private:
    boost::asio::io_context io_;
    std::unique_ptr<rest::RestClient> client_;
};

// The JSON watch body split into events (one per line).
std::vector<std::string> JsonWatchEvents(const std::string& body);
// The protobuf watch body split into frames and each transcoded; a frame that fails is a gtest failure.
std::vector<std::string> TranscodedWatchEvents(const std::string& body);

}  // namespace ctrl::protobuf::test
