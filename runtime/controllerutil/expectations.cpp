#include "ctrl/controllerutil/expectations.hpp"

#include <algorithm>

namespace ctrl::controllerutil {

Expectations::Expectations(std::chrono::milliseconds timeout) : timeout_(timeout) {}

void Expectations::ExpectCreations(const std::string& owner, int count) {
    std::lock_guard lock(mu_);
    expected_[owner] = Expected{count, 0, Clock::now()};
}

void Expectations::ExpectDeletions(const std::string& owner, int count) {
    std::lock_guard lock(mu_);
    expected_[owner] = Expected{0, count, Clock::now()};
}

void Expectations::RaiseExpectations(const std::string& owner, int creations, int deletions) {
    std::lock_guard lock(mu_);
    Expected& expected = expected_[owner];
    expected.creations = std::max(expected.creations, 0) + creations;
    expected.deletions = std::max(expected.deletions, 0) + deletions;
    expected.set = Clock::now();
}

void Expectations::Observed(const std::string& owner, bool deleted) {
    std::lock_guard lock(mu_);
    auto it = expected_.find(owner);
    if (it == expected_.end())
        return;
    --(deleted ? it->second.deletions : it->second.creations);
}

void Expectations::CreationObserved(const std::string& owner) {
    Observed(owner, false);
}

void Expectations::DeletionObserved(const std::string& owner) {
    Observed(owner, true);
}

void Expectations::ObserveOwned(const Object& child, bool deleted) {
    for (const OwnerReference& reference : child.OwnerReferences()) {
        if (!reference.controller.value_or(false))
            continue;
        const std::string_view ns = child.Namespace();
        Observed(ns.empty() ? reference.name : std::string(ns) + "/" + reference.name, deleted);
        return;
    }
}

bool Expectations::SatisfiedLocked(const Expected& expected, Clock::time_point now) const {
    return (expected.creations <= 0 && expected.deletions <= 0) || now - expected.set >= timeout_;
}

bool Expectations::Satisfied(const std::string& owner) const {
    std::lock_guard lock(mu_);
    auto it = expected_.find(owner);
    return it == expected_.end() || SatisfiedLocked(it->second, Clock::now());
}

std::chrono::milliseconds Expectations::Remaining(const std::string& owner) const {
    std::lock_guard lock(mu_);
    auto it = expected_.find(owner);
    const Clock::time_point now = Clock::now();
    if (it == expected_.end() || SatisfiedLocked(it->second, now))
        return std::chrono::milliseconds(0);
    return std::chrono::ceil<std::chrono::milliseconds>(it->second.set + timeout_ - now);
}

void Expectations::Forget(const std::string& owner) {
    std::lock_guard lock(mu_);
    expected_.erase(owner);
}

}  // namespace ctrl::controllerutil
