// Reads a heap object after freeing it: AddressSanitizer must stop the program (test/sanitizers).
int main() {
    int* object = new int(7);
    int* volatile dangling = object;
    delete object;
    return *dangling;
}
