#include "ctrl/source/source.hpp"

namespace ctrl::source {

Task<Status> Source::WaitForSync(Context /*ctx*/) {
    co_return Status();
}

Task<void> Source::WaitStopped() {
    co_return;
}

Status Source::Ready() const {
    return Status();
}

}  // namespace ctrl::source
