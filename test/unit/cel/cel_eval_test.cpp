// Evaluating CEL against JSON: the operators, macros and functions Kubernetes' rules use, with
// CEL's error semantics.
#include <gtest/gtest.h>

#include "ctrl/cel/program.hpp"

namespace ctrl::cel {
namespace {

// The result of expression with self = json: "true", "false" or "error: <message>".
std::string Eval(const std::string& expression, const std::string& json = "{}") {
    StatusOr<Program> program = Program::Compile(expression);
    if (!program.Ok())
        return "compile: " + program.GetStatus().Message();
    StatusOr<Object> self = Object::Parse(json);
    if (!self.Ok())
        return "json: " + self.GetStatus().Message();
    StatusOr<bool> result = program->Test(*self);
    if (!result.Ok())
        return "error: " + result.GetStatus().Message();
    return *result ? "true" : "false";
}

TEST(CelEval, Arithmetic) {
    EXPECT_EQ(Eval("1 + 2 * 3 == 7 && (1 + 2) * 3 == 9 && 7 / 2 == 3 && 7 % 3 == 1 && -7 / 2 == -3"), "true");
    EXPECT_EQ(Eval("2u * 3u == 6u && 1.5 + 1.5 == 3.0 && 'a' + 'b' == 'ab' && [1] + [2] == [1, 2]"), "true");
    EXPECT_EQ(Eval("9223372036854775807 + 1 > 0"), "error: integer overflow");
    EXPECT_EQ(Eval("1 / 0 == 0"), "error: division by zero");
    EXPECT_EQ(Eval("-(-9223372036854775808) > 0"), "error: integer overflow");
    EXPECT_EQ(Eval("'a' + 1 == 'a1'"), "error: no such overload: string + int");
}

TEST(CelEval, ComparesNumbersAcrossTypesAndOtherValuesByType) {
    EXPECT_EQ(Eval("1 == 1.0 && 1u == 1 && 2 > 1.5 && -1 < 0u && 'a' < 'b' && false < true"), "true");
    EXPECT_EQ(Eval("1 == '1' || [1, 2] == [1, 3] || {'a': 1} == {'a': 2} || null == false"), "false");
    EXPECT_EQ(Eval("[1, [2]] == [1.0, [2u]] && {'a': [1]} == {'a': [1]} && null == null"), "true");
    EXPECT_EQ(Eval("'a' < 1"), "error: no such overload: string < int");
}

TEST(CelEval, LogicalOperatorsAbsorbErrorsTheOtherSideDecides) {
    EXPECT_EQ(Eval("self.missing == 1 || true"), "true");
    EXPECT_EQ(Eval("false && self.missing == 1"), "false");
    EXPECT_EQ(Eval("self.missing == 1 && false"), "false");
    EXPECT_EQ(Eval("self.missing == 1 || false"), "error: no such key: missing");
    EXPECT_EQ(Eval("1 || true"), "true");
    EXPECT_EQ(Eval("1 || false"), "error: || needs a bool, not a int");
    EXPECT_EQ(Eval("1 ? true : false"), "error: ?: needs a bool, not a int");
}

TEST(CelEval, SelectsFieldsAndTellsPresence) {
    const std::string json = R"({"spec":{"min":2,"max":null,"namespace":"a","a-b":1,"list":[{"x":1}]}})";
    EXPECT_EQ(Eval("self.spec.min == 2 && has(self.spec.min) && !has(self.spec.other)", json), "true");
    EXPECT_EQ(Eval("!has(self.spec.max)", json), "true");  // null reads as absent
    EXPECT_EQ(Eval("self.spec.__namespace__ == 'a' && self.spec.a__dash__b == 1", json), "true");
    EXPECT_EQ(Eval("self.spec.list[0].x == 1 && self['spec']['min'] == 2 && 'min' in self.spec", json), "true");
    EXPECT_EQ(Eval("self.spec.other == 1", json), "error: no such key: other");
    EXPECT_EQ(Eval("self.spec.list[1].x == 1", json), "error: index out of bounds: 1");
    EXPECT_EQ(Eval("self.spec.min.x == 1", json), "error: no such field 'x' in a int");
    EXPECT_EQ(Eval("other == 1", json), "error: undeclared reference to 'other'");
}

TEST(CelEval, Macros) {
    const std::string json = R"({"l":[{"n":"a","p":80},{"n":"b","p":443},{"n":"a","p":8080}],"m":{"x":1,"y":2}})";
    EXPECT_EQ(Eval("self.l.all(i, i.p > 0) && self.l.exists(i, i.p == 443) && self.l.exists_one(i, i.n == 'b')", json),
              "true");
    EXPECT_EQ(Eval("self.l.all(l1, self.l.exists_one(l2, l1.n == l2.n))", json), "false");
    EXPECT_EQ(Eval("self.l.filter(i, i.n == 'a').size() == 2 && self.l.map(i, i.p) == [80, 443, 8080]", json), "true");
    EXPECT_EQ(Eval("self.l.map(i, i.n == 'a', i.p) == [80, 8080]", json), "true");
    EXPECT_EQ(Eval("self.m.all(k, k in ['x', 'y']) && self.m.exists(k, self.m[k] == 2)", json), "true");
    // An error in one element is the result unless another element decides.
    EXPECT_EQ(Eval("self.l.exists(i, i.q == 1 || i.p == 443)", json), "true");
    EXPECT_EQ(Eval("self.l.all(i, i.q == 1)", json), "error: no such key: q");
    EXPECT_EQ(Eval("self.l.all(i, i.p)", json), "error: all() needs a bool predicate, not a int");
    EXPECT_EQ(Eval("[].all(i, false) && ![].exists(i, true)"), "true");
}

TEST(CelEval, StringFunctions) {
    EXPECT_EQ(Eval("'/api//v1'.contains('//') && 'abc'.startsWith('ab') && 'abc'.endsWith('bc')"), "true");
    EXPECT_EQ(Eval("'héllo'.size() == 5 && size('héllo') == 5 && 'héllo'.substring(1, 3) == 'él'"), "true");
    EXPECT_EQ(Eval("'a/b/c'.split('/') == ['a', 'b', 'c'] && 'a/b/c'.split('/', 2) == ['a', 'b/c']"), "true");
    EXPECT_EQ(Eval("'abc'.split('') == ['a', 'b', 'c'] && ['a', 'b'].join('-') == 'a-b' && ['a'].join() == 'a'"),
              "true");
    EXPECT_EQ(Eval("'AbC'.lowerAscii() == 'abc' && 'abc'.upperAscii() == 'ABC' && '  a '.trim() == 'a'"), "true");
    EXPECT_EQ(Eval("'aXbX'.replace('X', 'y') == 'ayby' && 'aXbX'.replace('X', 'y', 1) == 'aybX'"), "true");
    EXPECT_EQ(Eval("'abcabc'.indexOf('c') == 2 && 'abcabc'.lastIndexOf('c') == 5 && 'abc'.indexOf('z') == -1"), "true");
    EXPECT_EQ(Eval("'abc'.substring(2, 5) == ''"), "error: substring(2, 5) out of range");
}

TEST(CelEval, MatchesIsAPartialMatchInRe2Syntax) {
    EXPECT_EQ(Eval("'shop.example.com'.matches('example') && matches('abc', '^a') && !'abc'.matches('^b')"), "true");
    EXPECT_EQ(Eval(R"('Janvier'.matches('(?i)^janvier$'))"), "true");
    EXPECT_EQ(Eval(R"(self.matches(r"""^(\*\.)?[a-z0-9]([-a-z0-9]*[a-z0-9])?$"""))", R"("*.shop")"), "true");
    EXPECT_EQ(Eval("'a'.matches('(')").substr(0, 28), "error: matches(): pattern (:");
}

TEST(CelEval, Re2CaseInsensitiveFlagsHoldForTheirGroup) {
    // Prometheus Operator's weekday pattern: (?i) covers its group, not the "day" after it.
    const std::string weekday = R"(^((?i)sun|mon|tues)day(?:((:(sun|mon|tues)day)$)|$))";
    EXPECT_EQ(Eval("'MONday'.matches(self) && 'monday:tuesday'.matches(self)", "\"" + weekday + "\""), "true");
    EXPECT_EQ(Eval("'monDAY'.matches(self) || 'Janvier'.matches(self)", "\"" + weekday + "\""), "false");
    EXPECT_EQ(Eval("'ABc'.matches('^(?i:ab)c$') && !'ABC'.matches('^(?i:ab)c$')"), "true");
    EXPECT_EQ(Eval("'AbC'.matches('(?i)^[a-c]+$') && !'AbD'.matches('(?i)^[^d]+$')"), "true");
    EXPECT_EQ(Eval("'ab'.matches('^(?P<first>a)b$')"), "true");
    EXPECT_EQ(Eval("'a'.matches('(?s)a')"), "error: matches(): pattern (?s)a: flags group (?s) is not supported");
    // RE2 refuses counts above 1000; libstdc++ would overflow reading a longer one (found by fuzzing).
    EXPECT_EQ(Eval("'aa'.matches('^a{1,1000}$') && 'aaa'.matches('^a{2,}$')"), "true");
    EXPECT_EQ(Eval("'a'.matches('a{1001}')"),
              "error: matches(): pattern a{1001}: repetition count in {1001} above 1000 (RE2's limit)");
    EXPECT_EQ(Eval("'a'.matches('a{2,11111111111111111111111}')").substr(0, 40),
              "error: matches(): pattern a{2,1111111111");
}

TEST(CelEval, ConversionsAndDurations) {
    EXPECT_EQ(Eval("int('42') == 42 && int(2.9) == 2 && uint(3) == 3u && double(1) == 1.0 && string(1.5) == '1.5'"),
              "true");
    EXPECT_EQ(Eval("string(true) == 'true' && bool('false') == false && dyn(1) == 1 && string(18446744073709551615u) "
                   "== '18446744073709551615'"),
              "true");
    EXPECT_EQ(Eval("duration('1h30m') == duration('90m') && duration('1.5s') > duration('1s') && "
                   "duration('300ms') + duration('700ms') == duration('1s') && string(duration('1.5s')) == '1.5s'"),
              "true");
    EXPECT_EQ(Eval("int('x') == 1"), "error: int(\"x\"): not a number in range");
    EXPECT_EQ(Eval("duration('1 hour') > duration('0s')"), "error: duration(\"1 hour\"): not a duration");
    EXPECT_EQ(Eval("uint(-1) == 1u"), "error: uint() out of range");
}

TEST(CelEval, SelfMayBeAnyJsonValueAndTheResultMustBeABool) {
    EXPECT_EQ(Eval("self == 'x'", R"("x")"), "true");
    EXPECT_EQ(Eval("self.size() == 3 && '*' in self", R"(["*","a","b"])"), "true");
    EXPECT_EQ(Eval("self + 1", "1"), "error: the expression gave a int, not a bool");
}

}  // namespace
}  // namespace ctrl::cel
