#include "test/bench/vs/load_observer.hpp"

#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <thread>

#include "test/bench/annotation_patch_load.hpp"

namespace ctrl::bench::vs {

int64_t UnixNanos() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

void PrintResult(const Figures& figures) {
    std::ostringstream line;
    line.precision(15);
    line << "RESULT";
    for (const auto& [key, value] : figures)
        line << ' ' << key << '=' << value;
    std::cout << line.str() << std::endl;
}

void SeenValues::Note(const Object& object) {
    const std::optional<std::string_view> value = object.Annotation(AnnotationPatchLoad::kAnnotation);
    if (value)
        Note(*value, UnixNanos());
}

void SeenValues::Note(std::string_view value, int64_t at_unix_ns) {
    std::lock_guard lock(mu_);
    first_seen_.try_emplace(std::string(value), at_unix_ns);
}

std::unordered_map<std::string, int64_t> SeenValues::Snapshot() const {
    std::lock_guard lock(mu_);
    return first_seen_;
}

std::size_t SeenValues::Size() const {
    std::lock_guard lock(mu_);
    return first_seen_.size();
}

int LoadRecord::Answered() const {
    int answered = 0;
    for (const RecordedPatch& patch : patches)
        answered += patch.ok ? 1 : 0;
    return answered;
}

StatusOr<LoadRecord> ReadLoadRecord(const std::string& path) {
    std::ifstream in(path);
    if (!in)
        return Status(StatusCode::kNotFound, "cannot open the load record " + path);
    LoadRecord record;
    std::string word;
    if (!(in >> word >> record.nonce) || word != "nonce")
        return Status(StatusCode::kBadRequest, "load record " + path + ": no \"nonce\" line first");
    RecordedPatch patch;
    int ok = 0;
    while (in >> patch.seq >> patch.sent >> patch.answered >> ok) {
        patch.ok = ok == 1;
        record.patches.push_back(patch);
    }
    if (!in.eof())
        return Status(StatusCode::kBadRequest, "load record " + path + ": malformed after " +
                                                   std::to_string(record.patches.size()) + " patches");
    return record;
}

StatusOr<LoadRecord> AwaitStop() {
    std::cout << "SYNCED" << std::endl;
    std::string line;
    if (!std::getline(std::cin, line))
        return Status(StatusCode::kCancelled, "stdin closed before STOP");
    std::istringstream words(line);
    std::string stop, path;
    if (!(words >> stop >> path) || stop != "STOP")
        return Status(StatusCode::kBadRequest, "expected \"STOP <record-file> <answered>\", read \"" + line + "\"");
    return ReadLoadRecord(path);
}

void WaitUntilAllSeen(const LoadRecord& record, const SeenValues& seen) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(15);
    while (std::chrono::steady_clock::now() < deadline) {
        const auto snapshot = seen.Snapshot();
        bool all = true;
        for (const RecordedPatch& patch : record.patches) {
            if (patch.ok && !snapshot.count(record.nonce + "-" + std::to_string(patch.seq))) {
                all = false;
                break;
            }
        }
        if (all)
            return;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
}

Figures LoadFigures(const LoadRecord& record, const SeenValues& seen, int64_t* last_seen) {
    const auto snapshot = seen.Snapshot();
    std::vector<int64_t> from_send, from_answer;
    int64_t first_sent = INT64_MAX, last = 0;
    int missed = 0;
    for (const RecordedPatch& patch : record.patches) {
        if (!patch.ok)
            continue;
        first_sent = std::min(first_sent, patch.sent);
        auto it = snapshot.find(record.nonce + "-" + std::to_string(patch.seq));
        if (it == snapshot.end()) {
            ++missed;
            continue;
        }
        last = std::max(last, it->second);
        from_send.push_back(it->second - patch.sent);
        from_answer.push_back(it->second - patch.answered);
    }
    Figures figures;
    figures["events"] = static_cast<double>(from_send.size());
    figures["missed"] = missed;
    figures["events_per_s"] =
        from_send.empty() ? 0 : static_cast<double>(from_send.size()) / ((last - first_sent) / 1e9);
    figures["delay_send_p50_ms"] = QuantileMs(from_send, 0.5);
    figures["delay_send_p99_ms"] = QuantileMs(from_send, 0.99);
    figures["delay_answer_p50_ms"] = QuantileMs(from_answer, 0.5);
    figures["delay_answer_p99_ms"] = QuantileMs(from_answer, 0.99);
    if (last_seen)
        *last_seen = last;
    return figures;
}

}  // namespace ctrl::bench::vs
