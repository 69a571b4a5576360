// Overflows a signed int: UndefinedBehaviorSanitizer must report it (test/sanitizers).
#include <climits>

int main() {
    volatile int largest = INT_MAX;
    const int overflowed = largest + 1;
    return overflowed < 0 ? 1 : 0;
}
