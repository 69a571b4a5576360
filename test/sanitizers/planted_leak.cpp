// Loses the only pointer to a heap object: LeakSanitizer must report it at exit (test/sanitizers).
#include <cstdlib>
#include <cstring>

int* volatile leaked = nullptr;

[[gnu::noinline]] void AllocateAndForget() {
    leaked = new int[64];
    leaked = nullptr;
}

// Overwrites the stack the allocation used, so no stale copy of the pointer keeps the block reachable.
[[gnu::noinline]] void ClobberStack() {
    volatile char scratch[4096];
    std::memset(const_cast<char*>(scratch), 0, sizeof(scratch));
}

int main() {
    AllocateAndForget();
    ClobberStack();
    return EXIT_SUCCESS;
}
