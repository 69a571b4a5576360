// Planted forms that GCC 12 compiles correctly inside a co_await (measured under ASan, see
// docs/decisions.md, decision 16). Never compiled into a binary: test/coawait/check_planted.sh runs
// hack/check-coawait.sh on this file and expects no finding.
#include <utility>

#include <boost/asio.hpp>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace planted {
namespace asio = boost::asio;
using asio::awaitable;

struct Key {  // an aggregate whose members have non-trivial destructors
    std::string namespace_name;
    std::string name;
};
class NamedKey {  // a class with a constructor: braces call it
  public:
    NamedKey(std::string namespace_name, std::string name)
        : namespace_name_(std::move(namespace_name)), name_(std::move(name)) {}
    const std::string& Name() const { return name_; }

  private:
    std::string namespace_name_;
    std::string name_;
};
struct Page {  // trivially destructible aggregates
    int limit = 0;
    const char* token = nullptr;
};
struct KeyView {
    std::string_view namespace_name;
    std::string_view name;
};
class Options {  // not an aggregate: a user-declared constructor
  public:
    Options() {}
    std::string field_selector;
};

awaitable<int> Get(Key key) {
    co_return static_cast<int>(key.name.size());
}
awaitable<int> GetNamed(NamedKey key) {
    co_return static_cast<int>(key.Name().size());
}
awaitable<int> GetNamedRef(const NamedKey& key) {
    co_return static_cast<int>(key.Name().size());
}
awaitable<int> GetView(KeyView key) {
    co_return static_cast<int>(key.name.size());
}
awaitable<int> ListPage(Page page) {
    co_return page.limit;
}
awaitable<int> Text(std::string text) {
    co_return static_cast<int>(text.size());
}
awaitable<int> TextRef(const std::string& text) {
    co_return static_cast<int>(text.size());
}
awaitable<int> Pair(std::pair<std::string, int> pair) {
    co_return pair.second;
}
awaitable<int> Maybe(std::optional<std::string> text) {
    co_return text ? 1 : 0;
}
awaitable<int> List(std::string namespace_name, Options options = Options()) {
    co_return static_cast<int>(options.field_selector.size());
}
awaitable<int> Watch(std::string namespace_name, std::string selector = "a=b", Page page = {}) {
    co_return page.limit;
}
awaitable<int> One() {
    co_return 1;
}
awaitable<std::string> Name() {
    co_return "n";
}
template <class F>
awaitable<int> Each(F f) {
    co_return f();
}
awaitable<int> Callback(std::function<int()> callback) {
    co_return callback();
}
Key MakeKey() {
    return Key{"ns", "name"};
}
int Use(const std::string& text, int value) {
    return static_cast<int>(text.size()) + value;
}

awaitable<int> Constructors(std::string ns, std::string name) {
    int n = co_await GetNamed({ns, name});
    n += co_await GetNamed(NamedKey{ns, name});
    n += co_await GetNamed(NamedKey(ns, "literal"));
    n += co_await GetNamedRef({ns, name});
    n += co_await Text(std::string("x"));
    n += co_await Text("literal");
    n += co_await TextRef(ns + "/" + name);
    n += co_await Pair({ns, 1});
    n += co_await Maybe(std::string("x"));
    n += co_await List(ns);
    n += co_await Watch(ns);
    n += Use(std::string("x"), co_await One());
    co_return n;
}

awaitable<int> NamedValuesAndPrvalues(std::string ns, std::string name) {
    Key key{ns, name};
    int n = co_await Get(key);
    n += co_await Get(std::move(key));
    n += co_await Get(MakeKey());
    Key built{ns, name};
    built.name = co_await Name();
    n += co_await ListPage({5, "token"});
    n += co_await ListPage({.limit = 5});
    n += co_await GetView({ns, name});
    n += co_await GetView(KeyView{.name = "x"});
    co_return n;
}

awaitable<int> Lambdas(std::string text) {
    int n = co_await Each([&] { return static_cast<int>(text.size()); });
    n += co_await Each([] { return 1; });
    n += co_await Each([limit = 5] { return limit; });
    std::string_view view = text;
    n += co_await Each([view] { return static_cast<int>(view.size()); });
    n += co_await Callback([&text] { return static_cast<int>(text.size()); });
    n += co_await Each([&] {
        Key inside_body{text, text};  // runs later, outside the co_await's full-expression
        return static_cast<int>(inside_body.name.size());
    });
    co_return n;
}

awaitable<int> Conditionals(bool which, std::string a, std::string b) {
    int n = co_await Text(which ? a : b);
    n += co_await Text(which ? "x" : "y");
    n += co_await ListPage(which ? Page{1, "t"} : Page{});
    n += which ? co_await One() : 0;
    co_return n;
}

awaitable<int> SeparateStatements(std::string ns) {
    Key key{ns, "x"};  // no co_await in this statement
    auto executor = co_await asio::this_coro::executor;
    asio::co_spawn(executor, Get(Key{ns, "y"}), asio::detached);
    asio::co_spawn(
        executor, [key]() -> awaitable<int> { co_return co_await Get(key); }, asio::detached);
    co_return co_await Get(key);
}

awaitable<Key> Returns(std::string ns) {
    co_return Key{ns, "x"};
}

awaitable<int> NotACoroutineCaller() {  // aggregates outside any co_await
    Key key = Key{"a", "b"};
    auto callback = [key] { return static_cast<int>(key.name.size()); };
    co_return callback();
}

}  // namespace planted
