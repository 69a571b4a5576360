#include "ctrl/controller/internal/reconcile_id.hpp"

#include <array>
#include <random>

#include <boost/uuid/random_generator.hpp>
#include <boost/uuid/uuid_io.hpp>

namespace ctrl::controller::internal {
namespace {

// Boost 1.74's default-constructed basic_random_generator seeds its engine only when the engine has
// a seed() taking no argument, which std::mt19937_64 does not have (its argument is defaulted): left
// to itself, every thread of every process would draw the same ids. So the engine is seeded here,
// with 256 bits from the OS.
std::mt19937_64 SeededEngine() {
    std::random_device os;
    std::array<std::random_device::result_type, 8> words{};
    for (auto& word : words)
        word = os();
    std::seed_seq seed(words.begin(), words.end());
    return std::mt19937_64(seed);
}

}  // namespace

std::string NewReconcileId() {
    thread_local std::mt19937_64 engine = SeededEngine();
    thread_local boost::uuids::basic_random_generator<std::mt19937_64> generate(&engine);
    return boost::uuids::to_string(generate());
}

}  // namespace ctrl::controller::internal
