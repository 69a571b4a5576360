#pragma once

// The bytes the allocator has handed out and not had back, in any build: glibc's count
// (mallinfo2), or the sanitizer runtime's under ASan and TSan, where mallinfo2 reports nothing.

#include <malloc.h>

#include <cstddef>

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define CTRL_TEST_SANITIZED 1
// The sanitizer runtime's count (its header, sanitizer/allocator_interface.h, is not installed here).
extern "C" std::size_t __sanitizer_get_current_allocated_bytes();
#endif

namespace ctrl::testing {

inline std::size_t HeapInUse() {
#ifdef CTRL_TEST_SANITIZED
    return __sanitizer_get_current_allocated_bytes();
#else
    return mallinfo2().uordblks;
#endif
}

}  // namespace ctrl::testing
