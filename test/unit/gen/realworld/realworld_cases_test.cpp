// Every real-world CRD's sample is valid for its generated kind and round-trips unchanged; every
// invalid case is refused by Validate() naming the fields the API server names, except the gaps
// (CEL rules, patterns std::regex cannot read), which it accepts. test/integration/gen/ checks the
// same cases against the real API server.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "test/unit/gen/realworld/realworld_cases.hpp"

namespace ctrl::realworld {
namespace {

class RealCrdTest : public ::testing::TestWithParam<RealCrd> {};

TEST_P(RealCrdTest, TheSampleIsValid) {
    const std::string sample = Sample(GetParam().name);
    ASSERT_FALSE(sample.empty()) << GetParam().name;
    EXPECT_EQ(GetParam().validate(sample), std::vector<std::string>{});
}

// Fields the schema does not know (a newer version's, an annotation) are kept where they are.
TEST_P(RealCrdTest, UnknownFieldsRoundTripByteForByte) {
    std::string json =
        WithValue(Sample(GetParam().name), "/spec/fieldOfANewerVersion", R"({"list":[1,2.5,{"deep":null}],"on":true})");
    json = WithValue(json, "/metadata/annotations", R"({"example.com/note":"kept"})");
    json = WithValue(json, "/zLastTopLevel", R"("kept too")");
    EXPECT_EQ(GetParam().round_trip(json), json);
    EXPECT_EQ(GetParam().round_trip(Sample(GetParam().name)), Sample(GetParam().name));
}

INSTANTIATE_TEST_SUITE_P(Crds, RealCrdTest, ::testing::ValuesIn(RealCrds()),
                         [](const ::testing::TestParamInfo<RealCrd>& info) { return info.param.name; });

class InvalidCaseTest : public ::testing::TestWithParam<InvalidCase> {};

TEST_P(InvalidCaseTest, ValidateNamesTheServersFields) {
    const InvalidCase& invalid = GetParam();
    const RealCrd* crd = FindCrd(invalid.crd);
    ASSERT_NE(crd, nullptr) << invalid.crd;
    const std::vector<std::string> ours = crd->validate(InvalidObject(invalid));
    if (invalid.gap.empty())
        EXPECT_EQ(ours, invalid.fields) << invalid.crd << ": " << invalid.what;
    else
        EXPECT_EQ(ours, std::vector<std::string>{})
            << invalid.crd << ": " << invalid.what << " (" << invalid.gap << ")";
}

INSTANTIATE_TEST_SUITE_P(Cases, InvalidCaseTest, ::testing::ValuesIn(InvalidCases()),
                         [](const ::testing::TestParamInfo<InvalidCase>& info) {
                             return info.param.crd + std::to_string(info.index);
                         });

class AcceptedCaseTest : public ::testing::TestWithParam<AcceptedCase> {};

TEST_P(AcceptedCaseTest, ValidateAcceptsWhatTheServerAccepts) {
    const AcceptedCase& accepted = GetParam();
    const RealCrd* crd = FindCrd(accepted.crd);
    ASSERT_NE(crd, nullptr) << accepted.crd;
    EXPECT_EQ(crd->validate(AcceptedObject(accepted)), std::vector<std::string>{})
        << accepted.crd << ": " << accepted.what;
}

INSTANTIATE_TEST_SUITE_P(Cases, AcceptedCaseTest, ::testing::ValuesIn(AcceptedCases()),
                         [](const ::testing::TestParamInfo<AcceptedCase>& info) {
                             return info.param.crd + std::to_string(info.index);
                         });

}  // namespace
}  // namespace ctrl::realworld
