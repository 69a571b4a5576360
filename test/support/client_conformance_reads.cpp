// Conformance cases for reads: Get in every form, List with namespaces, selectors and pages, the
// errors of reads, and the kind and scope of objects.
#include <gmock/gmock.h>

#include "ctrl/api/namespace.hpp"
#include "test/support/client_conformance.hpp"
#include "test/support/internal/conformance_objects.hpp"

namespace ctrl::testing {
namespace {

using client::Client;
using internal::CaseContext;
using internal::Names;
using internal::NewConfigMap;
using ::testing::UnorderedElementsAre;

Task<void> GetReadsEveryForm(Client& client, std::string ns) {
    const Context ctx = CaseContext();
    api::ConfigMap created = NewConfigMap(ns, "settings", {{"app", "web"}}, {{"mode", "fast"}});
    CONFORMANCE_CO_ASSERT_OK(co_await client.Create(ctx, created));
    const ObjectKey key{ns, "settings"};

    api::ConfigMap typed;
    CONFORMANCE_CO_ASSERT_OK(co_await client.Get(ctx, key, typed));
    EXPECT_EQ(typed.DataValue("mode"), "fast");
    EXPECT_EQ(typed.ResourceVersion(), created.ResourceVersion());
    EXPECT_EQ(typed.Uid(), created.Uid());
    EXPECT_EQ(typed.Kind(), "ConfigMap");
    EXPECT_EQ(typed.ApiVersion(), "v1");

    Object unstructured;
    unstructured.SetApiVersion("v1");
    unstructured.SetKind("ConfigMap");
    CONFORMANCE_CO_ASSERT_OK(co_await client.Get(ctx, key, unstructured));
    EXPECT_EQ(unstructured.NestedString({"data", "mode"}).ValueOr(""), "fast");
    EXPECT_EQ(unstructured.Label("app"), "web");

    const GroupVersionKind config_map{"", "v1", "ConfigMap"};
    client::PartialObjectMetadata metadata(config_map);
    CONFORMANCE_CO_ASSERT_OK(co_await client.Get(ctx, key, metadata));
    EXPECT_EQ(metadata.ApiVersion(), "v1");
    EXPECT_EQ(metadata.Kind(), "ConfigMap");
    EXPECT_EQ(metadata.Uid(), created.Uid());
    EXPECT_EQ(metadata.Label("app"), "web");
    EXPECT_FALSE(metadata.HasNestedField({"data"})) << metadata.ToJson();

    // From the watch cache, no older than the write ("0" may answer NotFound right after it).
    client::GetOptions cached;
    cached.resource_version = created.ResourceVersion();
    api::ConfigMap from_cache;
    const Status cached_read = co_await client.Get(ctx, key, from_cache, cached);
    EXPECT_TRUE(cached_read.Ok()) << cached_read;
    EXPECT_EQ(from_cache.DataValue("mode"), "fast");
}

Task<void> GetOfAClusterScopedKindIgnoresTheNamespace(Client& client, std::string ns) {
    const Context ctx = CaseContext();
    const ObjectKey key{"some-namespace", ns};
    api::Namespace read;
    CONFORMANCE_CO_ASSERT_OK(co_await client.Get(ctx, key, read));
    EXPECT_EQ(read.Name(), ns);
    EXPECT_EQ(static_cast<const Object&>(read).Namespace(), "");
    EXPECT_EQ(read.Phase(), "Active");
    EXPECT_EQ(read.Label("kubernetes.io/metadata.name"), ns);

    api::NamespaceList namespaces;
    CONFORMANCE_CO_ASSERT_OK(co_await client.List(ctx, namespaces));
    EXPECT_TRUE(Names(namespaces).contains(ns));
}

Task<void> ReadErrorsCarryTheServerCodes(Client& client, std::string ns) {
    const Context ctx = CaseContext();
    api::ConfigMap cm;
    const ObjectKey absent{ns, "absent"};
    const Status missing = co_await client.Get(ctx, absent, cm);
    ExpectServerStatus(missing, StatusCode::kNotFound, 404, "NotFound", "configmaps \"absent\" not found", "Get");

    Object widget;
    widget.SetApiVersion("nope.example.com/v1");
    widget.SetKind("Widget");
    const ObjectKey w{ns, "w"};
    const Status no_match = co_await client.Get(ctx, w, widget);
    EXPECT_TRUE(IsNoMatch(no_match)) << no_match;
    EXPECT_THAT(no_match.Message(), ::testing::HasSubstr("no matches for kind \"Widget\""));

    const ObjectKey no_namespace{"", "settings"};
    const Status unnamespaced = co_await client.Get(ctx, no_namespace, cm);
    EXPECT_TRUE(IsInvalid(unnamespaced)) << unnamespaced;
    EXPECT_THAT(unnamespaced.Message(), ::testing::HasSubstr("metadata.namespace"));
    const ObjectKey no_name{ns, ""};
    const Status unnamed = co_await client.Get(ctx, no_name, cm);
    EXPECT_TRUE(IsInvalid(unnamed)) << unnamed;
    EXPECT_THAT(unnamed.Message(), ::testing::HasSubstr("metadata.name"));
    Object no_kind;
    const ObjectKey x{ns, "x"};
    const Status kindless = co_await client.Get(ctx, x, no_kind);
    EXPECT_TRUE(IsBadRequest(kindless)) << kindless;

    ObjectList not_a_list;
    not_a_list.SetApiVersion("v1");
    not_a_list.SetKind("ConfigMap");
    const Status bad = co_await client.List(ctx, not_a_list);
    EXPECT_TRUE(IsBadRequest(bad)) << bad;
}

Task<void> ListSelectsByNamespaceLabelsAndFields(Client& client, std::string ns) {
    const Context ctx = CaseContext();
    for (int i = 0; i < 7; ++i) {
        api::ConfigMap cm = NewConfigMap(ns, "cm-" + std::to_string(i), {{"tier", i % 2 == 0 ? "even" : "odd"}});
        CONFORMANCE_CO_ASSERT_OK(co_await client.Create(ctx, cm));
    }
    client::ListOptions in_ns;
    in_ns.namespace_name = ns;
    api::ConfigMapList all;
    CONFORMANCE_CO_ASSERT_OK(co_await client.List(ctx, all, in_ns));
    EXPECT_EQ(all.Items().size(), 7u);
    EXPECT_FALSE(all.ResourceVersion().empty());
    EXPECT_TRUE(all.Continue().empty());
    for (const Object& item : all.Items())
        EXPECT_EQ(item.Kind(), "ConfigMap") << "items get their kind";

    client::ListOptions even_options = in_ns;
    even_options.label_selector = client::MatchingLabels("tier", "even").Selector();
    api::ConfigMapList even;
    CONFORMANCE_CO_ASSERT_OK(co_await client.List(ctx, even, even_options));
    EXPECT_THAT(Names(even), UnorderedElementsAre("cm-0", "cm-2", "cm-4", "cm-6"));

    StatusOr<LabelSelector> odd_selector = LabelSelector::Parse("tier in (odd),tier!=even");
    CONFORMANCE_CO_ASSERT(odd_selector.Ok());
    client::ListOptions odd_options = in_ns;
    odd_options.label_selector = *odd_selector;
    ObjectList odd;
    odd.SetApiVersion("v1");
    odd.SetKind("ConfigMapList");
    CONFORMANCE_CO_ASSERT_OK(co_await client.List(ctx, odd, odd_options));
    EXPECT_THAT(Names(odd), UnorderedElementsAre("cm-1", "cm-3", "cm-5"));
    CONFORMANCE_CO_ASSERT(!odd.Items().empty());
    EXPECT_EQ(odd.Items()[0].ApiVersion(), "v1");

    client::ListOptions by_name = in_ns;
    by_name.field_selector = client::MatchingFields("metadata.name", "cm-3").Selector();
    api::ConfigMapList named;
    CONFORMANCE_CO_ASSERT_OK(co_await client.List(ctx, named, by_name));
    EXPECT_THAT(Names(named), UnorderedElementsAre("cm-3"));

    client::ListOptions by_namespace;
    by_namespace.field_selector = client::MatchingFields("metadata.namespace", ns).Selector();
    api::ConfigMapList in_namespace;
    CONFORMANCE_CO_ASSERT_OK(co_await client.List(ctx, in_namespace, by_namespace));
    EXPECT_EQ(Names(in_namespace), Names(all));

    client::ListOptions unsupported = in_ns;
    unsupported.field_selector = client::MatchingFields("data.mode", "fast").Selector();
    api::ConfigMapList refused;
    const Status bad_field = co_await client.List(ctx, refused, unsupported);
    ExpectServerStatus(bad_field, StatusCode::kBadRequest, 400, "BadRequest",
                       "\"data.mode\" is not a known field selector: only \"metadata.name\", \"metadata.namespace\"",
                       "List with an unsupported field");

    client::ListOptions nothing;
    nothing.label_selector = LabelSelector::Nothing();
    api::ConfigMapList none;
    CONFORMANCE_CO_ASSERT_OK(co_await client.List(ctx, none, nothing));
    EXPECT_TRUE(none.Items().empty());
}

Task<void> ListPagesWithLimitAndContinue(Client& client, std::string ns) {
    const Context ctx = CaseContext();
    for (int i = 0; i < 7; ++i) {
        api::ConfigMap cm = NewConfigMap(ns, "page-" + std::to_string(i), {{"paged", "yes"}});
        CONFORMANCE_CO_ASSERT_OK(co_await client.Create(ctx, cm));
    }
    std::vector<std::string> paged;
    int pages = 0;
    std::string token;
    do {
        client::ListOptions options;
        options.namespace_name = ns;
        options.limit = 3;
        options.continue_token = token;
        api::ConfigMapList page;
        CONFORMANCE_CO_ASSERT_OK(co_await client.List(ctx, page, options));
        EXPECT_LE(page.Items().size(), 3u);
        for (const Object& item : page.Items())
            paged.emplace_back(item.Name());
        token = std::string(page.Continue());
        if (!token.empty()) {
            EXPECT_EQ(page.RemainingItemCount().value_or(-1), 7 - 3 * (pages + 1));
        }
        ++pages;
    } while (!token.empty() && pages < 10);
    EXPECT_EQ(pages, 3);
    EXPECT_THAT(paged, ::testing::ElementsAre("page-0", "page-1", "page-2", "page-3", "page-4", "page-5", "page-6"))
        << "in name order, none twice";

    client::ListOptions selecting;
    selecting.namespace_name = ns;
    selecting.limit = 2;
    selecting.label_selector = client::MatchingLabels("paged", "yes").Selector();
    api::ConfigMapList selected_page;
    CONFORMANCE_CO_ASSERT_OK(co_await client.List(ctx, selected_page, selecting));
    EXPECT_EQ(selected_page.Items().size(), 2u);
    EXPECT_FALSE(selected_page.Continue().empty());
    EXPECT_FALSE(selected_page.RemainingItemCount().has_value()) << "no count when a selector selects";

    client::ListOptions broken;
    broken.namespace_name = ns;
    broken.limit = 3;
    broken.continue_token = "not-a-token";
    api::ConfigMapList never;
    const Status bad_token = co_await client.List(ctx, never, broken);
    EXPECT_EQ(bad_token.Code(), StatusCode::kBadRequest) << bad_token;
}

Task<void> ListAcrossNamespacesAndMetadataOnly(Client& client, std::string ns) {
    const Context ctx = CaseContext();
    api::ConfigMap here = NewConfigMap(ns, "shared", {{"probe", ns}}, {{"secret-ish", "value"}});
    CONFORMANCE_CO_ASSERT_OK(co_await client.Create(ctx, here));
    api::ConfigMap elsewhere = NewConfigMap("default", ns, {{"probe", ns}});
    CONFORMANCE_CO_ASSERT_OK(co_await client.Create(ctx, elsewhere));

    client::ListOptions probe;
    probe.label_selector = client::MatchingLabels("probe", ns).Selector();
    api::ConfigMapList everywhere;
    CONFORMANCE_CO_ASSERT_OK(co_await client.List(ctx, everywhere, probe));
    std::set<std::string> namespaces;
    for (const Object& item : everywhere.Items())
        namespaces.emplace(item.Namespace());
    EXPECT_EQ(namespaces, (std::set<std::string>{"default", ns}));

    const GroupVersionKind config_map{"", "v1", "ConfigMap"};
    client::PartialObjectMetadataList metadata(config_map);
    client::ListOptions in_ns = probe;
    in_ns.namespace_name = ns;
    CONFORMANCE_CO_ASSERT_OK(co_await client.List(ctx, metadata, in_ns));
    CONFORMANCE_CO_ASSERT(metadata.Items().size() == 1u);
    EXPECT_EQ(metadata.Kind(), "ConfigMapList");
    EXPECT_EQ(metadata.Items()[0].Kind(), "ConfigMap");
    EXPECT_EQ(metadata.Items()[0].Name(), "shared");
    EXPECT_FALSE(metadata.Items()[0].HasNestedField({"data"})) << metadata.Items()[0].ToJson();

    CONFORMANCE_CO_ASSERT_OK(co_await client.Delete(ctx, elsewhere));
}

Task<void> KindAndScopeOfObjects(Client& client, std::string /*ns*/) {
    const Context ctx = CaseContext();
    api::Pod pod;
    StatusOr<GroupVersionKind> gvk = client.GroupVersionKindFor(pod);
    CONFORMANCE_CO_ASSERT(gvk.Ok());
    EXPECT_EQ(gvk->kind, "Pod");
    StatusOr<bool> pod_namespaced = co_await client.IsObjectNamespaced(ctx, pod);
    CONFORMANCE_CO_ASSERT(pod_namespaced.Ok());
    EXPECT_TRUE(*pod_namespaced);
    api::Namespace ns_kind;
    StatusOr<bool> ns_namespaced = co_await client.IsObjectNamespaced(ctx, ns_kind);
    CONFORMANCE_CO_ASSERT(ns_namespaced.Ok());
    EXPECT_FALSE(*ns_namespaced);
    Object widget;
    widget.SetGroupVersionKind(WidgetKind());
    StatusOr<bool> widget_namespaced = co_await client.IsObjectNamespaced(ctx, widget);
    CONFORMANCE_CO_ASSERT(widget_namespaced.Ok());
    EXPECT_TRUE(*widget_namespaced);
    Object unknown;
    unknown.SetApiVersion("nope.example.com/v1");
    unknown.SetKind("Widget");
    StatusOr<bool> unknown_namespaced = co_await client.IsObjectNamespaced(ctx, unknown);
    EXPECT_TRUE(IsNoMatch(unknown_namespaced.GetStatus())) << unknown_namespaced.GetStatus();
    EXPECT_TRUE(IsBadRequest(client.GroupVersionKindFor(Object()).GetStatus()));
}

}  // namespace

std::vector<ClientConformanceCase> ReadConformanceCases() {
    return {
        {"GetReadsEveryForm", &GetReadsEveryForm},
        {"GetOfAClusterScopedKindIgnoresTheNamespace", &GetOfAClusterScopedKindIgnoresTheNamespace},
        {"ReadErrorsCarryTheServerCodes", &ReadErrorsCarryTheServerCodes},
        {"ListSelectsByNamespaceLabelsAndFields", &ListSelectsByNamespaceLabelsAndFields},
        {"ListPagesWithLimitAndContinue", &ListPagesWithLimitAndContinue},
        {"ListAcrossNamespacesAndMetadataOnly", &ListAcrossNamespacesAndMetadataOnly},
        {"KindAndScopeOfObjects", &KindAndScopeOfObjects},
    };
}

}  // namespace ctrl::testing
