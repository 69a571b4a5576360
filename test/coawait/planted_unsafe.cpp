// Planted forms that GCC 12 destroys twice (GCC PR 99576; measured under ASan, see
// docs/decisions.md, decision 16). Never compiled into a binary: test/coawait/check_planted.sh runs
// hack/check-coawait.sh on this file and expects exactly the lines marked `expect: <kind>`.
#include <utility>

#include <array>
#include <boost/asio.hpp>
#include <functional>
#include <string>

namespace planted {
namespace asio = boost::asio;
using asio::awaitable;

struct Key {  // an aggregate whose members have non-trivial destructors
    std::string namespace_name;
    std::string name;
};
struct Labeled {
    int priority = 0;
    Key key;
};
struct Options {
    std::string field_selector;
    int limit = 0;
};

awaitable<int> Get(Key key) {
    co_return static_cast<int>(key.name.size());
}
awaitable<int> GetRef(const Key& key) {
    co_return static_cast<int>(key.name.size());
}
awaitable<int> GetLabeled(Labeled labeled) {
    co_return labeled.priority;
}
awaitable<int> List(std::string namespace_name, Options options = {}) {
    co_return options.limit;
}
awaitable<int> Watch(int limit, Options options = Options{"a=b", 1}) {
    co_return limit + options.limit;
}
awaitable<int> Names(std::array<std::string, 2> names) {
    co_return static_cast<int>(names.size());
}
awaitable<int> Text(std::string text) {
    co_return static_cast<int>(text.size());
}
awaitable<std::string> Name() {
    co_return "n";
}
awaitable<int> One() {
    co_return 1;
}
awaitable<int> Callback(std::function<int()> callback) {
    co_return callback();
}
template <class F>
awaitable<int> Each(F f) {
    co_return f();
}
// Not a coroutine itself: the temporaries still belong to the caller's co_await.
awaitable<int> Plain(Key key) {
    return Get(std::move(key));
}
int Use(const std::string& text, int value) {
    return static_cast<int>(text.size()) + value;
}

awaitable<int> Aggregates(std::string ns, std::string name) {
    int n = co_await Get({ns, name});              // expect: aggregate
    n += co_await Get(Key{ns, name});              // expect: aggregate
    n += co_await Get({});                         // expect: aggregate
    n += co_await Get({.name = "x"});              // expect: aggregate
    n += co_await Get(Key(ns, name));              // expect: aggregate
    n += co_await GetRef({ns, name});              // expect: aggregate
    n += co_await GetLabeled({1, {ns, name}});     // expect: aggregate
    n += co_await Names({ns, name});               // expect: aggregate
    n += co_await List(ns, {.limit = 5});          // expect: aggregate
    n += co_await Plain(Key{ns, name});            // expect: aggregate
    n += Use(Key{ns, name}.name, co_await One());  // expect: aggregate
    Key built{ns, co_await Name()};                // expect: aggregate
    n += static_cast<int>(built.name.size());
    co_return Key{co_await Name(), name}.name.size();  // expect: aggregate
}

awaitable<int> Lambdas(std::string text) {
    int n = co_await Each([text] { return static_cast<int>(text.size()); });                  // expect: lambda
    n += co_await Each([copy = std::string("x")] { return static_cast<int>(copy.size()); });  // expect: lambda
    n += co_await Callback([text] { return static_cast<int>(text.size()); });                 // expect: lambda
    auto executor = co_await asio::this_coro::executor;
    n += co_await asio::co_spawn(
        executor, [text]() -> awaitable<int> { co_return 1; }, asio::use_awaitable);  // expect: lambda
    co_return n;
}

awaitable<int> Defaults(std::string ns) {
    int n = co_await List(ns);  // expect: defaultarg
    n += co_await Watch(1);     // expect: defaultarg
    co_return n;
}

awaitable<int> Conditionals(bool which, std::string a, std::string b) {
    int n = co_await (which ? One() : Get({}));                        // expect: conditional, aggregate
    n += co_await (which ? One() : Text(a));                           // expect: conditional
    n += co_await Text(which ? std::string("x") : b);                  // expect: conditional
    n += (which ? std::string("x") : a).empty() ? 0 : co_await One();  // expect: conditional
    co_return n;
}

// A co_await in an arm of ?: whose type has a non-trivial destructor (GCC 12 corrupted the heap).
awaitable<std::string> AwaitInAnArm(bool which) {
    std::string text = which ? co_await Name() : co_await Name();  // expect: awaitarm
    co_return text;
}

// The same forms in a lambda coroutine, a coroutine template and a member coroutine.
auto lambda_coroutine = [](std::string ns) -> awaitable<int> {
    co_return co_await Get({ns, "x"});  // expect: aggregate
};

template <class T>
awaitable<int> Generic(T value) {
    co_return co_await Get(Key{value, value});  // expect: aggregate
}
template awaitable<int> Generic<std::string>(std::string);

class Reader {
  public:
    awaitable<int> Read() { co_return co_await Get({namespace_, "x"}); }  // expect: aggregate

  private:
    std::string namespace_;
};

}  // namespace planted
