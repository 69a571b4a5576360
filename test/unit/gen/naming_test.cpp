// The identifiers ctrl-gen derives from JSON names and kinds.
#include "tools/ctrl-gen/naming.hpp"

#include <gtest/gtest.h>

namespace ctrl::gen {
namespace {

TEST(NamingTest, PascalNames) {
    EXPECT_EQ(PascalName("podSelector"), "PodSelector");
    EXPECT_EQ(PascalName("x-kubernetes.io/name"), "XKubernetesIoName");
    EXPECT_EQ(PascalName("$ref"), "Ref");
    EXPECT_EQ(PascalName("3d"), "Field3d");
    EXPECT_EQ(PascalName("--"), "Field");
    EXPECT_EQ(PascalName("isCA"), "IsCA");
}

TEST(NamingTest, EnumConstantNames) {
    EXPECT_EQ(EnumConstantName("Running"), "kRunning");
    EXPECT_EQ(EnumConstantName("digital signature"), "kDigitalSignature");
    EXPECT_EQ(EnumConstantName("RSA"), "kRSA");
    EXPECT_EQ(EnumConstantName("TLS1.2"), "kTLS1_2");
    EXPECT_EQ(EnumConstantName("eu-west-1"), "kEuWest1");
    EXPECT_EQ(EnumConstantName("3d"), "k3d");
    EXPECT_EQ(EnumConstantName("-1"), "kMinus1");
    EXPECT_EQ(EnumConstantName(""), "kEmpty");
    EXPECT_EQ(EnumConstantName("--"), "kEmpty");
}

TEST(NamingTest, DecimalIntegers) {
    EXPECT_EQ(ParseDecimalInteger("42"), 42);
    EXPECT_EQ(ParseDecimalInteger("+7"), 7);
    EXPECT_EQ(ParseDecimalInteger("-1"), -1);
    EXPECT_EQ(ParseDecimalInteger("007"), 7);
    EXPECT_EQ(ParseDecimalInteger("1.0"), std::nullopt);
    EXPECT_EQ(ParseDecimalInteger("0x10"), std::nullopt);
    EXPECT_EQ(ParseDecimalInteger("+-1"), std::nullopt);
    EXPECT_EQ(ParseDecimalInteger(""), std::nullopt);
    EXPECT_EQ(ParseDecimalInteger("99999999999999999999"), std::nullopt);
}

TEST(NamingTest, SnakeNames) {
    EXPECT_EQ(SnakeName("SecurityGroupPolicy"), "security_group_policy");
    EXPECT_EQ(SnakeName("CNINode"), "cni_node");
    EXPECT_EQ(SnakeName("ETCDBackup2"), "etcd_backup2");
}

TEST(NamingTest, GroupLabelsAndLiterals) {
    EXPECT_EQ(GroupLabel("vpcresources.k8s.aws"), "vpcresources");
    EXPECT_EQ(GroupLabel("cert-manager.io"), "cert_manager");
    EXPECT_EQ(CppStringLiteral("a\"b\\c?\n\x01"), R"("a\"b\\c?\n\u0001")");
}

TEST(NamingTest, CommentsWrapAndNeverEndInABackslash) {
    EXPECT_EQ(CommentLines("one two  three\nfour", 9), (std::vector<std::string>{"one two", "three", "four"}));
    EXPECT_EQ(CommentLines("a\n\nb", 80), (std::vector<std::string>{"a", "", "b"}));
    EXPECT_EQ(CommentLines("path C:\\", 80), (std::vector<std::string>{"path C:\\."}));
}

TEST(NamingTest, ScopesNumberLaterClaimants) {
    NameScope scope({"Taken"});
    EXPECT_EQ(scope.Unique("Taken"), "Taken2");
    EXPECT_EQ(scope.Unique("Free"), "Free");
    EXPECT_EQ(scope.Unique("Free"), "Free2");
}

}  // namespace
}  // namespace ctrl::gen
