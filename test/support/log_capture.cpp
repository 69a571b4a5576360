#include "test/support/log_capture.hpp"

namespace ctrl::testing {

class LogCapture::Sink final : public log::Sink {
  public:
    Sink() : text_sink_(log::NewTextSink(text_)), json_sink_(log::NewJsonSink(json_)) {}

    void Write(const log::Record& record) override {
        std::lock_guard lock(mu_);
        text_sink_->Write(record);
        json_sink_->Write(record);
    }

    std::vector<std::string> Lines() const {
        std::lock_guard lock(mu_);
        std::vector<std::string> lines;
        for (const std::ostringstream* out : {&text_, &json_}) {
            std::istringstream in(out->str());
            for (std::string line; std::getline(in, line);)
                lines.push_back(line);
        }
        return lines;
    }

  private:
    mutable std::mutex mu_;
    std::ostringstream text_;
    std::ostringstream json_;
    const std::shared_ptr<log::Sink> text_sink_;
    const std::shared_ptr<log::Sink> json_sink_;
};

LogCapture::LogCapture(int verbosity) : sink_(std::make_shared<Sink>()) {
    log::SetSink(sink_);
    log::SetVerbosity(verbosity);
}

LogCapture::~LogCapture() {
    log::SetSink(nullptr);
    log::SetVerbosity(0);
}

std::vector<std::string> LogCapture::Lines() const {
    return sink_->Lines();
}

std::vector<std::string> LogCapture::LinesWith(const std::string& needle) const {
    std::vector<std::string> found;
    for (std::string& line : Lines()) {
        if (line.find(needle) != std::string::npos)
            found.push_back(std::move(line));
    }
    return found;
}

}  // namespace ctrl::testing
