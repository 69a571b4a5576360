// Issue 15's monitoring pieces, checked with the real Prometheus tools (Debian package
// `prometheus`): every Grafana dashboard expression is valid PromQL (`promtool check rules`) and
// the plain scrape config is a valid Prometheus config (`promtool check config`). Whether the
// expressions return data from a running operator is acceptance 5's test.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>

#include "test/e2e/manifests_objects.hpp"
#include "test/support/command.hpp"
#include "test/support/crds.hpp"

namespace ctrl::testing {
namespace {

namespace fs = std::filesystem;

// A fresh directory under /tmp, removed with its content when this goes out of scope.
class TempDir {
  public:
    TempDir() {
        std::string pattern = (fs::temp_directory_path() / "ctrl-manifests-XXXXXX").string();
        path_ = mkdtemp(pattern.data()) ? pattern : "";
    }
    ~TempDir() {
        if (!path_.empty())
            fs::remove_all(path_);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;

    std::string Write(const std::string& name, const std::string& content) const {
        const std::string file = path_ + "/" + name;
        std::ofstream(file) << content;
        return file;
    }

  private:
    std::string path_;
};

void ExpectPromtoolAccepts(const std::vector<std::string>& args) {
    Command command{.argv = {"promtool"}};
    command.argv.insert(command.argv.end(), args.begin(), args.end());
    StatusOr<CommandResult> checked = RunCommand(command);
    ASSERT_TRUE(checked.Ok()) << "promtool (Debian package prometheus) must be installed: " << checked.GetStatus();
    EXPECT_EQ(checked->exit_code, 0) << checked->out << checked->err;
}

std::vector<std::string> DashboardFiles() {
    std::vector<std::string> files;
    for (const fs::directory_entry& entry : fs::directory_iterator(RepoPath("manifests/grafana"))) {
        if (entry.path().extension() == ".json")
            files.push_back("manifests/grafana/" + entry.path().filename().string());
    }
    std::sort(files.begin(), files.end());
    return files;
}

// Every targets[].expr of a dashboard, after checking the panel's shape.
std::vector<std::string> DashboardExpressions(const std::string& file) {
    std::vector<std::string> expressions;
    StatusOr<std::string> text = ReadRepoFile(file);
    EXPECT_TRUE(text.Ok()) << text.GetStatus();
    StatusOr<Object> dashboard = Object::Parse(text.ValueOr("{}"));
    EXPECT_TRUE(dashboard.Ok()) << file << ": " << dashboard.GetStatus();
    if (!dashboard.Ok())
        return expressions;
    EXPECT_GE(IntAt(*dashboard, {"schemaVersion"}), 36) << file;
    EXPECT_FALSE(StringAt(*dashboard, {"uid"}).empty()) << file;
    bool has_datasource_variable = false;
    for (const Object& variable : ObjectsAt(*dashboard, {"templating", "list"})) {
        has_datasource_variable |= StringAt(variable, {"name"}) == "datasource" &&
                                   StringAt(variable, {"type"}) == "datasource" &&
                                   StringAt(variable, {"query"}) == "prometheus";
    }
    EXPECT_TRUE(has_datasource_variable) << file << ": no ${datasource} variable of type prometheus";
    std::set<int64_t> ids;
    for (const Object& panel : ObjectsAt(*dashboard, {"panels"})) {
        const std::string title = file + ": panel " + StringAt(panel, {"title"});
        EXPECT_TRUE(ids.insert(IntAt(panel, {"id"})).second) << title << ": duplicate id";
        if (StringAt(panel, {"type"}) == "row")
            continue;
        EXPECT_EQ(StringAt(panel, {"datasource", "uid"}), "${datasource}") << title;
        const std::vector<Object> targets = ObjectsAt(panel, {"targets"});
        EXPECT_FALSE(targets.empty()) << title;
        for (const Object& target : targets) {
            EXPECT_EQ(StringAt(target, {"datasource", "uid"}), "${datasource}") << title;
            const std::string expr = StringAt(target, {"expr"});
            EXPECT_FALSE(expr.empty()) << title;
            // Grafana-only variables would make the expression invalid for Prometheus' API.
            EXPECT_EQ(expr.find('$'), std::string::npos) << title << ": " << expr;
            expressions.push_back(expr);
        }
    }
    return expressions;
}

TEST(ManifestsMonitoringTest, DashboardExpressionsAreValidPromQL) {
    const std::vector<std::string> files = DashboardFiles();
    EXPECT_THAT(files, ::testing::ElementsAre("manifests/grafana/controller-runtime.json",
                                              "manifests/grafana/sgp-operator.json"));
    std::vector<std::string> expressions;
    for (const std::string& file : files) {
        for (std::string& expr : DashboardExpressions(file))
            expressions.push_back(std::move(expr));
    }
    // The families the dashboards must show (issue 15 and docs/metrics.md).
    for (const char* family :
         {"controller_runtime_reconcile_total", "controller_runtime_reconcile_errors_total",
          "controller_runtime_reconcile_time_seconds_bucket", "controller_runtime_active_workers", "workqueue_depth",
          "workqueue_adds_total", "workqueue_queue_duration_seconds_bucket", "workqueue_work_duration_seconds_bucket",
          "workqueue_retries_total", "rest_client_requests_total", "rest_client_request_duration_seconds_bucket",
          "leader_election_master_status", "process_resident_memory_bytes", "process_cpu_seconds_total",
          "sgp_kind_served", "sgp_pods", "sgp_invalid_policies", "sgp_security_group_changes_total",
          "podlister_pods"}) {
        EXPECT_TRUE(std::any_of(expressions.begin(), expressions.end(),
                                [&](const std::string& expr) { return expr.find(family) != std::string::npos; }))
            << "no dashboard expression uses " << family;
    }
    // One recording rule per expression: promtool parses each as PromQL. (JSON is YAML.)
    std::string rules;
    for (size_t i = 0; i < expressions.size(); ++i) {
        Object rule;
        ASSERT_TRUE(rule.SetNestedString({"record"}, "dashboard_expr_" + std::to_string(i)).Ok());
        ASSERT_TRUE(rule.SetNestedString({"expr"}, expressions[i]).Ok());
        rules += (i == 0 ? "" : ",") + rule.ToJson();
    }
    TempDir dir;
    const std::string file = dir.Write("rules.json", R"({"groups":[{"name":"dashboards","rules":[)" + rules + "]}]}");
    ExpectPromtoolAccepts({"check", "rules", file});
}

TEST(ManifestsMonitoringTest, GrafanaKustomizationShipsEveryDashboard) {
    StatusOr<std::vector<Object>> built = KustomizeBuild(RepoPath("manifests/grafana"));
    ASSERT_TRUE(built.Ok()) << built.GetStatus();
    const Object* config_map = FindObject(*built, "ConfigMap", "ctrl-grafana-dashboards");
    ASSERT_NE(config_map, nullptr);
    EXPECT_EQ(config_map->Label("grafana_dashboard").value_or(""), "1");
    for (const std::string& file : DashboardFiles()) {
        const std::string key = fs::path(file).filename().string();
        EXPECT_EQ(StringAt(*config_map, {"data", key}), ReadRepoFile(file).ValueOr("?")) << key;
    }
}

TEST(ManifestsMonitoringTest, PlainScrapeConfigIsValidAndScrapesTheSecureService) {
    StatusOr<std::string> text = ReadRepoFile("manifests/prometheus/prometheus.yml");
    ASSERT_TRUE(text.Ok()) << text.GetStatus();
    StatusOr<std::string> json = YamlToJson(*text);
    ASSERT_TRUE(json.Ok()) << json.GetStatus();
    StatusOr<Object> config = Object::Parse(*json);
    ASSERT_TRUE(config.Ok()) << config.GetStatus();
    std::vector<Object> jobs = ObjectsAt(*config, {"scrape_configs"});
    ASSERT_EQ(jobs.size(), 1u);
    Object& job = jobs[0];
    EXPECT_EQ(StringAt(job, {"scheme"}), "https");
    const std::vector<Object> discovery = ObjectsAt(job, {"kubernetes_sd_configs"});
    ASSERT_EQ(discovery.size(), 1u);
    EXPECT_EQ(StringAt(discovery[0], {"role"}), "endpoints");
    EXPECT_EQ(StringAt(job, {"authorization", "credentials_file"}),
              "/var/run/secrets/kubernetes.io/serviceaccount/token");
    EXPECT_TRUE(BoolAt(job, {"tls_config", "insecure_skip_verify"}, false));
    const std::vector<Object> relabels = ObjectsAt(job, {"relabel_configs"});
    ASSERT_FALSE(relabels.empty());
    EXPECT_EQ(StringAt(relabels[0], {"action"}), "keep");
    EXPECT_EQ(StringAt(relabels[0], {"regex"}), "ctrl-operator-metrics;https");

    // Debian's promtool is built without Kubernetes service discovery ("field
    // kubernetes_sd_configs not found"), and it wants the token file to exist: check the rest
    // of the config with a static target and a token file of our own.
    TempDir dir;
    ASSERT_TRUE(job.RemoveNestedField({"kubernetes_sd_configs"}));
    StatusOr<Object> targets = Object::Parse(R"([{"targets":["127.0.0.1:8443"]}])");
    ASSERT_TRUE(targets.Ok());
    ASSERT_TRUE(job.SetNestedField({"static_configs"}, *targets).Ok());
    ASSERT_TRUE(job.SetNestedString({"authorization", "credentials_file"}, dir.Write("token", "t")).Ok());
    StatusOr<Object> replaced = Object::Parse("[" + job.ToJson() + "]");
    ASSERT_TRUE(replaced.Ok());
    ASSERT_TRUE(config->SetNestedField({"scrape_configs"}, *replaced).Ok());
    ExpectPromtoolAccepts({"check", "config", dir.Write("prometheus.yml", config->ToJson())});
}

}  // namespace
}  // namespace ctrl::testing
