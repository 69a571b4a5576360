// Two threads write one int with no synchronisation: ThreadSanitizer must report the race
// (test/sanitizers).
#include <thread>

int unsynchronised = 0;

int main() {
    std::thread writer([] {
        for (int i = 0; i < 1000; ++i)
            unsynchronised = unsynchronised + 1;
    });
    for (int i = 0; i < 1000; ++i)
        unsynchronised = unsynchronised + 1;
    writer.join();
    return unsynchronised > 0 ? 0 : 1;
}
