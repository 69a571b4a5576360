#include "ctrl/rest/kubeconfig.hpp"

#include <algorithm>
#include <utility>
#include <vector>

#include "ctrl/rest/internal/kubeconfig_env.hpp"
#include "ctrl/rest/internal/kubeconfig_resolve.hpp"
#include "ctrl/rest/internal/kubeconfig_yaml.hpp"

namespace ctrl::rest {
namespace {

using internal::KubeconfigCluster;
using internal::KubeconfigContext;
using internal::KubeconfigFile;
using internal::KubeconfigUser;
using internal::Named;

// The files to read, in precedence order, and whether each must exist.
struct Candidates {
    std::vector<std::string> paths;
    bool must_exist = false;
    std::string description;  // for the "none found" message
};

// The merged view of several files: the first definition of a name wins.
struct Merged {
    std::vector<std::string> files;  // the files that were read
    std::string current_context;
    std::vector<Named<KubeconfigCluster>> clusters;
    std::vector<Named<KubeconfigUser>> users;
    std::vector<Named<KubeconfigContext>> contexts;
};

std::string Quote(const std::string& text) {
    return "\"" + text + "\"";
}

std::vector<std::string> SplitPathList(const std::string& list) {
    std::vector<std::string> paths;
    std::size_t start = 0;
    while (start <= list.size()) {
        std::size_t end = list.find(':', start);
        if (end == std::string::npos)
            end = list.size();
        std::string path = list.substr(start, end - start);
        if (!path.empty() && std::find(paths.begin(), paths.end(), path) == paths.end())
            paths.push_back(std::move(path));
        start = end + 1;
    }
    return paths;
}

Candidates FindCandidates(const KubeconfigOptions& options) {
    Candidates candidates;
    if (!options.explicit_path.empty()) {
        candidates.paths = {options.explicit_path};
        candidates.must_exist = true;
        return candidates;
    }
    const std::string env = internal::GetEnv(options.environment, "KUBECONFIG").value_or("");
    if (!env.empty()) {
        candidates.paths = SplitPathList(env);
        candidates.description = "none of the files in $KUBECONFIG exist (" + env + ")";
        return candidates;
    }
    const std::string home = internal::HomeDir(options.environment);
    if (home.empty()) {
        candidates.description = "$HOME is not set and the current user has no home directory";
        return candidates;
    }
    const std::string path = internal::ResolvePath(".kube/config", home);
    candidates.paths = {path};
    candidates.description = path + " does not exist";
    return candidates;
}

template <typename T>
const Named<T>* FindNamed(const std::vector<Named<T>>& entries, const std::string& name) {
    auto it = std::find_if(entries.begin(), entries.end(), [&](const Named<T>& entry) { return entry.name == name; });
    return it == entries.end() ? nullptr : &*it;
}

template <typename T>
void MergeEntries(std::vector<Named<T>>& into, std::vector<Named<T>>& from) {
    for (Named<T>& entry : from) {
        if (FindNamed(into, entry.name) == nullptr)
            into.push_back(std::move(entry));
    }
}

StatusOr<Merged> ReadAndMerge(const Candidates& candidates) {
    Merged merged;
    for (const std::string& path : candidates.paths) {
        auto text = internal::ReadWholeFile(path);
        if (!text.Ok()) {
            if (IsNotFound(text.GetStatus()) && !candidates.must_exist)
                continue;
            return Status(text.GetStatus().Code(), "kubeconfig " + text.GetStatus().Message());
        }
        CTRL_ASSIGN_OR_RETURN(KubeconfigFile file, internal::ParseKubeconfig(*text, path));
        merged.files.push_back(path);
        if (merged.current_context.empty())
            merged.current_context = file.current_context;
        MergeEntries(merged.clusters, file.clusters);
        MergeEntries(merged.users, file.users);
        MergeEntries(merged.contexts, file.contexts);
    }
    if (merged.files.empty())
        return NotFoundError("no kubeconfig found: " + candidates.description);
    return merged;
}

std::string JoinFiles(const std::vector<std::string>& files) {
    std::string joined;
    for (const std::string& file : files) {
        if (!joined.empty())
            joined += ':';
        joined += file;
    }
    return joined;
}

StatusOr<Config> SelectContext(const Merged& merged, const std::string& override_context) {
    const std::string all_files = "kubeconfig " + JoinFiles(merged.files);
    if (merged.current_context.empty() && override_context.empty() && merged.clusters.empty() && merged.users.empty() &&
        merged.contexts.empty())
        return BadRequestError(all_files + ": no configuration: no contexts, clusters or users are defined");
    const std::string& name = override_context.empty() ? merged.current_context : override_context;
    if (name.empty())
        return BadRequestError(all_files + ": no context selected: current-context is not set");
    const Named<KubeconfigContext>* context = FindNamed(merged.contexts, name);
    if (context == nullptr)
        return BadRequestError(all_files + ": context " + Quote(name) + " not found");

    const std::string prefix = "kubeconfig " + context->origin + ": context " + Quote(name) + ": ";
    if (context->value.user.empty())
        return BadRequestError(prefix + "no user set");
    const Named<KubeconfigUser>* user = FindNamed(merged.users, context->value.user);
    if (user == nullptr)
        return BadRequestError(prefix + "user " + Quote(context->value.user) + " not found");
    if (context->value.cluster.empty())
        return BadRequestError(prefix + "no cluster set");
    const Named<KubeconfigCluster>* cluster = FindNamed(merged.clusters, context->value.cluster);
    if (cluster == nullptr)
        return BadRequestError(prefix + "cluster " + Quote(context->value.cluster) + " not found");
    return internal::ResolveContext(*context, *cluster, *user);
}

}  // namespace

StatusOr<Config> LoadKubeconfig(const KubeconfigOptions& options) {
    CTRL_ASSIGN_OR_RETURN(Merged merged, ReadAndMerge(FindCandidates(options)));
    return SelectContext(merged, options.context);
}

}  // namespace ctrl::rest
