#include "test/integration/protobuf/objects.hpp"

namespace ctrl::protobuf::test {
namespace {

constexpr const char* kRichPod = R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"rich",
 "labels":{"app":"rich","z":"1","a":"2"},
 "annotations":{"html":"<b>&amp;</b>","unicode":"caf\u00e9 \u2028 line \u2029 \ud83d\ude00","ctl":"tab\there\nnl \u0001 \u007f","empty":""},
 "finalizers":["example.com/keep"]},
 "spec":{"restartPolicy":"Always","terminationGracePeriodSeconds":30,"serviceAccountName":"sa","automountServiceAccountToken":false,"activeDeadlineSeconds":3600,
  "dnsPolicy":"None","dnsConfig":{"nameservers":["1.1.1.1"],"searches":["a.local"],"options":[{"name":"ndots","value":"2"},{"name":"edns0"}]},
  "hostAliases":[{"ip":"10.0.0.1","hostnames":["x","y"]}],
  "nodeSelector":{"disk":"ssd","zone":"a"},
  "schedulingGates":[{"name":"example.com/gate"}],
  "readinessGates":[{"conditionType":"example.com/ready"}],
  "securityContext":{"runAsUser":1000,"runAsGroup":0,"runAsNonRoot":true,"fsGroup":2000,"supplementalGroups":[5,6],
   "sysctls":[{"name":"net.core.somaxconn","value":"1024"}],"seccompProfile":{"type":"RuntimeDefault"}},
  "affinity":{"nodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":[{"matchExpressions":[{"key":"k","operator":"In","values":["a","b"]}]}]},
    "preferredDuringSchedulingIgnoredDuringExecution":[{"weight":10,"preference":{"matchFields":[{"key":"metadata.name","operator":"NotIn","values":["n"]}]}}]},
   "podAntiAffinity":{"preferredDuringSchedulingIgnoredDuringExecution":[{"weight":100,"podAffinityTerm":{"labelSelector":{"matchLabels":{"app":"rich"}},"topologyKey":"kubernetes.io/hostname"}}]}},
  "tolerations":[{"key":"t","operator":"Exists","effect":"NoExecute","tolerationSeconds":30},{"operator":"Exists"}],
  "topologySpreadConstraints":[{"maxSkew":1,"topologyKey":"zone","whenUnsatisfiable":"DoNotSchedule","labelSelector":{"matchExpressions":[{"key":"app","operator":"Exists"}]},"minDomains":2}],
  "volumes":[{"name":"cm","configMap":{"name":"c","defaultMode":420,"items":[{"key":"a","path":"b","mode":256}],"optional":true}},
   {"name":"sec","secret":{"secretName":"s"}},
   {"name":"tmp","emptyDir":{"medium":"Memory","sizeLimit":"1.5Gi"}},
   {"name":"host","hostPath":{"path":"/tmp","type":"Directory"}},
   {"name":"pvc","persistentVolumeClaim":{"claimName":"claim","readOnly":true}},
   {"name":"proj","projected":{"sources":[{"serviceAccountToken":{"path":"token","expirationSeconds":3600,"audience":"api"}},
     {"downwardAPI":{"items":[{"path":"labels","fieldRef":{"fieldPath":"metadata.labels"}},{"path":"cpu","resourceFieldRef":{"containerName":"main","resource":"limits.cpu","divisor":"1m"}}]}}]}},
   {"name":"eph","ephemeral":{"volumeClaimTemplate":{"spec":{"accessModes":["ReadWriteOnce"],"resources":{"requests":{"storage":"1Gi"}}}}}}],
  "initContainers":[{"name":"init","image":"busybox:1","command":["sh","-c","true"],"restartPolicy":"Always",
    "startupProbe":{"exec":{"command":["true"]},"periodSeconds":1}}],
  "containers":[{"name":"main","image":"nginx:1.27","args":["--x=1"],"workingDir":"/w",
    "ports":[{"name":"http","containerPort":8080,"protocol":"TCP"},{"containerPort":53,"protocol":"UDP","hostPort":5353}],
    "env":[{"name":"A","value":"1"},{"name":"POD","valueFrom":{"fieldRef":{"fieldPath":"metadata.name"}}},
     {"name":"MEM","valueFrom":{"resourceFieldRef":{"resource":"limits.memory","divisor":"1Mi"}}},
     {"name":"S","valueFrom":{"secretKeyRef":{"name":"s","key":"k","optional":false}}}],
    "envFrom":[{"prefix":"CM_","configMapRef":{"name":"c"}}],
    "resources":{"limits":{"cpu":"1500m","memory":"2Gi","ephemeral-storage":"1e9"},"requests":{"cpu":"0.25","memory":"1024Mi"}},
    "resizePolicy":[{"resourceName":"cpu","restartPolicy":"NotRequired"}],
    "volumeMounts":[{"name":"cm","mountPath":"/cm","readOnly":true,"subPath":"x"},{"name":"tmp","mountPath":"/tmp","mountPropagation":"None"}],
    "livenessProbe":{"httpGet":{"path":"/healthz","port":"http","scheme":"HTTPS","httpHeaders":[{"name":"X","value":"y"}]},"initialDelaySeconds":3,"timeoutSeconds":2,"failureThreshold":5},
    "readinessProbe":{"tcpSocket":{"port":8080},"successThreshold":1},
    "startupProbe":{"grpc":{"port":9090,"service":"health"}},
    "lifecycle":{"preStop":{"sleep":{"seconds":5}},"postStart":{"exec":{"command":["echo"]}}},
    "securityContext":{"privileged":false,"allowPrivilegeEscalation":false,"readOnlyRootFilesystem":true,"capabilities":{"add":["NET_ADMIN"],"drop":["ALL"]}},
    "stdin":true,"tty":true,"terminationMessagePolicy":"FallbackToLogsOnError","imagePullPolicy":"IfNotPresent"}]}})";

constexpr const char* kRichPodStatus = R"({"status":{"phase":"Running","message":"m","reason":"r",
 "hostIP":"10.0.0.2","hostIPs":[{"ip":"10.0.0.2"}],"podIP":"10.1.0.5","podIPs":[{"ip":"10.1.0.5"},{"ip":"fd00::5"}],
 "startTime":"2026-01-02T03:04:05Z",
 "conditions":[{"type":"Ready","status":"True","lastProbeTime":null,"lastTransitionTime":"2026-01-02T03:04:06Z"},
  {"type":"example.com/ready","status":"False","reason":"NotYet","message":"waiting"}],
 "containerStatuses":[{"name":"main","ready":true,"restartCount":3,"image":"nginx:1.27","imageID":"docker://sha256:abc","containerID":"containerd://123",
   "started":true,"state":{"running":{"startedAt":"2026-01-02T03:04:07Z"}},
   "lastState":{"terminated":{"exitCode":137,"signal":9,"reason":"OOMKilled","startedAt":"2026-01-01T00:00:00Z","finishedAt":"2026-01-01T00:10:00Z","containerID":"containerd://122"}},
   "allocatedResources":{"cpu":"1500m"},"resources":{"limits":{"cpu":"1500m"}}}]}})";

constexpr const char* kNode =
    R"({"apiVersion":"v1","kind":"Node","metadata":{"name":"NS-node","labels":{"kubernetes.io/hostname":"h"}},
 "spec":{"podCIDR":"10.1.0.0/24","podCIDRs":["10.1.0.0/24","fd00::/64"],"unschedulable":true,
  "taints":[{"key":"k","value":"v","effect":"NoSchedule"},{"key":"gone","effect":"NoExecute","timeAdded":"2026-01-01T00:00:00Z"}]}})";

constexpr const char* kNodeStatus =
    R"({"status":{"capacity":{"cpu":"4","memory":"16387244Ki","pods":"110","hugepages-2Mi":"0"},
 "allocatable":{"cpu":"3800m","memory":"15Gi","pods":"110"},
 "conditions":[{"type":"Ready","status":"True","lastHeartbeatTime":"2026-01-02T00:00:00Z","lastTransitionTime":"2026-01-01T00:00:00Z","reason":"KubeletReady","message":"ok"}],
 "addresses":[{"type":"InternalIP","address":"10.0.0.2"},{"type":"Hostname","address":"h"}],
 "daemonEndpoints":{"kubeletEndpoint":{"Port":10250}},
 "nodeInfo":{"machineID":"m","systemUUID":"u","bootID":"b","kernelVersion":"6.1","osImage":"Debian","containerRuntimeVersion":"containerd://1.7","kubeletVersion":"v1.37.2","kubeProxyVersion":"","operatingSystem":"linux","architecture":"amd64"},
 "images":[{"names":["nginx:1.27","nginx@sha256:abc"],"sizeBytes":70000000000}]}})";

}  // namespace

std::vector<TestObject> VariedObjects() {
    return {
        {"/api/v1/namespaces/NS/serviceaccounts",
         R"({"apiVersion":"v1","kind":"ServiceAccount","metadata":{"name":"sa"},"automountServiceAccountToken":false,"imagePullSecrets":[{"name":"pull"}]})"},
        {"/api/v1/namespaces/NS/pods", kRichPod, kRichPodStatus},
        {"/api/v1/namespaces/NS/pods",
         R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"minimal"},"spec":{"containers":[{"name":"c","image":"i"}]}})"},
        {"/api/v1/namespaces/NS/services",
         R"({"apiVersion":"v1","kind":"Service","metadata":{"name":"cip"},"spec":{"selector":{"app":"x"},"ports":[{"name":"a","port":80,"targetPort":8080},{"name":"b","port":443,"targetPort":"https","protocol":"TCP","appProtocol":"https"}],"sessionAffinity":"ClientIP","sessionAffinityConfig":{"clientIP":{"timeoutSeconds":600}}}})"},
        {"/api/v1/namespaces/NS/services",
         R"({"apiVersion":"v1","kind":"Service","metadata":{"name":"lb"},"spec":{"type":"LoadBalancer","externalTrafficPolicy":"Local","allocateLoadBalancerNodePorts":false,"ipFamilyPolicy":"SingleStack","ports":[{"port":80}],"loadBalancerSourceRanges":["10.0.0.0/8"]}})"},
        {"/api/v1/namespaces/NS/services",
         R"({"apiVersion":"v1","kind":"Service","metadata":{"name":"ext"},"spec":{"type":"ExternalName","externalName":"example.com"}})"},
        {"/api/v1/namespaces/NS/configmaps",
         R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm"},"immutable":true,"data":{"b":"2","a":"1\n<&>","empty":""},"binaryData":{"bin":"AP8Q/w==","e":""}})"},
        {"/api/v1/namespaces/NS/configmaps", R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"empty"}})"},
        {"/api/v1/namespaces/NS/secrets",
         R"({"apiVersion":"v1","kind":"Secret","metadata":{"name":"sec"},"type":"Opaque","data":{"k":"AAECAwQF/w=="},"stringData":{"s":"text"}})"},
        {"/api/v1/namespaces/NS/persistentvolumeclaims",
         R"({"apiVersion":"v1","kind":"PersistentVolumeClaim","metadata":{"name":"claim"},"spec":{"accessModes":["ReadWriteOnce"],"resources":{"requests":{"storage":"10Gi"},"limits":{"storage":"20G"}},"storageClassName":"","volumeMode":"Filesystem"}})"},
        {"/api/v1/namespaces/NS/events",
         R"({"apiVersion":"v1","kind":"Event","metadata":{"name":"ev1"},"involvedObject":{"kind":"Pod","namespace":"NS","name":"rich","uid":"u-1","apiVersion":"v1","fieldPath":"spec.containers{main}"},"reason":"Started","message":"Started container <main> & more","source":{"component":"kubelet","host":"h"},"firstTimestamp":"2026-01-01T00:00:00Z","lastTimestamp":"2026-01-01T00:05:00Z","count":7,"type":"Normal"})"},
        {"/apis/events.k8s.io/v1/namespaces/NS/events",
         R"({"apiVersion":"events.k8s.io/v1","kind":"Event","metadata":{"name":"ev2"},"eventTime":"2026-01-01T00:00:00.123456Z","series":{"count":2,"lastObservedTime":"2026-01-01T00:01:00.000001Z"},"reportingController":"example.com/c","reportingInstance":"i-1","action":"Reconcile","reason":"Synced","regarding":{"kind":"Pod","namespace":"NS","name":"rich"},"note":"done","type":"Warning"})"},
        {"/apis/coordination.k8s.io/v1/namespaces/NS/leases",
         R"({"apiVersion":"coordination.k8s.io/v1","kind":"Lease","metadata":{"name":"lease"},"spec":{"holderIdentity":"me_1234","leaseDurationSeconds":15,"acquireTime":"2026-01-01T00:00:00.000000Z","renewTime":"2026-01-01T00:00:10.654321Z","leaseTransitions":3}})"},
        {"/apis/apps/v1/namespaces/NS/deployments",
         R"({"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"dep","labels":{"app":"dep"}},"spec":{"replicas":0,"revisionHistoryLimit":3,"progressDeadlineSeconds":120,"minReadySeconds":5,"strategy":{"type":"RollingUpdate","rollingUpdate":{"maxSurge":"25%","maxUnavailable":1}},"selector":{"matchLabels":{"app":"dep"}},"template":{"metadata":{"labels":{"app":"dep"}},"spec":{"containers":[{"name":"c","image":"i","resources":{"requests":{"cpu":"100m"}}}]}}}})"},
        {"/apis/apps/v1/namespaces/NS/statefulsets",
         R"({"apiVersion":"apps/v1","kind":"StatefulSet","metadata":{"name":"sts"},"spec":{"replicas":0,"serviceName":"cip","selector":{"matchLabels":{"app":"sts"}},"updateStrategy":{"type":"RollingUpdate","rollingUpdate":{"partition":1,"maxUnavailable":"50%"}},"persistentVolumeClaimRetentionPolicy":{"whenDeleted":"Delete","whenScaled":"Retain"},"template":{"metadata":{"labels":{"app":"sts"}},"spec":{"containers":[{"name":"c","image":"i"}]}},"volumeClaimTemplates":[{"metadata":{"name":"data"},"spec":{"accessModes":["ReadWriteOnce"],"resources":{"requests":{"storage":"1Gi"}}}}]}})"},
        {"/apis/apps/v1/namespaces/NS/daemonsets",
         R"({"apiVersion":"apps/v1","kind":"DaemonSet","metadata":{"name":"ds"},"spec":{"selector":{"matchLabels":{"app":"ds"}},"updateStrategy":{"rollingUpdate":{"maxSurge":0,"maxUnavailable":"10%"}},"template":{"metadata":{"labels":{"app":"ds"}},"spec":{"containers":[{"name":"c","image":"i"}]}}}})"},
        {"/apis/batch/v1/namespaces/NS/jobs",
         R"({"apiVersion":"batch/v1","kind":"Job","metadata":{"name":"job"},"spec":{"suspend":true,"completions":5,"parallelism":2,"backoffLimit":3,"activeDeadlineSeconds":600,"ttlSecondsAfterFinished":60,"completionMode":"Indexed","backoffLimitPerIndex":1,"maxFailedIndexes":2,"podFailurePolicy":{"rules":[{"action":"Ignore","onPodConditions":[{"type":"DisruptionTarget","status":"True"}]},{"action":"FailIndex","onExitCodes":{"containerName":"c","operator":"In","values":[1,2,42]}}]},"template":{"spec":{"restartPolicy":"Never","containers":[{"name":"c","image":"i"}]}}}})"},
        {"/apis/batch/v1/namespaces/NS/cronjobs",
         R"({"apiVersion":"batch/v1","kind":"CronJob","metadata":{"name":"cron"},"spec":{"schedule":"*/5 * * * *","timeZone":"Etc/UTC","suspend":true,"concurrencyPolicy":"Forbid","startingDeadlineSeconds":30,"jobTemplate":{"spec":{"template":{"spec":{"restartPolicy":"OnFailure","containers":[{"name":"c","image":"i"}]}}}}}})"},
        {"/apis/discovery.k8s.io/v1/namespaces/NS/endpointslices",
         R"({"apiVersion":"discovery.k8s.io/v1","kind":"EndpointSlice","metadata":{"name":"es","labels":{"kubernetes.io/service-name":"cip"}},"addressType":"IPv4","endpoints":[{"addresses":["10.1.0.5"],"conditions":{"ready":true,"serving":true,"terminating":false},"hostname":"h","nodeName":"n","zone":"z","hints":{"forZones":[{"name":"z"}]},"targetRef":{"kind":"Pod","name":"rich","namespace":"NS"}},{"addresses":["10.1.0.6"],"conditions":{}}],"ports":[{"name":"http","port":8080,"protocol":"TCP","appProtocol":"http"},{"port":53}]})"},
        {"/apis/networking.k8s.io/v1/namespaces/NS/networkpolicies",
         R"({"apiVersion":"networking.k8s.io/v1","kind":"NetworkPolicy","metadata":{"name":"np"},"spec":{"podSelector":{},"policyTypes":["Ingress","Egress"],"ingress":[{"from":[{"ipBlock":{"cidr":"10.0.0.0/8","except":["10.1.0.0/16"]}},{"namespaceSelector":{"matchLabels":{"a":"b"}}}],"ports":[{"protocol":"TCP","port":80,"endPort":90},{"port":"http"}]}],"egress":[{}]}})"},
        {"/apis/networking.k8s.io/v1/namespaces/NS/ingresses",
         R"({"apiVersion":"networking.k8s.io/v1","kind":"Ingress","metadata":{"name":"ing"},"spec":{"ingressClassName":"nginx","tls":[{"hosts":["a.example.com"],"secretName":"tls"}],"defaultBackend":{"service":{"name":"cip","port":{"name":"a"}}},"rules":[{"host":"a.example.com","http":{"paths":[{"path":"/","pathType":"Prefix","backend":{"service":{"name":"cip","port":{"number":80}}}}]}}]}})"},
        {"/apis/policy/v1/namespaces/NS/poddisruptionbudgets",
         R"({"apiVersion":"policy/v1","kind":"PodDisruptionBudget","metadata":{"name":"pdb-pct"},"spec":{"minAvailable":"50%","selector":{"matchExpressions":[{"key":"app","operator":"In","values":["x"]}]},"unhealthyPodEvictionPolicy":"AlwaysAllow"}})"},
        {"/apis/policy/v1/namespaces/NS/poddisruptionbudgets",
         R"({"apiVersion":"policy/v1","kind":"PodDisruptionBudget","metadata":{"name":"pdb-int"},"spec":{"maxUnavailable":1,"selector":{"matchLabels":{"app":"x"}}}})"},
        {"/apis/rbac.authorization.k8s.io/v1/namespaces/NS/roles",
         R"({"apiVersion":"rbac.authorization.k8s.io/v1","kind":"Role","metadata":{"name":"role"},"rules":[{"apiGroups":[""],"resources":["pods","pods/log"],"verbs":["get","list","watch"],"resourceNames":["a"]}]})"},
        {"/apis/rbac.authorization.k8s.io/v1/namespaces/NS/rolebindings",
         R"({"apiVersion":"rbac.authorization.k8s.io/v1","kind":"RoleBinding","metadata":{"name":"rb"},"roleRef":{"apiGroup":"rbac.authorization.k8s.io","kind":"Role","name":"role"},"subjects":[{"kind":"ServiceAccount","name":"sa","namespace":"NS"},{"kind":"User","name":"alice","apiGroup":"rbac.authorization.k8s.io"}]})"},
        {"/apis/rbac.authorization.k8s.io/v1/clusterroles",
         R"({"apiVersion":"rbac.authorization.k8s.io/v1","kind":"ClusterRole","metadata":{"name":"NS-agg"},"aggregationRule":{"clusterRoleSelectors":[{"matchLabels":{"agg":"NS"}}]}})"},
        {"/apis/rbac.authorization.k8s.io/v1/clusterroles",
         R"({"apiVersion":"rbac.authorization.k8s.io/v1","kind":"ClusterRole","metadata":{"name":"NS-cr","labels":{"agg":"NS"}},"rules":[{"nonResourceURLs":["/healthz","/metrics"],"verbs":["get"]}]})"},
        {"/apis/rbac.authorization.k8s.io/v1/clusterrolebindings",
         R"({"apiVersion":"rbac.authorization.k8s.io/v1","kind":"ClusterRoleBinding","metadata":{"name":"NS-crb"},"roleRef":{"apiGroup":"rbac.authorization.k8s.io","kind":"ClusterRole","name":"NS-cr"},"subjects":[{"kind":"Group","name":"g","apiGroup":"rbac.authorization.k8s.io"}]})"},
        {"/api/v1/nodes", kNode, kNodeStatus},
        {"/apis/scheduling.k8s.io/v1/priorityclasses",
         R"({"apiVersion":"scheduling.k8s.io/v1","kind":"PriorityClass","metadata":{"name":"NS-prio"},"value":1000,"globalDefault":false,"description":"d","preemptionPolicy":"Never"})"},
        // Last: they constrain what is created after them.
        {"/api/v1/namespaces/NS/resourcequotas",
         R"({"apiVersion":"v1","kind":"ResourceQuota","metadata":{"name":"q"},"spec":{"hard":{"pods":"1k","requests.storage":"0.5Ti","services":"1e2"}}})"},
        {"/api/v1/namespaces/NS/limitranges",
         R"({"apiVersion":"v1","kind":"LimitRange","metadata":{"name":"lr"},"spec":{"limits":[{"type":"Container","max":{"cpu":"2"},"min":{"cpu":"10m"},"default":{"memory":"128Mi"},"maxLimitRequestRatio":{"cpu":"4"}}]}})"},
    };
}

std::vector<std::string> Collections() {
    std::vector<std::string> out;
    for (const TestObject& object : VariedObjects()) {
        bool seen = false;
        for (const std::string& c : out) {
            seen = seen || c == object.collection;
        }
        if (!seen) {
            out.push_back(object.collection);
        }
    }
    return out;
}

}  // namespace ctrl::protobuf::test
