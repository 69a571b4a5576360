// The transcoder against the real API server: every object, list and watch-list event read as
// protobuf and transcoded must be byte for byte the JSON the server sends for it.

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "ctrl/core/object.hpp"
#include "ctrl/protobuf/transcode.hpp"
#include "ctrl/protobuf/watch_frames.hpp"
#include "test/integration/protobuf/objects.hpp"
#include "test/integration/protobuf/server_bodies.hpp"
#include "test/support/workload.hpp"

namespace ctrl::protobuf::test {
namespace {

constexpr const char* kJson = "application/json";
constexpr const char* kProtobuf = "application/vnd.kubernetes.protobuf";
constexpr const char* kProtobufWatch = "application/vnd.kubernetes.protobuf;stream=watch";
constexpr int kWorkloadPods = 5;

std::string Replace(std::string text, const std::string& from, const std::string& to) {
    for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
        text.replace(at, from.size(), to);
    }
    return text;
}

std::string WithoutNewline(std::string body) {
    if (!body.empty() && body.back() == '\n') {
        body.pop_back();
    }
    return body;
}

bool JsonWatchDone(const std::string& body) {
    const std::size_t at = body.find("k8s.io/initial-events-end");
    return at != std::string::npos && body.find('\n', at) != std::string::npos;
}

bool ProtobufWatchDone(const std::string& body) {
    if (body.find("k8s.io/initial-events-end") == std::string::npos) {
        return false;
    }
    WatchFrameReader reader;
    reader.Append(body);
    while (true) {
        auto frame = reader.Next();
        if (!frame.Ok() || !frame->has_value()) {
            break;
        }
    }
    return reader.Pending() == 0;
}

// The shared objects: one namespace holding VariedObjects() and a few benchmark workload pods,
// plus the cluster-scoped ones; each object's path once created.
class TranscodeTest : public ::testing::Test {
  protected:
    static void SetUpTestSuite() {
        static std::mt19937 random{std::random_device{}()};
        workload_.prefix = "proto-" + std::to_string(100000 + random() % 900000);
        workload_.namespaces = 1;
        namespace_ = ctrl::testing::WorkloadNamespace(workload_, 0);
        server_ = new ServerBodies();
        const std::string ns_json = R"({"apiVersion":"v1","kind":"Namespace","metadata":{"name":")" + namespace_ +
                                    R"(","labels":{"purpose":"protobuf"},"annotations":{"a":"b"}}})";
        ASSERT_TRUE(server_->Send("POST", "/api/v1/namespaces", ns_json).Ok());
        paths_.push_back("/api/v1/namespaces/" + namespace_);
        for (int i = 0; i < kWorkloadPods; ++i) {
            const std::string body = ctrl::testing::WorkloadPod(workload_, 0, i).AsObject().ToJson();
            const std::string collection = "/api/v1/namespaces/" + namespace_ + "/pods";
            StatusOr<std::string> created = server_->Send("POST", collection, body);
            ASSERT_TRUE(created.Ok()) << created.GetStatus();
            paths_.push_back(collection + "/" + ctrl::testing::WorkloadPodName(workload_, i));
        }
        for (const TestObject& object : VariedObjects()) {
            const std::string collection = Replace(object.collection, "NS", namespace_);
            StatusOr<std::string> created = server_->Send("POST", collection, Replace(object.json, "NS", namespace_));
            if (!created.Ok()) {
                ADD_FAILURE() << collection << ": " << created.GetStatus();
                continue;
            }
            StatusOr<Object> parsed = Object::Parse(*created);
            ASSERT_TRUE(parsed.Ok());
            const std::string path = collection + "/" + std::string(parsed->Name());
            if (!object.status_patch.empty()) {
                StatusOr<std::string> patched =
                    server_->Send("PATCH", path + "/status", object.status_patch, "application/merge-patch+json");
                EXPECT_TRUE(patched.Ok()) << path << ": " << patched.GetStatus();
            }
            paths_.push_back(path);
        }
    }

    static void TearDownTestSuite() {
        delete server_;
        server_ = nullptr;
    }

    // Requires the transcoded protobuf body of target to equal its JSON body.
    static void ExpectSame(const std::string& target) {
        StatusOr<std::string> json = server_->Get(target, kJson);
        StatusOr<std::string> pb = server_->Get(target, kProtobuf);
        ASSERT_TRUE(json.Ok()) << target << ": " << json.GetStatus();
        ASSERT_TRUE(pb.Ok()) << target << ": " << pb.GetStatus();
        ASSERT_EQ(pb->substr(0, 4), kEnvelopeMagic) << target << ": the server did not answer protobuf";
        StatusOr<std::string> transcoded = JsonForEnvelope(*pb);
        ASSERT_TRUE(transcoded.Ok()) << target << ": " << transcoded.GetStatus();
        EXPECT_EQ(*transcoded, WithoutNewline(*json)) << target;
        ++compared_;
    }

    static inline ctrl::testing::WorkloadOptions workload_;
    static inline std::string namespace_;
    static inline ServerBodies* server_ = nullptr;
    static inline std::vector<std::string> paths_;
    static inline int compared_ = 0;
};

TEST_F(TranscodeTest, EveryObjectAsProtobufTranscodesToTheServersJson) {
    ASSERT_GT(paths_.size(), 30u);
    for (const std::string& path : paths_) {
        ExpectSame(path);
    }
    std::printf("compared %d objects\n", compared_);
}

TEST_F(TranscodeTest, EveryListAsProtobufTranscodesToTheServersJson) {
    int lists = 0;
    for (const std::string& collection : Collections()) {
        ExpectSame(Replace(collection, "NS", namespace_));
        ++lists;
    }
    // Lists of the control plane's own objects too: every namespace, service, the system's RBAC.
    for (const char* target :
         {"/api/v1/namespaces", "/api/v1/services", "/api/v1/configmaps",
          "/apis/rbac.authorization.k8s.io/v1/clusterroles", "/apis/rbac.authorization.k8s.io/v1/clusterrolebindings",
          "/apis/flowcontrol.apiserver.k8s.io/v1/flowschemas",
          "/apis/flowcontrol.apiserver.k8s.io/v1/prioritylevelconfigurations",
          "/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies", "/api/v1/pods?limit=2"}) {
        ExpectSame(target);
        ++lists;
    }
    std::printf("compared %d lists\n", lists);
}

TEST_F(TranscodeTest, WatchListStreamsTranscodeToTheServersJsonEvents) {
    int events = 0;
    for (const std::string& collection : Collections()) {
        const std::string target = Replace(collection, "NS", namespace_);
        StatusOr<std::string> json = server_->WatchList(target, kJson, JsonWatchDone);
        StatusOr<std::string> pb = server_->WatchList(target, kProtobufWatch, ProtobufWatchDone);
        ASSERT_TRUE(json.Ok()) << target << ": " << json.GetStatus();
        ASSERT_TRUE(pb.Ok()) << target << ": " << pb.GetStatus();
        const std::vector<std::string> want = JsonWatchEvents(*json);
        const std::vector<std::string> got = TranscodedWatchEvents(*pb);
        ASSERT_EQ(got.size(), want.size()) << target;
        for (std::size_t i = 0; i < want.size(); ++i) {
            EXPECT_EQ(got[i], want[i]) << target << " event " << i;
        }
        events += static_cast<int>(want.size());
    }
    std::printf("compared %d watch events\n", events);
}

TEST_F(TranscodeTest, WatchedChangesTranscodeToTheServersJsonEvents) {
    // Changes after a list's resourceVersion, watched from it in both encodings: ADDED, MODIFIED
    // (labels, data, a deletionTimestamp) and DELETED events.
    const std::string configmaps = "/api/v1/namespaces/" + namespace_ + "/configmaps";
    const std::string pods = "/api/v1/namespaces/" + namespace_ + "/pods";
    StatusOr<std::string> list = server_->Get(configmaps, kJson);
    ASSERT_TRUE(list.Ok()) << list.GetStatus();
    StatusOr<Object> parsed = Object::Parse(*list);
    ASSERT_TRUE(parsed.Ok());
    const std::string from = std::string(parsed->ResourceVersion());
    ASSERT_FALSE(from.empty());
    const std::string cm = R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"changing"},"data":{"a":"1"}})";
    ASSERT_TRUE(server_->Send("POST", configmaps, cm).Ok());
    ASSERT_TRUE(server_
                    ->Send("PATCH", configmaps + "/changing", R"({"data":{"b":"<2>"},"binaryData":{"x":"AAE="}})",
                           "application/merge-patch+json")
                    .Ok());
    ASSERT_TRUE(server_->Send("DELETE", configmaps + "/changing", "").Ok());
    const std::string pod = pods + "/" + ctrl::testing::WorkloadPodName(workload_, kWorkloadPods - 1);
    ASSERT_TRUE(
        server_->Send("PATCH", pod, R"({"metadata":{"labels":{"changed":"yes"}}})", "application/merge-patch+json")
            .Ok());
    ASSERT_TRUE(server_->Send("DELETE", pod, R"({"gracePeriodSeconds":0})").Ok());
    int events = 0;
    for (const std::string& collection : {configmaps, pods}) {
        // The server ends each watch after a second; nothing else changes the namespace meanwhile.
        const std::string target = collection + "?watch=true&resourceVersion=" + from + "&timeoutSeconds=1";
        StatusOr<std::string> json = server_->Get(target, kJson);
        StatusOr<std::string> pb = server_->Get(target, kProtobufWatch);
        ASSERT_TRUE(json.Ok()) << json.GetStatus();
        ASSERT_TRUE(pb.Ok()) << pb.GetStatus();
        const std::vector<std::string> want = JsonWatchEvents(*json);
        const std::vector<std::string> got = TranscodedWatchEvents(*pb);
        ASSERT_GE(want.size(), 3u) << *json;
        ASSERT_EQ(got.size(), want.size()) << collection;
        for (std::size_t i = 0; i < want.size(); ++i) {
            EXPECT_EQ(got[i], want[i]) << collection << " event " << i;
        }
        events += static_cast<int>(want.size());
    }
    std::printf("compared %d watched changes\n", events);
}

TEST_F(TranscodeTest, KindsOutsideClientGosSchemeAreNoMatch) {
    // kube-aggregator's APIService is served as protobuf but is not in client-go's scheme: the
    // caller falls back to JSON.
    StatusOr<std::string> pb = server_->Get("/apis/apiregistration.k8s.io/v1/apiservices", kProtobuf);
    ASSERT_TRUE(pb.Ok()) << pb.GetStatus();
    StatusOr<std::string> transcoded = JsonForEnvelope(*pb);
    ASSERT_FALSE(transcoded.Ok());
    EXPECT_EQ(transcoded.GetStatus().Code(), StatusCode::kNoMatch) << transcoded.GetStatus();
    EXPECT_FALSE(HasBuiltinSchema("apiregistration.k8s.io/v1", "APIServiceList"));
    EXPECT_TRUE(HasBuiltinSchema("v1", "PodList"));
}

TEST_F(TranscodeTest, StatusErrorsTranscode) {
    // A NotFound answered as protobuf is a metav1.Status in an envelope.
    for (const std::string& target : {std::string("/api/v1/namespaces/") + namespace_ + "/pods/absent",
                                      std::string("/apis/apps/v1/namespaces/") + namespace_ + "/deployments/absent"}) {
        StatusOr<std::string> json = server_->Get(target, kJson);
        StatusOr<std::string> pb = server_->Get(target, kProtobuf);
        ASSERT_FALSE(json.Ok());
        ASSERT_FALSE(pb.Ok());
        EXPECT_EQ(pb.GetStatus().Code(), json.GetStatus().Code());
    }
}

}  // namespace
}  // namespace ctrl::protobuf::test
