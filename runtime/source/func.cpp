#include "ctrl/source/func.hpp"

#include <utility>

namespace ctrl::source {

Task<Status> FuncSource::Start(Context ctx, RequestQueue& queue) {
    if (started_.exchange(true))
        co_return AlreadyExistsError(String() + " was started already");
    if (!start_)
        co_return BadRequestError("a func source needs a function");
    co_return co_await start_(std::move(ctx), queue);
}

std::string FuncSource::String() const {
    return "func source";
}

std::shared_ptr<Source> Func(StartFunction start) {
    return std::make_shared<FuncSource>(std::move(start));
}

}  // namespace ctrl::source
