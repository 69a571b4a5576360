#include "ctrl/core/base64.hpp"

#include <gtest/gtest.h>

#include <string>

namespace ctrl {
namespace {

TEST(Base64Test, Rfc4648Vectors) {
    const std::pair<std::string_view, std::string_view> vectors[] = {
        {"", ""},
        {"f", "Zg=="},
        {"fo", "Zm8="},
        {"foo", "Zm9v"},
        {"foob", "Zm9vYg=="},
        {"fooba", "Zm9vYmE="},
        {"foobar", "Zm9vYmFy"},
    };
    for (const auto& [plain, encoded] : vectors) {
        EXPECT_EQ(Base64Encode(plain), encoded);
        auto decoded = Base64Decode(encoded);
        ASSERT_TRUE(decoded.Ok()) << encoded << ": " << decoded.GetStatus();
        EXPECT_EQ(*decoded, plain);
    }
}

TEST(Base64Test, EveryByteValue) {
    std::string bytes;
    for (int i = 0; i < 256; ++i)
        bytes.push_back(static_cast<char>(i));
    auto decoded = Base64Decode(Base64Encode(bytes));
    ASSERT_TRUE(decoded.Ok());
    EXPECT_EQ(*decoded, bytes);
}

TEST(Base64Test, SkipsLineBreaks) {
    EXPECT_EQ(*Base64Decode("Zm9v\r\nYmFy\n"), "foobar");
    EXPECT_EQ(*Base64Decode("Zm8=\n"), "fo");
}

TEST(Base64Test, RefusesMalformedInput) {
    for (std::string_view text : {"Zm9", "Zm9vY", "Z===", "=m9v", "Zm=v", "Zm8=Zm8=", "Zm9v*", "Zm 9v", "Zm9v-_"}) {
        auto decoded = Base64Decode(text);
        EXPECT_TRUE(IsBadRequest(decoded.GetStatus())) << text;
    }
    EXPECT_EQ(Base64Decode("Zm9v*").GetStatus().Message(),
              "illegal base64 data at input byte 4: not a base64 character");
}

}  // namespace
}  // namespace ctrl
