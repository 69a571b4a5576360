// Compiling CEL: what the parser accepts, what it refuses and how it says where.
#include <gtest/gtest.h>

#include "ctrl/cel/program.hpp"

namespace ctrl::cel {
namespace {

TEST(CelCompile, AcceptsTheRulesOfPublishedCrds) {
    // Taken from Gateway API, KEDA, Prometheus Operator and Flux CRDs.
    const char* rules[] = {
        ("!has(self.minReplicaCount) || self.minReplicaCount <= (has(self.maxReplicaCount) ? "
         "self.maxReplicaCount : 100)"),
        "self.all(l, l.protocol in ['HTTP', 'TCP', 'UDP'] ? !has(l.tls) : true)",
        "(self.type in ['Exact','PathPrefix']) ? !self.value.contains('//') : true",
        R"(self.all(key, key.matches(r"""^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?([A-Za-z0-9][-A-Za-z0-9_.]{0,61})?[A-Za-z0-9]$""")))",
        "self.filter(f, f.type == 'CORS').size() <= 1",
        "self.all(l1, self.exists_one(l2, l1.name == l2.name))",
        "!(has(self.request) && duration(self.request) != duration('0s'))",
        "self.all(key, key.split(\"/\")[0].size() < 253)",
        "(size(self.group) == 0 && self.kind == 'Service') ? has(self.port) : true",
        "has(p1.__namespace__) && p1.__namespace__ == ''",
        "self.map(x, x * 2) == [2, 4] && self.map(x, x > 1, x) == [2] && {'a': 1}['a'] == 1",
        "-9223372036854775808 < 0 && 18446744073709551615u > 0u && 0x1F == 31 && 1.5e3 == 1500.0",
    };
    for (const char* rule : rules)
        EXPECT_TRUE(Program::Compile(rule).Ok()) << rule << ": " << Program::Compile(rule).GetStatus().Message();
}

TEST(CelCompile, RefusesWhatItCannotEvaluateNamingWhatAndWhere) {
    const struct {
        const char* expression;
        const char* message;
    } cases[] = {
        {"self.a ==", "unexpected the end of the expression at column 10"},
        {"self.a = 1", "unexpected character '=' at column 8"},
        {"url(self.a).getScheme() == 'https'", "unsupported function url() at column 1"},
        {"self.quantity.isGreaterThan(quantity('1'))", "unsupported function quantity() at column 29"},
        {"'abc", "unterminated string at column 1"},
        {"b'abc' == self", "bytes literals are not supported at column 1"},
        {"9223372036854775808 > 1", "integer literal out of range at column 1"},
        {"has(self)", "has() takes one field selection, as in has(self.field) at column 10"},
        {"self.all(1, true)", "all() needs a variable name as its first argument"},
        {"self.?a", "expected a field or method name after '.', found '?' at column 6"},
        {"'\\q'", "unknown escape sequence \\q at column 2"},
    };
    for (const auto& c : cases) {
        const StatusOr<Program> program = Program::Compile(c.expression);
        ASSERT_FALSE(program.Ok()) << c.expression;
        EXPECT_EQ(program.GetStatus().Code(), StatusCode::kBadRequest);
        EXPECT_NE(program.GetStatus().Message().find(c.message), std::string::npos)
            << c.expression << ": " << program.GetStatus().Message();
    }
}

TEST(CelCompile, SaysWhetherARuleReadsOldSelf) {
    EXPECT_TRUE(Program::Compile("self == oldSelf")->Uses("oldSelf"));
    EXPECT_FALSE(Program::Compile("self.all(x, x > 0)")->Uses("oldSelf"));
    EXPECT_FALSE(Program::Compile("self.all(oldSelf, oldSelf > 0)")->Uses("oldSelf"));
}

TEST(CelCompile, RefusesNestingDeeperThanItsLimit) {
    std::string chain = "1";
    for (int i = 0; i < 400; ++i)
        chain += " + 1";
    for (const std::string& deep :
         {std::string(400, '(') + "1" + std::string(400, ')'), std::string(400, '!') + "true", chain}) {
        const StatusOr<Program> program = Program::Compile(deep);
        ASSERT_FALSE(program.Ok()) << deep.substr(0, 20);
        EXPECT_NE(program.GetStatus().Message().find("nested too deeply"), std::string::npos);
    }
    // A rule of published CRDs' length is far from it: HTTPRoute sums 16 terms.
    EXPECT_TRUE(Program::Compile(chain.substr(0, 1 + 4 * 99)).Ok());  // 100 terms
}

}  // namespace
}  // namespace ctrl::cel
