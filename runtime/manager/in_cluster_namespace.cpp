#include "ctrl/manager/in_cluster_namespace.hpp"

#include <fstream>
#include <sstream>

namespace ctrl::manager {

StatusOr<std::string> InClusterNamespace(std::string_view dir) {
    const std::string path = std::string(dir) + "/namespace";
    std::ifstream file(path);
    if (!file)
        return NotFoundError("cannot read " + path + ": not running in a cluster");
    std::stringstream content;
    content << file.rdbuf();
    std::string ns = content.str();
    while (!ns.empty() && (ns.back() == '\n' || ns.back() == ' ' || ns.back() == '\r'))
        ns.pop_back();
    if (ns.empty())
        return BadRequestError(path + " is empty");
    return ns;
}

}  // namespace ctrl::manager
