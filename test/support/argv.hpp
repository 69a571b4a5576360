#pragma once

#include <string>
#include <vector>

namespace ctrl::testing {

// A command line for flag parsers that take (int& argc, char** argv) and remove what they consume:
// owns the strings; Left() is what the parser left after argv[0].
class Argv {
  public:
    explicit Argv(std::vector<std::string> args) : args_(std::move(args)) {
        for (std::string& arg : args_)
            pointers_.push_back(arg.data());
        argc_ = static_cast<int>(pointers_.size());
    }
    int& argc() { return argc_; }
    char** argv() { return pointers_.data(); }
    std::vector<std::string> Left() const { return {pointers_.begin() + 1, pointers_.begin() + argc_}; }

  private:
    std::vector<std::string> args_;
    std::vector<char*> pointers_;
    int argc_ = 0;
};

}  // namespace ctrl::testing
