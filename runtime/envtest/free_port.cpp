#include "ctrl/envtest/free_port.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace ctrl::envtest {

StatusOr<std::vector<int>> FreePorts(int count) {
    std::vector<int> sockets;
    std::vector<int> ports;
    Status status;
    // All sockets stay open until every port is chosen, so the ports are distinct.
    for (int i = 0; i < count && status.Ok(); ++i) {
        int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (fd < 0) {
            status = InternalError(std::string("socket: ") + std::strerror(errno));
            break;
        }
        sockets.push_back(fd);
        sockaddr_in addr{};
        addr.sin_family = AF_INET;
        addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        addr.sin_port = 0;
        socklen_t len = sizeof(addr);
        if (bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0 ||
            getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) != 0) {
            status = InternalError(std::string("binding 127.0.0.1:0: ") + std::strerror(errno));
            break;
        }
        ports.push_back(ntohs(addr.sin_port));
    }
    for (int fd : sockets)
        close(fd);
    if (!status.Ok())
        return status;
    return ports;
}

}  // namespace ctrl::envtest
