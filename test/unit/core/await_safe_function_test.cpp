// AwaitSafeFunction and AwaitSafeCallable: which callables a call that is awaited accepts, proven at
// compile time, and that what it accepts is called as a std::function is.
#include "ctrl/core/await_safe_function.hpp"

#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>

#include <boost/asio/io_context.hpp>

#include "ctrl/core/resume.hpp"
#include "ctrl/core/run_sync.hpp"
#include "ctrl/core/status.hpp"
#include "test/support/eventually.hpp"

namespace ctrl {
namespace {

using Extract = AwaitSafeFunction<std::string(int)>;

// The closures of the forms a caller writes (their types: C++20 lets a lambda appear in decltype).
const std::string kKey = "key";
const int kCount = 1;
using CopiesString = decltype([key = kKey](int) { return key; });  // destructor not trivial
using CopiesSharedPtr = decltype([p = std::make_shared<int>(1)](int) { return std::to_string(*p); });
using ByReference = decltype([&key = kKey](int) { return key; });  // trivially destructible
using Captureless = decltype([](int n) { return std::to_string(n); });
using CopiesScalar = decltype([count = kCount](int n) { return std::to_string(n + count); });
std::string FreeFunction(int n) {
    return std::to_string(n);
}

// A temporary closure with a non-trivial destructor: refused (GCC 12 would destroy it twice inside
// a co_await expression). A std::move of a named one cannot be told from it: refused too.
static_assert(!std::is_constructible_v<Extract, CopiesString>);
static_assert(!std::is_constructible_v<Extract, CopiesString&&>);
static_assert(!std::is_constructible_v<Extract, CopiesSharedPtr>);
static_assert(!std::is_convertible_v<CopiesString, Extract>);
static_assert(!AwaitSafeCallable<CopiesString>);
static_assert(!AwaitSafeCallable<CopiesString&&>);
// Named (an lvalue, const or not): accepted, and copied.
static_assert(std::is_convertible_v<CopiesString&, Extract>);
static_assert(std::is_convertible_v<const CopiesString&, Extract>);
static_assert(std::is_convertible_v<CopiesSharedPtr&, Extract>);
// Temporaries with a trivial destructor: [&] captures, captureless, scalars by copy, functions.
static_assert(std::is_convertible_v<ByReference, Extract>);
static_assert(std::is_convertible_v<Captureless, Extract>);
static_assert(std::is_convertible_v<CopiesScalar, Extract>);
static_assert(std::is_convertible_v<decltype(&FreeFunction), Extract>);
static_assert(std::is_convertible_v<decltype(FreeFunction)&, Extract>);
// std::function and AwaitSafeFunction temporaries are built by constructors, which GCC 12 destroys
// once: accepted, as are copies and moves of the wrapper itself.
static_assert(std::is_convertible_v<std::function<std::string(int)>, Extract>);
static_assert(std::is_convertible_v<std::function<std::string(int)>&&, Extract>);
static_assert(std::is_copy_constructible_v<Extract> && std::is_nothrow_move_constructible_v<Extract>);
static_assert(std::is_convertible_v<AwaitSafeFunction<const char*(int)>, Extract>);
static_assert(std::is_convertible_v<std::nullptr_t, Extract> && std::is_default_constructible_v<Extract>);
// It is a std::function: it passes wherever one is wanted.
static_assert(std::is_convertible_v<Extract, std::function<std::string(int)>>);
static_assert(std::is_base_of_v<std::function<std::string(int)>, Extract>);
// A callable of another signature is no function of this one, whatever its captures.
static_assert(!std::is_constructible_v<Extract, decltype([](const std::string&) { return 0; })>);
static_assert(!std::is_constructible_v<Extract, int>);

// Suspend: a named start, a std::function or a [&] lambda; not a temporary lambda capturing by copy.
using SuspendStart = decltype([s = std::string()](Resume<Status>) { (void)s; });
template <typename Start>
concept Suspends = requires(Start&& start) {
    Suspend<Status>(std::forward<Start>(start));
};
template <typename Start>
concept SuspendsWithContext = requires(Start&& start, Context ctx) {
    Suspend<Status>(std::move(ctx), std::forward<Start>(start));
};
static_assert(!Suspends<SuspendStart>);
static_assert(Suspends<SuspendStart&>);
static_assert(Suspends<decltype([](Resume<Status>) {})>);
static_assert(Suspends<std::function<void(Resume<Status>)>>);
static_assert(!SuspendsWithContext<SuspendStart>);
static_assert(SuspendsWithContext<SuspendStart&>);
static_assert(SuspendsWithContext<decltype([](Resume<Status>) {})>);

TEST(AwaitSafeFunctionTest, CallsWhatItWasGiven) {
    const std::string key = "name";
    const auto copies = [key](int n) { return key + std::to_string(n); };
    Extract named = copies;
    EXPECT_EQ(named(1), "name1");
    Extract by_reference = [&key](int n) { return key + "/" + std::to_string(n); };
    EXPECT_EQ(by_reference(2), "name/2");
    Extract function = &FreeFunction;
    EXPECT_EQ(function(3), "3");
    Extract moved = std::move(named);
    EXPECT_EQ(moved(4), "name4");
    Extract empty = nullptr;
    EXPECT_FALSE(empty);
    const std::function<std::string(int)> plain = moved;
    EXPECT_EQ(plain(5), "name5");
}

TEST(AwaitSafeFunctionTest, SuspendTakesANamedStartWithCopies) {
    boost::asio::io_context io;
    const std::string word = "done";
    std::string seen;
    const auto start = [word, &seen](Resume<Status> resume) {
        seen = word;
        resume(OkStatus());
    };
    EXPECT_TRUE(RunSync(io, Suspend<Status>(start)).Ok());
    EXPECT_EQ(seen, "done");
    seen.clear();
    EXPECT_TRUE(RunSync(io, Suspend<Status>(testing::TestContext(), start)).Ok());
    EXPECT_EQ(seen, "done");
}

}  // namespace
}  // namespace ctrl
