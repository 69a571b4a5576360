#pragma once

// The serial number of the certificate a TLS server on loopback presents to a new handshake, read
// with the openssl CLI: what a client connecting now would see. Header-only.

#include <chrono>
#include <string>

#include "ctrl/envtest/command.hpp"

namespace ctrl::testing {

// The serial ("3F0A...") the server at 127.0.0.1:port presents; "" when none answers.
inline std::string PresentedSerial(int port) {
    StatusOr<envtest::CommandResult> handshake =
        envtest::RunCommand({.argv = {"sh", "-c",
                                      "openssl s_client -connect 127.0.0.1:" + std::to_string(port) +
                                          " </dev/null 2>/dev/null | openssl x509 -noout -serial"},
                             .timeout = std::chrono::seconds(10)});
    if (!handshake.Ok() || handshake->exit_code != 0)
        return "";
    std::string serial = handshake->out;  // "serial=3F0A...\n"
    serial.erase(0, serial.find('=') + 1);
    while (!serial.empty() && (serial.back() == '\n' || serial.back() == '\r'))
        serial.pop_back();
    return serial;
}

}  // namespace ctrl::testing
